import type { SystemLogColumnKey, SystemLogListQuery } from '@admin/shared';
import { type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Db, isoText } from '../../db/client.ts';
import { csvCell } from '../../db/copy-csv.ts';
import { clients, systemLogs, users } from '../../db/schema/index.ts';
import { orderBy, pageOf } from '../../kit/keyset.ts';
import { type Filters, filtersWhere, fromJoined, keysetRows, SORTS } from './repository.ts';

const actor = alias(users, 'actor');
const client = alias(clients, 'client');

/** The export's cells by column key: all text, as the CSV writes them. */
const EXPORT_CELLS: Record<SystemLogColumnKey, SQL> = {
  at: isoText(systemLogs.at),
  level: sql`${systemLogs.level}`,
  service: sql`${systemLogs.service}`,
  action: sql`${systemLogs.action}`,
  message: sql`${systemLogs.message}`,
  actor_name: sql`${actor.name}`,
  client_name: sql`${client.name}`,
  entity: sql`case when ${systemLogs.entityType} is not null then ${systemLogs.entityType} || '#' || coalesce(${systemLogs.entityId}, '') end`,
  request_id: sql`${systemLogs.requestId}`,
  ip: sql`${systemLogs.ip}`,
};

const exportColumns = sql.join(
  Object.entries(EXPORT_CELLS).map(([key, cell]) => sql`${cell} as ${sql.identifier(key)}`),
  sql`, `,
);

/**
 * The whole export as one statement for `COPY` on PostgreSQL (kit/list-routes.ts): the chosen
 * columns' cells as `csvRecords` writes them, the list's filters and sort, no paging.
 */
export function exportStatement(q: Filters & { sort?: SystemLogListQuery['sort']; order?: 'asc' | 'desc' }, keys: readonly string[]): SQL {
  const cells = keys.map((key) => csvCell(EXPORT_CELLS[key as SystemLogColumnKey] ?? sql`null`));
  const where = filtersWhere(q);
  return sql`select ${sql.join(cells, sql`, `)} ${fromJoined}
    ${where ? sql`where ${where}` : sql``}
    order by ${sql.join(orderBy(SORTS[q.sort ?? 'at'], q.order ?? 'desc'), sql`, `)}`;
}

/**
 * One export batch: the same filters, sort and keyset as the list, but every column arrives as
 * ready-to-write text (ISO times, `type#id` entities) so no Date or object is built per row;
 * this is where most of an export's time went.
 */
export async function exportBatch(
  db: Db,
  q: Filters & { sort?: SystemLogListQuery['sort']; order?: 'asc' | 'desc'; cursor?: string },
  limit: number,
): Promise<{ rows: Record<string, string | null>[]; nextCursor: string | null }> {
  const { rows, keys } = await keysetRows(db, exportColumns, q, limit);
  const { page, nextCursor } = pageOf(rows as Record<string, string | null>[], limit, keys);
  return { rows: page, nextCursor };
}
