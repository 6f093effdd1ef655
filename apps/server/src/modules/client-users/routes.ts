import {
  CLIENT_USER_LABELS,
  CLIENT_USER_RULES,
  CLIENT_USERS_PATH,
  type ClientUser,
  type ClientUserBody,
  clientUserCreateSchema,
  clientUserListQuerySchema,
  clientUserProblems,
  clientUserSchema,
  clientUserStatusSchema,
  clientUserUpdateSchema,
  dataEnvelope,
  idParamSchema,
} from '@admin/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { clientUsers, users } from '../../db/schema/index.ts';
import { requireCurrentClientId, requireWritableClient } from '../../kit/current-client.ts';
import { assertFresh } from '../../kit/status.ts';
import { validateFields } from '../../kit/validate-body.ts';
import { fieldsRefused, notFound } from '../../lib/http-error.ts';
import { joinDefaultReviewRules, joinDefaultRules, ruleNames } from './default-rules.ts';
import { ENTITY, findClientUser, listClientUsers } from './repository.ts';

const labels = CLIENT_USER_LABELS;
const config = { labels };
const one = dataEnvelope(clientUserSchema);
const clean = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());
const channelsOf = (list: readonly string[] | undefined) => (list === undefined ? undefined : [...new Set(list)]);

/** 422 naming the E-mail field when the address is anyone else's (docs/decisions/044-client-users.md). */
async function assertEmailFree(db: Db, email: string, exceptUserId?: number): Promise<void> {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(sql`lower(${users.email})`, email.toLowerCase()),
        exceptUserId === undefined ? undefined : sql`${users.id} <> ${exceptUserId}`,
      ),
    )
    .limit(1);
  if (taken) throw fieldsRefused({ email: [`The ${labels.email} has already been taken`] }, labels);
}

/**
 * Client Manager's Users panel (`/api/client-users`): the people of a client whom alerts go to.
 * Every write is audited; a new user joins the client's rules that list Default for New User, in
 * the same transaction. `GET /api/clients-user-list` keeps its `{ id, name }` answer (users module).
 */
