import { type SQL, sql } from 'drizzle-orm';
import { afterCursor, allOf, cursorFields, decodeCursor, type KeyColumn, orderBy, pageOf, type SortSpec } from './keyset.ts';

/**
 * What one keyset page's query is built from (keyset.ts): the select fields that carry the sort
 * keys into the cursor, the list's WHERE with the cursor's bound, the ORDER BY, and how many rows
 * to fetch (one more than the page, to know whether another follows).
 */
export type PageParts = { fields: Record<string, SQL<string>>; where: SQL | undefined; orderBy: SQL[]; limit: number };

/**
 * One page of a list in a keyset sort: `query` builds the list's own select and joins from the
 * parts. The cursor is read, and a bad one refused with a 400, before any query runs.
 */
export async function keysetPage<T extends Record<string, unknown>>(
  spec: { keys: SortSpec; order: 'asc' | 'desc'; where: SQL | undefined; cursor: string | undefined; limit: number },
  query: (parts: PageParts) => Promise<T[]>,
): Promise<{ page: T[]; nextCursor: string | null }> {
  const { keys, order, limit } = spec;
  const bound = spec.cursor ? afterCursor(keys, order, decodeCursor(spec.cursor, keys)) : undefined;
  const rows = await query({
    fields: cursorFields(keys),
    where: allOf([spec.where, bound]),
    orderBy: orderBy(keys, order),
    limit: limit + 1,
  });
  return pageOf(rows, limit, keys);
}

/**
 * A kit resource list's sort: the chosen column, then the id; a column chosen without an order
 * is ascending, and no choice is the definition's default sort.
 */
export function resourceSort<S extends string>(
  sorts: Record<S, KeyColumn>,
  id: KeyColumn,
  q: { sort?: S | undefined; order?: 'asc' | 'desc' | undefined },
  defaultSort: { sort: S; order: 'asc' | 'desc' },
): { keys: SortSpec; order: 'asc' | 'desc' } {
  return { keys: [sorts[q.sort ?? defaultSort.sort], id], order: q.order ?? (q.sort ? 'asc' : defaultSort.order) };
}

/**
 * The sorts of a log read newest first (Tracking Logs, Unsent events): `keys` by time alone, or
 * `after(column)` by a text column and then by time. Each ends in (time, id), the index such a
 * table keeps, so a deep page costs what the first costs.
 */
export function timeThenId(time: SQL, id: SQL): { keys: SortSpec; after(column: SQL): SortSpec } {
  const keys: SortSpec = [
    { expr: time, cast: 'timestamptz' },
    { expr: id, cast: 'bigint' },
  ];
  return { keys, after: (column) => [{ expr: column, cast: 'text' }, ...keys] };
}

/** ` where …` for a list's condition, or nothing when it has none (a `from …` to count). */
export const whereClause = (condition: SQL | undefined): SQL => (condition ? sql` where ${condition}` : sql``);
