import { dataEnvelope, idParamSchema, smsTemplateDuplicateSchema, smsTemplateResource, smsTemplateSchema } from '@admin/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { smsTemplates } from '../../db/schema/index.ts';
import { requireCurrentClientId, requireWritableClient } from '../../kit/current-client.ts';
import { resourceRoutes } from '../../kit/resource-routes.ts';
import { notFound } from '../../lib/http-error.ts';
import { computedColumns, smsTemplateStore, toSmsTemplate } from './repository.ts';

const NAME_MAX = 120;
const copyName = (name: string) => {
  const suffix = ' (copy)';
  return `${name.slice(0, NAME_MAX - suffix.length)}${suffix}`;
};

/**
 * SMS templates (collection `/api/sms-templates`): the kit's routes for the definition, and
 * Duplicate — a copy named "… (copy)", active, of the current client or global (`global`; the
 * source's kind when absent), so a global default can be copied and adapted for one client.
 */
export const smsTemplateRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(resourceRoutes(smsTemplateResource, smsTemplateStore));

  app.post(
    `${smsTemplateResource.path}/:id/duplicate`,
    {
      schema: {
        params: idParamSchema,
        // A POST without a payload reaches the validator as null: the source's kind then.
        body: smsTemplateDuplicateSchema.nullish(),
        response: { 201: dataEnvelope(smsTemplateSchema) },
      },
    },
    async (request, reply) => {
      const currentClientId = requireCurrentClientId(request);
      const [source] = await app.db.select().from(smsTemplates).where(eq(smsTemplates.id, request.params.id)).limit(1);
      // Another client's template is not this screen's to see.
      if (!source || (source.clientId !== null && source.clientId !== currentClientId)) throw notFound('SMS template');
      const global = request.body?.global ?? source.clientId === null;
      const client = global ? null : await requireWritableClient(request);
      const copy = await app.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(smsTemplates)
          .values({
            clientId: client?.id ?? null,
            name: copyName(source.name),
            purpose: source.purpose,
            language: source.language,
            body: source.body,
            ...computedColumns(source.body),
            status: 'active',
          })
          .returning();
        if (!row) throw new Error('insert returned nothing');
        const record = toSmsTemplate(row, client?.name ?? null);
        await request.audit(
          {
            action: 'sms_template.duplicate',
            message: `Duplicated SMS template ${source.name} as ${row.name}`,
            clientId: row.clientId,
            entityType: 'sms_template',
            entityId: row.id,
            after: { ...record, source_id: source.id },
          },
          tx,
        );
        return record;
      });
      return reply.code(201).send({ data: copy });
    },
  );
};
