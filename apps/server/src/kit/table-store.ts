import type { Scope } from '@admin/shared';
import { eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { clients } from '../db/schema/index.ts';
import { afterCursor, allOf, containsPattern, cursorFields, decodeCursor, inList, type KeyColumn, orderBy, pageOf } from './keyset.ts';
import type { ResourceStore, ResourceTable } from './resource-store.ts';
import { countMatching } from './totals.ts';

type Owned = { id: number; clientId: number | null; status: string; updatedAt: Date; name: string };
type Paging = { sort?: string | undefined; order?: 'asc' | 'desc' | undefined; q?: string | undefined; cursor?: string | undefined };

/** A query's value by key, as the list schema parsed it (multi filters are string lists, choices strings). */
function entryOf(q: object, key: string): unknown {
  return Object.entries(q).find(([k]) => k === key)?.[1];
}
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

/**
 * The store of a client-owned table whose list is the table itself (plus the owner's name):
 * sorts by named expressions (the id breaks ties), quick search over some columns, multi filters
 * as `in (…)`, the owner by the definition's scope (`scope=client|global` narrows
 * `current-client-and-global`), and body values written to the column of the same name (text
 * trimmed; empty text null where the column allows it). Products and Referral Source are this.
 */
export function tableStore<Rec, Row extends Owned, Body extends object, Query extends Paging>(spec: {
  table: ResourceTable & { clientId: PgColumn };
  def: { name: string; scope: Scope; defaultSort: { sort: string; order: 'asc' | 'desc' } };
  toRecord(row: Row, clientName?: string | null): Rec;
  /** Sort key → the expression rows are ordered by. */
  sorts: Record<NonNullable<Query['sort']>, KeyColumn>;
  /** Columns the quick search (`q`) looks in. */
  search: PgColumn[];
  /** Multi filter → its column. */
  filterColumns: Record<string, PgColumn>;
  uniqueColumn?: PgColumn;
  optionColumns?: Record<string, PgColumn>;
  isGlobal?(body: Body): boolean;
}): ResourceStore<Rec, Row, Body, Query> {
  const { table } = spec;
  if (spec.def.scope !== 'current-client' && spec.def.scope !== 'current-client-and-global') {
    throw new Error(`${spec.def.name}: tableStore lists one client's records; scope ${spec.def.scope} needs its own list`);
  }
  const byId: KeyColumn = { expr: sql`${table.id}`, cast: 'integer' };
  // Drizzle's property names (camelCase) by the database name the body's fields use (snake_case).
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({ key, column }));

  function where(q: Query, clientId: number): SQL | undefined {
    const like = containsPattern(q.q);
    const own = sql`${table.clientId} = ${clientId}`;
    const global = sql`${table.clientId} is null`;
    const scope = entryOf(q, 'scope');
    return allOf([
      spec.def.scope === 'current-client' || scope === 'client' ? own : scope === 'global' ? global : sql`(${own} or ${global})`,
      ...Object.entries(spec.filterColumns).map(([key, column]) => inList(sql`${column}`, strings(entryOf(q, key)))),
      like
        ? sql`(${sql.join(
            spec.search.map((c) => sql`${c} ilike ${like}`),
            sql` or `,
          )})`
        : undefined,
    ]);
  }

  return {
    table,
    toRecord: spec.toRecord,
    async list(db: Db, q: Query, clientId: number, limit: number) {
      const sort = (q.sort ?? spec.def.defaultSort.sort) as NonNullable<Query['sort']>;
      const keys = [spec.sorts[sort], byId];
      const order = q.order ?? (q.sort ? 'asc' : spec.def.defaultSort.order);
      const rows = await db
        .select({ row: table, clientName: clients.name, ...cursorFields(keys) })
        .from(table)
        .leftJoin(clients, eq(clients.id, table.clientId))
        .where(allOf([where(q, clientId), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]))
        .orderBy(...orderBy(keys, order))
        .limit(limit + 1);
      const { page, nextCursor } = pageOf(rows, limit, keys);
      // `select()` of a table passed in as a value is typed loosely; the row is the table's.
      return { rows: page.map((r) => spec.toRecord(r.row as unknown as Row, r.clientName)), nextCursor };
    },
    count(db: Db, q: Query, clientId: number) {
      const condition = where(q, clientId);
      return countMatching(db, sql`from ${table}${condition ? sql` where ${condition}` : sql``}`);
    },
    values(body: Partial<Body>) {
      const values: Record<string, unknown> = {};
      for (const { key, column } of columns) {
        const value = entryOf(body, column.name);
        if (value === undefined || column.name === 'client_id') continue;
        values[key] = typeof value === 'string' ? (value.trim() === '' && !column.notNull ? null : value.trim()) : value;
      }
      return values;
    },
    ...(spec.uniqueColumn ? { uniqueColumn: spec.uniqueColumn } : {}),
    ...(spec.optionColumns ? { optionColumns: spec.optionColumns } : {}),
    ...(spec.isGlobal ? { isGlobal: spec.isGlobal } : {}),
  };
}