export const clientUserRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    CLIENT_USERS_PATH,
    { schema: { querystring: clientUserListQuerySchema, response: { 200: dataEnvelope(z.array(clientUserSchema)) } } },
    async (request) => {
      const clientId = request.query.client ?? requireCurrentClientId(request);
      if (!(await app.clients.find(clientId))) throw notFound('Client');
      return { data: await listClientUsers(app.db, clientId) };
    },
  );

  app.get(`${CLIENT_USERS_PATH}/:id`, { schema: { params: idParamSchema, response: { 200: one } } }, async (request) => {
    const user = await findClientUser(app.db, request.params.id);
    if (!user) throw notFound('Client user');
    return { data: user };
  });

  app.post(CLIENT_USERS_PATH, { config, schema: { body: clientUserCreateSchema, response: { 201: one } } }, async (request, reply) => {
    const body: ClientUserBody = { alert_channels: ['email'], role: 'staff', ...request.body };
    const client = await requireWritableClient(request, body.client_id);
    await validateFields(body, CLIENT_USER_RULES, { names: labels });
    const problems = clientUserProblems(body);
    if (Object.keys(problems).length > 0) throw fieldsRefused(problems, labels);
    const email = (body.email ?? '').trim().toLowerCase();
    await assertEmailFree(app.db, email);
    const created = await app.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ name: (body.name ?? '').trim(), email, phone: clean(body.phone) ?? null, isSuperadmin: 0 })
        .returning({ id: users.id });
      if (!user) throw new Error('insert returned nothing');
      const now = app.clock.now();
      await tx.insert(clientUsers).values({
        clientId: client.id,
        userId: user.id,
        role: body.role ?? 'staff',
        alertChannels: channelsOf(body.alert_channels) ?? ['email'],
        createdAt: now,
        updatedAt: now,
      });
      const joined = await joinDefaultRules(tx, client.id, user.id);
      const joinedReview = await joinDefaultReviewRules(tx, client.id, user.id);
      const record = await findClientUser(tx, user.id);
      if (!record) throw new Error('client user not found after insert');
      const names = [...(await ruleNames(tx, joined)), ...joinedReview.map((r) => r.name)];
      await request.audit(
        {
          action: `${ENTITY}.create`,
          message: `Added user ${record.name} to ${client.name}${names.length > 0 ? `; joined by default: ${names.join(', ')}` : ''}`,
          clientId: client.id,
          entityType: ENTITY,
          entityId: user.id,
          after: { ...record, joined_rule_ids: joined, joined_review_rule_ids: joinedReview.map((r) => r.id) },
        },
        tx,
      );
      return record;
    });
    return reply.code(201).send({ data: created });
  });

  /** Locks a client user's membership and reads it as it stands. */
  async function lock(tx: Db, userId: number): Promise<ClientUser> {
    await tx.select().from(clientUsers).where(eq(clientUsers.userId, userId)).for('update');
    const found = await findClientUser(tx, userId);
    if (!found) throw notFound('Client user');
    return found;
  }

  app.patch(
    `${CLIENT_USERS_PATH}/:id`,
    { config, schema: { params: idParamSchema, body: clientUserUpdateSchema, response: { 200: one } } },
    async (request) => {
      const { updated_at: seen, ...changes } = request.body;
      await validateFields(changes, CLIENT_USER_RULES, { partial: true, names: labels });
      const updated = await app.db.transaction(async (tx) => {
        const before = await lock(tx, request.params.id);
        assertFresh(new Date(before.updated_at), seen, 'This user');
        const problems = clientUserProblems({
          phone: changes.phone !== undefined ? changes.phone : before.phone,
          alert_channels: changes.alert_channels ?? before.alert_channels,
        });
        if (Object.keys(problems).length > 0) throw fieldsRefused(problems, labels);
        const email = changes.email?.trim().toLowerCase();
        if (email) await assertEmailFree(tx, email, before.id);
        const userValues = Object.fromEntries(
          Object.entries({ name: changes.name?.trim(), email, phone: clean(changes.phone) }).filter(([, v]) => v !== undefined),
        );
        if (Object.keys(userValues).length > 0) await tx.update(users).set(userValues).where(eq(users.id, before.id));
        const memberValues = Object.fromEntries(
          Object.entries({ role: changes.role ?? undefined, alertChannels: channelsOf(changes.alert_channels) }).filter(
            ([, v]) => v !== undefined,
          ),
        );
        // The membership carries the version of the whole record, the user's own fields included.
        await tx
          .update(clientUsers)
          .set({ ...memberValues, updatedAt: app.clock.now() })
          .where(eq(clientUsers.userId, before.id));
        const after = await findClientUser(tx, before.id);
        if (!after) throw notFound('Client user');
        await request.audit(
          {
            action: `${ENTITY}.update`,
            message: `Updated user ${after.name}`,
            clientId: after.client_id,
            entityType: ENTITY,
            entityId: after.id,
            before,
            after,
          },
          tx,
        );
        return after;
      });
      return { data: updated };
    },
  );

  app.patch(
    `${CLIENT_USERS_PATH}/:id/status`,
    { config, schema: { params: idParamSchema, body: clientUserStatusSchema, response: { 200: one } } },
    async (request) => {
      const { status, updated_at: seen } = request.body;
      const updated = await app.db.transaction(async (tx) => {
        const before = await lock(tx, request.params.id);
        assertFresh(new Date(before.updated_at), seen, 'This user');
        await tx.update(clientUsers).set({ status, updatedAt: app.clock.now() }).where(eq(clientUsers.userId, before.id));
        await request.audit(
          {
            action: `${ENTITY}.${status === 'active' ? 'reactivate' : 'deactivate'}`,
            message: `${status === 'active' ? 'Reactivated' : 'Deactivated'} user ${before.name}`,
            clientId: before.client_id,
            entityType: ENTITY,
            entityId: before.id,
            before: { status: before.status },
            after: { status },
          },
          tx,
        );
        const after = await findClientUser(tx, before.id);
        if (!after) throw notFound('Client user');
        return after;
      });
      return { data: updated };
    },
  );
};
