import {
  isIdText,
  LOG_LEVELS,
  type OptionsAnswer,
  type OptionsQuery,
  type SystemLog,
  type SystemLogDetail,
  type SystemLogListQuery,
} from '@admin/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import { alias, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { type Db, isoText } from '../../db/client.ts';
import { namedRows } from '../../db/prepared.ts';
import { clients, systemLogs, users } from '../../db/schema/index.ts';
import { afterCursor, allOf, containsPattern, decodeCursor, inList, orderBy, pageOf, type SortSpec } from '../../kit/keyset.ts';
import { countMatching } from '../../kit/totals.ts';

const actor = alias(users, 'actor');
const client = alias(clients, 'client');

/** Each sort ends in (at, id): matching indexes exist for all three (schema/logs.ts). */
export const SORTS: Record<NonNullable<SystemLogListQuery['sort']>, SortSpec> = {
  at: [
    { expr: sql`${systemLogs.at}`, cast: 'timestamptz' },
    { expr: sql`${systemLogs.id}`, cast: 'bigint' },
  ],
  level: [
    { expr: sql`${systemLogs.level}`, cast: 'text' },
    { expr: sql`${systemLogs.at}`, cast: 'timestamptz' },
    { expr: sql`${systemLogs.id}`, cast: 'bigint' },
  ],
  service: [
    { expr: sql`${systemLogs.service}`, cast: 'text' },
    { expr: sql`${systemLogs.at}`, cast: 'timestamptz' },
    { expr: sql`${systemLogs.id}`, cast: 'bigint' },
  ],
};

export type Filters = Omit<SystemLogListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;

/**
 * Every level chosen is no level filter, like "Selected All": every writer of System Logs (audit,
 * errors, sign-in refusals, the generators) uses these levels, and the answer's schema declares no
 * other. Written as no filter, the total's estimate is the table's size and pages come from the
 * (at, id) index; written as `level in (all four)` the planner multiplies the levels' shares as if
 * they were independent (their frequencies, as stored, add up to a hair over 1, so it does not
 * take them as disjoint) and estimates ~70% of the rows.
 */
function levelFilter(levels: Filters['level']): Filters['level'] {
  return levels && LOG_LEVELS.every((l) => levels.includes(l)) ? undefined : levels;
}

/** The WHERE of a list or export; dates are whole days in UTC, end date inclusive. */
export function filtersWhere(q: Filters): SQL | undefined {
  const like = containsPattern(q.q);
  return allOf([
    inList(sql`${systemLogs.level}`, levelFilter(q.level)),
    inList(sql`${systemLogs.service}`, q.service),
    inList(sql`${systemLogs.actorUserId}`, q.actor),
    inList(sql`${systemLogs.clientId}`, q.client),
    q.entityType ? sql`${systemLogs.entityType} = ${q.entityType}` : undefined,
    q.startDate ? sql`${systemLogs.at} >= ${q.startDate}::date` : undefined,
    q.endDate ? sql`${systemLogs.at} < (${q.endDate}::date + 1)` : undefined,
    like ? sql`(${systemLogs.message} ilike ${like} or ${systemLogs.action} ilike ${like} or ${systemLogs.requestId} = ${q.q})` : undefined,
  ]);
}

const fields = {
  id: systemLogs.id,
  at: systemLogs.at,
  level: systemLogs.level,
  service: systemLogs.service,
  action: systemLogs.action,
  message: systemLogs.message,
  actorUserId: systemLogs.actorUserId,
  actorName: actor.name,
  clientId: systemLogs.clientId,
  clientName: client.name,
  clientTimezone: client.timezone,
  entityType: systemLogs.entityType,
  entityId: systemLogs.entityId,
  requestId: systemLogs.requestId,
  ip: systemLogs.ip,
};

type Row = {
  id: number;
  at: Date;
  level: string;
  service: string;
  action: string;
  message: string;
  actorUserId: number | null;
  actorName: string | null;
  clientId: number | null;
  clientName: string | null;
  clientTimezone: string | null;
  entityType: string | null;
  entityId: string | null;
  requestId: string | null;
  ip: string | null;
};

export function toSystemLog(r: Row): SystemLog {
  return {
    id: Number(r.id),
    at: r.at.toISOString(),
    level: r.level as SystemLog['level'],
    service: r.service,
    action: r.action,
    message: r.message,
    actor_user_id: r.actorUserId,
    actor_name: r.actorName,
    client_id: r.clientId,
    client_name: r.clientName,
    client_timezone: r.clientTimezone,
    entity: r.entityType ? `${r.entityType}#${r.entityId ?? ''}` : null,
    entity_type: r.entityType,
    entity_id: r.entityId,
    request_id: r.requestId,
    ip: r.ip,
  };
}

/** The columns of a list row as the API writes them: ISO times, `type#id` entities, the names joined in. */
const listColumns = sql`
  ${systemLogs.id}::text as id,
  ${isoText(systemLogs.at)} as at,
  ${systemLogs.level} as level, ${systemLogs.service} as service, ${systemLogs.action} as action,
  ${systemLogs.message} as message, ${systemLogs.actorUserId} as actor_user_id, ${actor.name} as actor_name,
  ${systemLogs.clientId} as client_id, ${client.name} as client_name, ${client.timezone} as client_timezone,
  case when ${systemLogs.entityType} is not null then ${systemLogs.entityType} || '#' || coalesce(${systemLogs.entityId}, '') end as entity,
  ${systemLogs.entityType} as entity_type, ${systemLogs.entityId} as entity_id, ${systemLogs.requestId} as request_id,
  ${systemLogs.ip} as ip`;

