import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { inList } from './keyset.ts';

/**
 * Which of `values` (compared lower-case) a client's rows already use in `column`: the
 * "unique per client" check of imports, done in one query for the whole file.
 */
export async function usedPerClient(
  db: Db,
  table: PgTable,
  columns: { client: PgColumn; value: PgColumn },
  clientId: number,
  values: string[],
): Promise<Set<string>> {
  if (values.length === 0) return new Set();
  const lower: SQL<string> = sql<string>`lower(${columns.value})`;
  const rows = await db
    .select({ value: lower })
    .from(table)
    .where(
      and(
        eq(columns.client, clientId),
        inList(
          lower,
          values.map((v) => v.toLowerCase()),
        ),
      ),
    );
  return new Set(rows.map((r) => r.value));
}
