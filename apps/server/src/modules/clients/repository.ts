import { type Client, type ClientCreate, type ClientListItem, type ClientListQuery, clientResource, type RootTeam } from '@admin/shared';
import { and, asc, eq, isNotNull, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import fp from 'fastify-plugin';
import { type Db, isoText } from '../../db/client.ts';
import { namedRows } from '../../db/prepared.ts';
import { clients, teams, users } from '../../db/schema/index.ts';
import { afterCursor, allOf, containsPattern, decodeCursor, inList, orderBy, pageOf, type SortSpec } from '../../kit/keyset.ts';
import type { ResourceStore } from '../../kit/resource-store.ts';
import { countMatching } from '../../kit/totals.ts';
import { fieldsRefused } from '../../lib/http-error.ts';

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

const byId = { expr: sql`${clients.id}`, cast: 'integer' } as const;
const SORTS: Record<NonNullable<ClientListQuery['sort']>, SortSpec> = {
  name: [{ expr: sql`lower(${clients.name})`, cast: 'text' }, byId],
  id: [byId],
  industry: [{ expr: sql`${clients.industry}`, cast: 'text' }, byId],
  status: [{ expr: sql`${clients.status}`, cast: 'text' }, byId],
  created_at: [{ expr: sql`${clients.createdAt}`, cast: 'timestamptz' }, byId],
};

function clientWhere(q: ClientListQuery): SQL | undefined {
  const like = containsPattern(q.q);
  return allOf([
    inList(sql`${clients.status}`, q.status),
    inList(sql`${clients.industry}`, q.industry),
    inList(sql`${clients.accountCoordinatorId}`, q.ac?.map(Number)),
    q.module && q.module.length > 0
      ? sql`${clients.modules} && array[${sql.join(
          q.module.map((m) => sql`${m}`),
          sql`, `,
        )}]::text[]`
      : undefined,
    like ? sql`(${clients.name} ilike ${like} or ${clients.id}::text = ${q.q})` : undefined,
  ]);
}

/** Clients with their root team's and coordinator's names and their counts. */
function withNames(db: Db, where: SQL | undefined, extra: Record<string, SQL.Aliased | SQL> = {}) {
  return db
    .select({ client: clients, rootTeamName: rootTeam.name, acName: ac.name, usersCount, locationsCount, ...extra })
    .from(clients)
    .leftJoin(rootTeam, eq(rootTeam.id, clients.rootTeamId))
    .leftJoin(ac, eq(ac.id, clients.accountCoordinatorId))
    .where(where);
}

const toItem = (r: {
  client: ClientRow;
  rootTeamName: string | null;
  acName: string | null;
  usersCount: number;
  locationsCount: number;
}) => ({
  ...toClient(r.client),
  root_team_name: r.rootTeamName,
  account_coordinator_name: r.acName,
  users_count: Number(r.usersCount),
  locations_count: Number(r.locationsCount),
});

/**
 * The page's columns as the API's fields, so the rows go out as they come in.
 *
 * Plain SQL rather than `withNames` and `toItem`: the query builder's select of every column and
 * its mapping of 50 joined rows were a quarter of the server's CPU for this list (bench/api).
 * The answer is what `toItem` gives for the same rows.
 */
const listColumns = sql`
  ${clients.id} as id, ${clients.name} as name, ${clients.industry} as industry, ${clients.website} as website,
  ${clients.phone} as phone, ${clients.address1} as address1, ${clients.city} as city, ${clients.state} as state,
  ${clients.postalCode} as postal_code, ${clients.country} as country, ${clients.timezone} as timezone,
  ${clients.rootTeamId} as root_team_id, ${clients.accountCoordinatorId} as account_coordinator_id,
  ${clients.primaryContactName} as primary_contact_name, ${clients.primaryContactEmail} as primary_contact_email,
  ${clients.modules} as modules, ${clients.defaultReviewSite} as default_review_site, ${clients.status} as status,
  ${isoText(clients.createdAt)} as created_at, ${isoText(clients.updatedAt)} as updated_at,
  ${rootTeam.name} as root_team_name, ${ac.name} as account_coordinator_name,
  ${usersCount} as users_count, ${locationsCount} as locations_count`;

async function listClients(db: Db, q: ClientListQuery, _all: null, limit: number) {
  const keys = SORTS[q.sort ?? 'name'];
  const order = q.order ?? 'asc';
  const where = allOf([clientWhere(q), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]);
  const rows = await namedRows(
    db,
    sql`
    select ${listColumns}, ${sql.join(
      keys.map((k, i) => sql`(${k.expr})::text as ${sql.raw(`__k${i}`)}`),
      sql`, `,
    )}
    from ${clients}
    left join ${teams} as ${sql.raw('root_team')} on ${rootTeam.id} = ${clients.rootTeamId}
    left join ${users} as ${sql.raw('ac')} on ${ac.id} = ${clients.accountCoordinatorId}
    ${where ? sql`where ${where}` : sql``}
    order by ${sql.join(orderBy(keys, order), sql`, `)}
    limit ${limit + 1}`,
  );
  const { page, nextCursor } = pageOf(rows, limit, keys);
  // The columns are the item's fields (listColumns); the row type is the database driver's.
  return { rows: page as ClientListItem[], nextCursor };
}

async function countClients(db: Db, q: ClientListQuery) {
  const where = clientWhere(q);
  return countMatching(db, sql`from ${clients}${where ? sql` where ${where}` : sql``}`);
}

async function clientRecord(db: Db, id: number): Promise<ClientListItem> {
  const [row] = await withNames(db, eq(clients.id, id)).limit(1);
  if (!row) throw new Error(`client ${id} vanished in its own transaction`);
  return toItem(row);
}

/** Column values from a create/update body (snake_case API → schema). */
function clientValues(body: Partial<ClientCreate>): Partial<typeof clients.$inferInsert> {
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

/** How clients read, write and page for the kit's routes (clients belong to no client: `null`). */
export const clientStore: ResourceStore<ClientListItem, ClientRow, ClientCreate, ClientListQuery, null> = {
  table: clients,
  // The row alone; the routes answer `reload`'s record, with the joined names and counts.
  toRecord: (row) => ({ ...toClient(row), root_team_name: null, account_coordinator_name: null, users_count: 0, locations_count: 0 }),
  reload: clientRecord,
  values: clientValues,
  list: listClients,
  count: countClients,
  uniqueColumn: clients.name,
  auditClient: (row) => row.id,
  /** The Account Coordinator must be a staff account (someone who signs in here). */
  async check(db, body) {
    const id = body.account_coordinator_id;
    if (!id) return;
    const [staff] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, id), isNotNull(users.passwordHash)));
    if (!staff) throw fieldsRefused({ account_coordinator_id: ['Choose a staff member'] }, clientResource.labels);
  },
  /** A new client's root team, in the create's transaction; its name defaults to the client's. */
  async afterInsert(tx, row, body) {
    const [team] = await tx
      .insert(teams)
      .values({ clientId: row.id, name: body.root_team_name?.trim() || row.name })
      .returning({ id: teams.id });
    await tx
      .update(clients)
      .set({ rootTeamId: team?.id ?? null })
      .where(eq(clients.id, row.id));
  },
};

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
