import type { Client, ClientCreate, ClientListItem, ClientListQuery, RootTeam } from '@admin/shared';
import { and, asc, eq, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import fp from 'fastify-plugin';
import type { Db } from '../../db/client.ts';
import { clients, teams, users } from '../../db/schema/index.ts';
import {
  afterCursor,
  allOf,
  containsPattern,
  cursorFields,
  decodeCursor,
  inList,
  orderBy,
  pageOf,
  type SortSpec,
} from '../../kit/keyset.ts';
import { countMatching } from '../../kit/totals.ts';

export type ClientRow = typeof clients.$inferSelect;

export function toClient(row: ClientRow): Client {
  return {
    id: row.id,
    name: row.name,
    industry: row.industry as Client['industry'],
    website: row.website,
    phone: row.phone,
    address1: row.address1,
    city: row.city,
    state: row.state,
    postal_code: row.postalCode,
    country: row.country,
    timezone: row.timezone,
    root_team_id: row.rootTeamId,
    account_coordinator_id: row.accountCoordinatorId,
    primary_contact_name: row.primaryContactName,
    primary_contact_email: row.primaryContactEmail,
    modules: row.modules as Client['modules'],
    default_review_site: row.defaultReviewSite,
    status: row.status as Client['status'],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function findClient(db: Db, id: number): Promise<ClientRow | undefined> {
  const [row] = await db.select().from(clients).where(eq(clients.id, id)).limit(1);
  return row;
}

/** Another client already using this name (case-insensitive), if any. */
export async function findClientByName(db: Db, name: string, exceptId?: number): Promise<ClientRow | undefined> {
  const [row] = await db
    .select()
    .from(clients)
    .where(and(eq(sql`lower(${clients.name})`, name.trim().toLowerCase()), exceptId ? ne(clients.id, exceptId) : undefined))
    .limit(1);
  return row;
}

/** Root team of every client that is not archived, by client name: the switcher's options. */
export async function listRootTeams(db: Db): Promise<RootTeam[]> {
  return db
    .select({ id: teams.id, name: teams.name, clientId: clients.id, clientName: clients.name })
    .from(clients)
    .innerJoin(teams, eq(teams.id, clients.rootTeamId))
    .where(ne(clients.status, 'inactive'))
    .orderBy(asc(clients.name), asc(clients.id));
}

const ac = alias(users, 'ac');
const rootTeam = alias(teams, 'root_team');
const usersCount = sql<number>`(select count(*)::int from client_users cu where cu.client_id = ${clients.id})`;
const locationsCount = sql<number>`(select count(*)::int from locations l where l.client_id = ${clients.id} and l.status = 'active')`;

const SORTS: Record<NonNullable<ClientListQuery['sort']>, SortSpec> = {
  name: [
    { expr: sql`lower(${clients.name})`, cast: 'text' },
    { expr: sql`${clients.id}`, cast: 'integer' },
  ],
  id: [{ expr: sql`${clients.id}`, cast: 'integer' }],
  industry: [
    { expr: sql`${clients.industry}`, cast: 'text' },
    { expr: sql`${clients.id}`, cast: 'integer' },
  ],
  status: [
    { expr: sql`${clients.status}`, cast: 'text' },
    { expr: sql`${clients.id}`, cast: 'integer' },
  ],
  created_at: [
    { expr: sql`${clients.createdAt}`, cast: 'timestamptz' },
    { expr: sql`${clients.id}`, cast: 'integer' },
  ],
};

type Filters = Omit<ClientListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;

export function clientFiltersWhere(q: Filters): SQL | undefined {
  const like = containsPattern(q.q);
  return allOf([
    inList(sql`${clients.status}`, q.status),
    inList(sql`${clients.industry}`, q.industry),
    inList(sql`${clients.accountCoordinatorId}`, q.ac),
    q.module && q.module.length > 0
      ? sql`${clients.modules} && array[${sql.join(
          q.module.map((m) => sql`${m}`),
          sql`, `,
        )}]::text[]`
      : undefined,
    like ? sql`(${clients.name} ilike ${like} or ${clients.id}::text = ${q.q})` : undefined,
  ]);
}

export async function listClients(
  db: Db,
  q: Filters & { sort?: ClientListQuery['sort']; order?: 'asc' | 'desc'; cursor?: string },
  limit: number,
): Promise<{ rows: ClientListItem[]; nextCursor: string | null }> {
  const keys = SORTS[q.sort ?? 'name'];
  const order = q.order ?? 'asc';
  const where = allOf([clientFiltersWhere(q), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]);
  const rows = await db
    .select({ client: clients, rootTeamName: rootTeam.name, acName: ac.name, usersCount, locationsCount, ...cursorFields(keys) })
    .from(clients)
    .leftJoin(rootTeam, eq(rootTeam.id, clients.rootTeamId))
    .leftJoin(ac, eq(ac.id, clients.accountCoordinatorId))
    .where(where)
    .orderBy(...orderBy(keys, order))
    .limit(limit + 1);
  const { page, nextCursor } = pageOf(rows, limit, keys);
  return {
    rows: page.map((r) => ({
      ...toClient(r.client),
      root_team_name: r.rootTeamName,
      account_coordinator_name: r.acName,
      users_count: Number(r.usersCount),
      locations_count: Number(r.locationsCount),
    })),
    nextCursor,
  };
}

export async function countClients(db: Db, q: Filters) {
  const where = clientFiltersWhere(q);
  return countMatching(db, sql`from ${clients}${where ? sql` where ${where}` : sql``}`);
}

/** Column values from a create/update body (snake_case API → schema). */
export function clientValues(body: Partial<ClientCreate>): Partial<typeof clients.$inferInsert> {
  const v: Partial<typeof clients.$inferInsert> = {};
  const str = (x: string | null | undefined) => (x === undefined ? undefined : x === null || x.trim() === '' ? null : x.trim());
  if (body.name !== undefined) v.name = (body.name ?? '').trim();
  if (body.industry !== undefined) v.industry = body.industry ?? 'other';
  if (body.website !== undefined) v.website = str(body.website);
  if (body.phone !== undefined) v.phone = str(body.phone);
  if (body.address1 !== undefined) v.address1 = str(body.address1);
  if (body.city !== undefined) v.city = str(body.city);
  if (body.state !== undefined) v.state = str(body.state);
  if (body.postal_code !== undefined) v.postalCode = str(body.postal_code);
  if (body.country !== undefined) v.country = str(body.country) ?? 'US';
  if (body.timezone !== undefined) v.timezone = body.timezone ?? 'America/New_York';
  if (body.account_coordinator_id !== undefined) v.accountCoordinatorId = body.account_coordinator_id;
  if (body.primary_contact_name !== undefined) v.primaryContactName = str(body.primary_contact_name);
  if (body.primary_contact_email !== undefined) v.primaryContactEmail = str(body.primary_contact_email);
  if (body.modules !== undefined) v.modules = [...new Set(body.modules)];
  if (body.default_review_site !== undefined) v.defaultReviewSite = body.default_review_site ?? 'google';
  if (body.status !== undefined && body.status !== null) v.status = body.status;
  return v;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Clients as other modules and the kit reach them (never by importing this file). */
    clients: { find(id: number): Promise<ClientRow | undefined> };
  }
}

export const clientsRepository = fp(
  async (app) => {
    app.decorate('clients', { find: (id: number) => findClient(app.db, id) });
  },
  { name: 'clients-repository', dependencies: ['db'] },
);
