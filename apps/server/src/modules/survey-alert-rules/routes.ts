import {
  DEFAULT_USER_ENTRY,
  dataEnvelope,
  idParamSchema,
  isIdText,
  type OptionsAnswer,
  type OptionsQuery,
  optionsAnswerSchema,
  optionsQuerySchema,
  surveyAlertRuleResource,
  surveyAlertRuleSchema,
} from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { clientUsers, surveyAlertRecipients, surveyAlertRules, surveys, users } from '../../db/schema/index.ts';
import { requireCurrentClientId, requireWritableClient } from '../../kit/current-client.ts';
import { auditDuplicate, copyName } from '../../kit/duplicate.ts';
import { pagedOptions } from '../../kit/options.ts';
import { resourceRoutes } from '../../kit/resource-routes.ts';
import { notFound } from '../../lib/http-error.ts';
import { loadRule, surveyAlertRuleStore } from './repository.ts';

const path = surveyAlertRuleResource.path;

/** The client's surveys (archived ones left out), paged: the Surveys field and filter. */
const surveyOptions = (db: Db, clientId: number, q: OptionsQuery) =>
  pagedOptions(
    db,
    q,
    {
      value: sql`${surveys.id}`,
      label: sql`${surveys.name}`,
      from: sql`${surveys}`,
      where: sql`${surveys.clientId} = ${clientId} and ${surveys.status} <> 'inactive'`,
    },
    isIdText,
  );

/** The client's active users, paged, with Default for New User first (it matches what was typed too). */
async function userOptions(db: Db, clientId: number, q: OptionsQuery): Promise<OptionsAnswer> {
  const found = await pagedOptions(
    db,
    q,
    {
      value: sql`${users.id}`,
      label: sql`${users.name}`,
      from: sql`${clientUsers} inner join ${users} on ${users.id} = ${clientUsers.userId}`,
      where: sql`${clientUsers.clientId} = ${clientId} and ${clientUsers.status} = 'active'`,
    },
    (v) => isIdText(v) && v !== String(DEFAULT_USER_ENTRY.id),
  );
  const typed = (q.q ?? '').toLowerCase();
  const entry = { value: String(DEFAULT_USER_ENTRY.id), label: DEFAULT_USER_ENTRY.name };
  const wanted = DEFAULT_USER_ENTRY.name.toLowerCase().includes(typed) || (q.value ?? []).includes(entry.value);
  return { ...found, data: wanted ? [entry, ...found.data] : found.data };
}

/**
 * Survey Alert Settings (`/api/survey-alert-settings`): the kit's routes for the definition, the
 * options of its Surveys and Recipient users, and Duplicate (an active copy for the same client,
 * with the same recipients). Test is the alert engine's (`POST …/:id/test`).
 */
export const surveyAlertRuleRoutes: FastifyPluginAsyncZod = async (app) => {
  const options = { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } };
  app.get(`${path}/survey-options`, { schema: options }, async (request) =>
    surveyOptions(app.db, requireCurrentClientId(request), request.query),
  );
  app.get(`${path}/user-options`, { schema: options }, async (request) =>
    userOptions(app.db, requireCurrentClientId(request), request.query),
  );

  app.post(
    `${path}/:id/duplicate`,
    { schema: { params: idParamSchema, response: { 201: dataEnvelope(surveyAlertRuleSchema) } } },
    async (request, reply) => {
      const [source] = await app.db.select().from(surveyAlertRules).where(eq(surveyAlertRules.id, request.params.id)).limit(1);
      if (!source) throw notFound('Alert rule');
      await requireWritableClient(request, source.clientId);
      const copy = await app.db.transaction(async (tx) => {
        const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = source;
        const [row] = await tx
          .insert(surveyAlertRules)
          .values({ ...rest, name: copyName(source.name), status: 'active' })
          .returning();
        if (!row) throw new Error('insert returned nothing');
        await tx.execute(sql`
          insert into ${surveyAlertRecipients} (rule_id, user_id, added_by)
          select ${row.id}, user_id, added_by from ${surveyAlertRecipients} where rule_id = ${source.id}`);
        const record = await loadRule(tx, row.id);
        await auditDuplicate(request, tx, { entityType: surveyAlertRuleResource.name, what: 'alert rule', source, copy: row, record });
        return record;
      });
      return reply.code(201).send({ data: copy });
    },
  );

  await app.register(resourceRoutes(surveyAlertRuleResource, surveyAlertRuleStore));
};
