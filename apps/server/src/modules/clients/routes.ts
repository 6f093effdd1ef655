import {
  type ClientCreate,
  clientColumns,
  clientCreateSchema,
  clientExportQuerySchema,
  clientFieldRules,
  clientIdParamSchema,
  clientListItemSchema,
  clientListQuerySchema,
  clientSchema,
  clientUpdateSchema,
  dataEnvelope,
  listEnvelope,
  rootTeamSchema,
  statusChangeSchema,
} from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clients, teams, users } from '../../db/schema/index.ts';
import { csvFileName, sendCsv } from '../../kit/csv.ts';
import { assertFresh, assertTransition } from '../../kit/status.ts';
import { type FieldRules, validateFields } from '../../kit/validate-body.ts';
import { conflict, HttpError, notFound } from '../../lib/http-error.ts';
import { clientValues, countClients, findClient, findClientByName, listClients, listRootTeams, toClient } from './repository.ts';

const listAnswer = listEnvelope(clientListItemSchema).extend({ totalIsEstimate: z.boolean() });

/** Defaults a new client gets (docs/screens.md, Client Manager) before its rules are checked. */
function withDefaults(body: ClientCreate): ClientCreate {
  return {
    country: 'US',
    default_review_site: 'google',
    status: 'active',
    modules: [],
    ...body,
    root_team_name: body.root_team_name?.trim() ? body.root_team_name : (body.name ?? null),
  };
}

const rules = clientFieldRules as unknown as FieldRules;

/** Client Manager: the client collection (collection `/api/create-client`) and each client. */
export const clientRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/client-root-teams',
    { config: { access: 'superadmin' }, schema: { response: { 200: dataEnvelope(z.array(rootTeamSchema)) } } },
    async () => ({ data: await listRootTeams(app.db) }),
  );

  app.get(
    '/api/create-client',
    { config: { access: 'superadmin' }, schema: { querystring: clientListQuerySchema, response: { 200: listAnswer } } },
    async (request) => {
      const q = request.query;
      const { rows, nextCursor } = await listClients(app.db, q, q.perPage);
      return { data: rows, nextCursor, ...(await countClients(app.db, q)) };
    },
  );

  app.get(
    '/api/create-client/export',
    {
      config: { access: 'superadmin' },
      schema: { querystring: clientExportQuerySchema },
    },
    async (request, reply) => {
      const { cursor: _c, perPage: _p, columns: chosen, ...q } = request.query;
      const columns = chosen
        ? chosen.map((k) => clientColumns.find((c) => c.key === k)).filter((c) => c !== undefined)
        : clientColumns.filter((c) => c.defaultVisible);
      const db = app.db;
      async function* batches() {
        let cursor: string | undefined;
        do {
          const page = await listClients(db, { ...q, ...(cursor ? { cursor } : {}) }, 1000);
          yield page.rows.map((r) => ({ ...r, modules: r.modules.join(' ') }));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      }
      return sendCsv(reply, csvFileName('clients'), columns, batches());
    },
  );

  app.post(
    '/api/create-client',
    { config: { access: 'superadmin' }, schema: { body: clientCreateSchema, response: { 201: dataEnvelope(clientSchema) } } },
    async (request, reply) => {
      const body = withDefaults(request.body);
      await validateFields(body, rules);
      if (await findClientByName(app.db, body.name ?? '')) {
        throw conflict('A client with this name already exists.', { name: ['The name has already been taken'] });
      }
      if (body.account_coordinator_id) await assertStaffUser(body.account_coordinator_id);
      const created = await app.db.transaction(async (tx) => {
        const [client] = await tx
          .insert(clients)
          .values({ name: '', ...clientValues(body) })
          .returning();
        if (!client) throw new Error('insert returned nothing');
        const [team] = await tx
          .insert(teams)
          .values({ clientId: client.id, name: (body.root_team_name ?? client.name).trim() })
          .returning({ id: teams.id });
        const [row] = await tx
          .update(clients)
          .set({ rootTeamId: team?.id ?? null })
          .where(eq(clients.id, client.id))
          .returning();
        if (!row) throw new Error('update returned nothing');
        await request.audit(
          {
            action: 'client.create',
            message: `Created client ${row.name}`,
            clientId: row.id,
            entityType: 'client',
            entityId: row.id,
            after: toClient(row),
          },
          tx,
        );
        return row;
      });
      return reply.code(201).send({ data: toClient(created) });
    },
  );

  app.get(
    '/api/clients/:id',
    { config: { access: 'superadmin' }, schema: { params: clientIdParamSchema, response: { 200: dataEnvelope(clientSchema) } } },
    async (request) => {
      const row = await findClient(app.db, request.params.id);
      if (!row) throw notFound('Client');
      return { data: toClient(row) };
    },
  );

  app.patch(
    '/api/clients/:id',
    {
      config: { access: 'superadmin' },
      schema: { params: clientIdParamSchema, body: clientUpdateSchema, response: { 200: dataEnvelope(clientSchema) } },
    },
    async (request) => {
      const { updated_at: seen, ...changes } = request.body;
      await validateFields(changes, rules, { partial: true });
      if (changes.name && (await findClientByName(app.db, changes.name, request.params.id))) {
        throw conflict('A client with this name already exists.', { name: ['The name has already been taken'] });
      }
      if (changes.account_coordinator_id) await assertStaffUser(changes.account_coordinator_id);
      const updated = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(clients).where(eq(clients.id, request.params.id)).for('update');
        if (!before) throw notFound('Client');
        assertFresh(before.updatedAt, seen, 'This client');
        const [row] = await tx
          .update(clients)
          .set({ ...clientValues(changes), updatedAt: sql`now()` })
          .where(eq(clients.id, before.id))
          .returning();
        if (!row) throw notFound('Client');
        await request.audit(
          {
            action: 'client.update',
            message: `Updated client ${row.name}`,
            clientId: row.id,
            entityType: 'client',
            entityId: row.id,
            before: toClient(before),
            after: toClient(row),
          },
          tx,
        );
        return row;
      });
      return { data: toClient(updated) };
    },
  );

  app.patch(
    '/api/clients/:id/status',
    {
      config: { access: 'superadmin' },
      schema: { params: clientIdParamSchema, body: statusChangeSchema, response: { 200: dataEnvelope(clientSchema) } },
    },
    async (request) => {
      const { status, updated_at: seen } = request.body;
      const updated = await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(clients).where(eq(clients.id, request.params.id)).for('update');
        if (!before) throw notFound('Client');
        assertFresh(before.updatedAt, seen, 'This client');
        assertTransition(before.status, status, before.name);
        const [row] = await tx.update(clients).set({ status, updatedAt: sql`now()` }).where(eq(clients.id, before.id)).returning();
        if (!row) throw notFound('Client');
        await request.audit(
          {
            action: `client.status.${status}`,
            message: `Changed ${row.name} from ${before.status} to ${status}`,
            clientId: row.id,
            entityType: 'client',
            entityId: row.id,
            before: { status: before.status },
            after: { status },
          },
          tx,
        );
        return row;
      });
      return { data: toClient(updated) };
    },
  );

  /** The Account Coordinator must be a staff account (someone who signs in here). */
  async function assertStaffUser(id: number): Promise<void> {
    const [u] = await app.db.select({ id: users.id }).from(users).where(sql`${users.id} = ${id} and ${users.passwordHash} is not null`);
    if (!u) throw new HttpError(422, 'Please correct: account_coordinator_id.', { account_coordinator_id: ['Choose a staff member'] });
  }
};
