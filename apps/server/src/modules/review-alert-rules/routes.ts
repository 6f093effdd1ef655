import {
  DEFAULT_USER_ENTRY,
  dataEnvelope,
  idParamSchema,
  isIdText,
  type OptionsAnswer,
  type OptionsQuery,
  optionsAnswerSchema,
  optionsQuerySchema,
  reviewAlertRuleResource,
  reviewAlertRuleSchema,
} from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { clientUsers, reviewAlertRecipients, reviewAlertRules, users } from '../../db/schema/index.ts';
import { requireCurrentClientId, requireWritableClient } from '../../kit/current-client.ts';
import { auditDuplicate, copyName } from '../../kit/duplicate.ts';
import { pagedOptions } from '../../kit/options.ts';
import { resourceRoutes } from '../../kit/resource-routes.ts';
import { notFound } from '../../lib/http-error.ts';
import { loadReviewRule, reviewAlertRuleStore } from './repository.ts';

const path = reviewAlertRuleResource.path;

/** The client's active users, paged, with Default for New User first (as Survey Alert Settings' Recipient users). */
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
 * Review Alert Settings (`/api/review-alert-settings`, domain.md §11): the kit's routes for the
 * definition, the Recipient users' options, Duplicate (an active copy for the same client, with
 * the same recipients). Send test is the engine's (`POST …/:id/test`,
 * apps/server/src/review-alerts/test-route.ts). Staff only (the access plugin's default).
 */
export const reviewAlertRuleRoutes: FastifyPluginAsyncZod = async (app) => {
  const options = { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } };
  app.get(`${path}/user-options`, { schema: options }, async (request) =>
    userOptions(app.db, requireCurrentClientId(request), request.query),
  );

  app.post(
    `${path}/:id/duplicate`,
    { schema: { params: idParamSchema, response: { 201: dataEnvelope(reviewAlertRuleSchema) } } },
    async (request, reply) => {
      const [source] = await app.db.select().from(reviewAlertRules).where(eq(reviewAlertRules.id, request.params.id)).limit(1);
      if (!source) throw notFound('Review alert rule');
      await requireWritableClient(request, source.clientId);
      const copy = await app.db.transaction(async (tx) => {
        const { id: _id, createdAt: _c, updatedAt: _u, lastSentAt: _l, ...rest } = source;
        const [row] = await tx
          .insert(reviewAlertRules)
          .values({ ...rest, name: copyName(source.name), status: 'active' })
          .returning();
        if (!row) throw new Error('insert returned nothing');
        await tx.execute(sql`
          insert into ${reviewAlertRecipients} (rule_id, user_id, added_by)
          select ${row.id}, user_id, added_by from ${reviewAlertRecipients} where rule_id = ${source.id}`);
        const record = await loadReviewRule(tx, row.id);
        await auditDuplicate(request, tx, {
          entityType: reviewAlertRuleResource.name,
          what: 'review alert rule',
          source,
          copy: row,
          record,
        });
        return record;
      });
      return reply.code(201).send({ data: copy });
    },
  );

  await app.register(resourceRoutes(reviewAlertRuleResource, reviewAlertRuleStore));
};