type ListRow = Omit<SystemLog, 'id' | 'level'> & { id: string; level: string };

/**
 * One keyset page: `limit` rows after `cursor` in the chosen sort.
 *
 * Plain SQL whose columns already are the API's fields, rather than the query builder and a
 * mapping per row: this is the console's busiest read, and building the select and mapping 50
 * joined rows cost the server about three times the CPU of the rest of the request (bench/api).
 * The output is the same as `toSystemLog` gives for the row (times truncated to milliseconds).
 */
export async function listPage(
  db: Db,
  q: Filters & { sort?: SystemLogListQuery['sort']; order?: 'asc' | 'desc'; cursor?: string },
  limit: number,
): Promise<{ rows: SystemLog[]; nextCursor: string | null }> {
  const { rows, keys } = await keysetRows(db, listColumns, q, limit);
  const { page, nextCursor } = pageOf(rows as ListRow[], limit, keys);
  return {
    rows: page.map((r) => ({
      id: Number(r.id),
      at: r.at,
      level: r.level as SystemLog['level'],
      service: r.service,
      action: r.action,
      message: r.message,
      actor_user_id: r.actor_user_id,
      actor_name: r.actor_name,
      client_id: r.client_id,
      client_name: r.client_name,
      client_timezone: r.client_timezone,
      entity: r.entity,
      entity_type: r.entity_type,
      entity_id: r.entity_id,
      request_id: r.request_id,
      ip: r.ip,
    })),
    nextCursor,
  };
}

export async function countLogs(db: Db, q: Filters) {
  const where = filtersWhere(q);
  return countMatching(db, sql`from ${systemLogs}${where ? sql` where ${where}` : sql``}`);
}

export async function findLog(db: Db, id: number): Promise<SystemLogDetail | undefined> {
  const [row] = await db
    .select({ ...fields, before: systemLogs.before, after: systemLogs.after })
    .from(systemLogs)
    .leftJoin(actor, eq(actor.id, systemLogs.actorUserId))
    .leftJoin(client, eq(client.id, systemLogs.clientId))
    .where(eq(systemLogs.id, id))
    .limit(1);
  if (!row) return undefined;
  return { ...toSystemLog(row), before: row.before, after: row.after };
}

/** People who act in the console: the accounts that can sign in (the Users filter's options). */
const isActor = sql`${users.passwordHash} is not null`;

export async function listActors(db: Db): Promise<{ id: number; name: string }[]> {
  return db.select({ id: users.id, name: users.name }).from(users).where(isActor).orderBy(users.name, users.id);
}

/**
 * Options of a filter over named records, paged on the server (`optionsQuerySchema`): by name, at
 * most `perPage` matching what was typed, then the chosen ones, so their labels show.
 */
async function namedOptions(
  db: Db,
  table: PgTable,
  id: PgColumn,
  name: PgColumn,
  where: SQL | undefined,
  q: OptionsQuery,
): Promise<OptionsAnswer> {
  const like = containsPattern(q.q);
  const pick = () => db.select({ id: sql<number>`${id}`, name: sql<string>`${name}` }).from(table);
  const rows = await pick()
    .where(allOf([where, like ? sql`${name} ilike ${like}` : undefined]))
    .orderBy(sql`lower(${name})`, id)
    .limit(q.perPage + 1);
  const found = rows.slice(0, q.perPage).map((r) => ({ value: String(r.id), label: r.name }));
  // Only ids an int4 column can hold are looked up: anything else chosen matches no record.
  const missing = (q.value ?? []).filter((v) => isIdText(v) && !found.some((o) => o.value === v));
  const chosen = missing.length === 0 ? [] : await pick().where(allOf([where, inList(sql`${id}`, missing.map(Number))]));
  return { data: [...found, ...chosen.map((r) => ({ value: String(r.id), label: r.name }))], more: rows.length > q.perPage };
}

export const actorOptions = (db: Db, q: OptionsQuery) => namedOptions(db, users, users.id, users.name, isActor, q);
export const clientOptions = (db: Db, q: OptionsQuery) => namedOptions(db, clients, clients.id, clients.name, undefined, q);

/**
 * `limit + 1` rows of `columns` after the cursor in the chosen sort, with the key values as
 * `__k0…` for the next cursor: the one keyset query behind the list page and the export.
 */
export async function keysetRows(
  db: Db,
  columns: SQL,
  q: Filters & { sort?: SystemLogListQuery['sort']; order?: 'asc' | 'desc'; cursor?: string },
  limit: number,
) {
  const keys = SORTS[q.sort ?? 'at'];
  const order = q.order ?? 'desc';
  const where = allOf([filtersWhere(q), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]);
  const rows = await namedRows(
    db,
    sql`
    select ${columns},
      ${sql.join(
        keys.map((k, i) => sql`(${k.expr})::text as ${sql.raw(`__k${i}`)}`),
        sql`, `,
      )}
    ${fromJoined}
    ${where ? sql`where ${where}` : sql``}
    order by ${sql.join(orderBy(keys, order), sql`, `)}
    limit ${limit + 1}`,
  );
  return { rows, keys };
}

export const fromJoined = sql`from ${systemLogs}
    left join ${users} as ${sql.raw('actor')} on ${actor.id} = ${systemLogs.actorUserId}
    left join ${clients} as ${sql.raw('client')} on ${client.id} = ${systemLogs.clientId}`;
