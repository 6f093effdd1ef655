import {
  DEFAULT_USER_ENTRY,
  dataEnvelope,
  idParamSchema,
  isIdText,
  type OptionsAnswer,
  type OptionsQuery,
  optionsAnswerSchema,
  optionsQuerySchema,
} from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { clientUsers, users } from '../../db/schema/index.ts';
import { notFound } from '../../lib/http-error.ts';
import { requireCurrentClientId, requireWritableClient } from '../current-client.ts';
import { auditDuplicate, copyName } from '../duplicate.ts';
import type { ListPaging } from '../list-routes.ts';
import { pagedOptions } from '../options.ts';
import { resourceRoutes } from '../resource-routes.ts';
import type { ResourceDefinition } from '../resource-store.ts';
import type { AlertRuleKind, AlertRuleTable, RuleBodyBase, RuleQueryBase } from './kind.ts';
import { copyRecipients } from './recipients.ts';
import { alertRuleStore, loadAlertRule } from './store.ts';

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
 * An alert rule kind's routes under its definition's path: the kit's resource routes for the
 * definition with the kind's store, the Recipient users' options (`…/user-options`), and Duplicate
 * (`POST …/:id/duplicate`: an active copy for the same client, with the same recipients, audited
 * in its transaction). A kind's other routes (Test, Send test, its own options) are its module's.
 */
export function alertRuleRoutes<
  T extends AlertRuleTable,
  Rec extends object,
  Body extends RuleBodyBase & Record<string, unknown>,
  Query extends RuleQueryBase & ListPaging,
  Extras,
>(
  kind: AlertRuleKind<T, Rec, Body, Query, Extras>,
  definition: ResourceDefinition<Rec, Body, Query> & { record: z.ZodType<Rec> },
): FastifyPluginAsyncZod {
  const { path } = kind.definition;
  return async (app) => {
    const options = { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } };
    app.get(`${path}/user-options`, { schema: options }, async (request) =>
      userOptions(app.db, requireCurrentClientId(request), request.query),
    );

    app.post(
      `${path}/:id/duplicate`,
      { schema: { params: idParamSchema, response: { 201: dataEnvelope(definition.record) } } },
      async (request, reply) => {
        const table: AlertRuleTable = kind.rules;
        const [found] = await app.db.select().from(table).where(eq(table.id, request.params.id)).limit(1);
        if (!found) throw notFound(kind.notFound);
        // The select is typed by the union of rule tables; its row is this kind's table's.
        const source = found as T['$inferSelect'];
        await requireWritableClient(request, found.clientId);
        const copy = await app.db.transaction(async (tx) => {
          const [row] = await tx
            .insert(table)
            .values({ ...kind.copyOf(source), name: copyName(found.name), status: 'active' })
            .returning();
          if (!row) throw new Error('insert returned nothing');
          await copyRecipients(tx, kind.recipients, found.id, row.id);
          const record = await loadAlertRule(kind, tx, row.id);
          await auditDuplicate(request, tx, { entityType: definition.name, what: kind.what, source: found, copy: row, record });
          return record;
        });
        return reply.code(201).send({ data: copy });
      },
    );

    await app.register(resourceRoutes(definition, alertRuleStore(kind)));
  };
}
