import {
  dataEnvelope,
  idParamSchema,
  type NotificationType,
  optionsAnswerSchema,
  optionsQuerySchema,
  SAMPLE_FIRST_NAME,
  SMS_TEMPLATE_OPTIONS_PATH,
  type SmsPurpose,
  smsTemplateDuplicateSchema,
  smsTemplateResource,
  smsTemplateSchema,
  smsTemplateTestResultSchema,
  smsTemplateTestSchema,
} from '@admin/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { smsTemplates } from '../../db/schema/index.ts';
import { requireCurrentClientId, requireWritableClient } from '../../kit/current-client.ts';
import { auditDuplicate, copyName } from '../../kit/duplicate.ts';
import { resourceRoutes } from '../../kit/resource-routes.ts';
import { notFound } from '../../lib/http-error.ts';
import { invitationSms } from '../../messaging/invitation.ts';
import { computedColumns, smsTemplateOptions, smsTemplateStore, toSmsTemplate } from './repository.ts';

/** The Tracking Logs type of a message of this purpose; replies and confirmations are system messages. */
const TYPE_OF: Record<SmsPurpose, NotificationType> = {
  survey_invite: 'survey_invite',
  survey_reminder: 'survey_reminder',
  review_invite: 'review_invite',
  survey_alert: 'survey_alert',
  review_alert: 'review_alert',
  opt_in_confirmation: 'system',
  help_reply: 'system',
  stop_reply: 'system',
};

/**
 * SMS templates (collection `/api/sms-templates`): the kit's routes for the definition, and
 * Duplicate — a copy named "… (copy)", active, of the current client or global (`global`; the
 * source's kind when absent), so a global default can be copied and adapted for one client —
 * and the options of a survey's SMS template select, paged on the server.
 */
export const smsTemplateRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(resourceRoutes(smsTemplateResource, smsTemplateStore));

  app.get(
    SMS_TEMPLATE_OPTIONS_PATH,
    { schema: { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } } },
    async (request) => smsTemplateOptions(app.db, requireCurrentClientId(request), request.query),
  );

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
        await auditDuplicate(request, tx, { entityType: 'sms_template', what: 'SMS template', source, copy: row, record });
        return record;
      });
      return reply.code(201).send({ data: copy });
    },
  );

  // Send test: the template rendered with sample values, through the same checks and transport as
  // every message (an opted-out phone is refused and logged), so it shows in Tracking Logs.
  app.post(
    `${smsTemplateResource.path}/:id/send-test`,
    { schema: { params: idParamSchema, body: smsTemplateTestSchema, response: { 201: dataEnvelope(smsTemplateTestResultSchema) } } },
    async (request, reply) => {
      const currentClientId = requireCurrentClientId(request);
      const [template] = await app.db.select().from(smsTemplates).where(eq(smsTemplates.id, request.params.id)).limit(1);
      if (!template || (template.clientId !== null && template.clientId !== currentClientId)) throw notFound('SMS template');
      const client = await app.clients.find(currentClientId);
      const result = await app.messenger.send({
        channel: 'sms',
        type: TYPE_OF[template.purpose as SmsPurpose],
        to: request.body.phone,
        clientId: currentClientId,
        template: `${template.name} (test)`,
        text: invitationSms(template.body, {
          firstName: SAMPLE_FIRST_NAME,
          locationName: null,
          personnelName: null,
          businessName: client?.name ?? 'Your business',
          surveyLink: app.messenger.link('/s/test'),
          unsubscribeLink: app.messenger.link('/u/test'),
        }),
        related: { type: 'sms_template', id: template.id },
      });
      await request.audit({
        action: 'sms_template.send_test',
        message: `Sent a test of SMS template ${template.name}: ${result.status}`,
        clientId: currentClientId,
        entityType: 'sms_template',
        entityId: template.id,
      });
      return reply.code(201).send({ data: { id: result.id, status: result.status, error: result.error } });
    },
  );
};
