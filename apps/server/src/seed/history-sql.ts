import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';

/** Rows per statement: one JSON parameter each, as the send engine's and the ingest's bulk writes (messaging/send.ts). */
const CHUNK = 1000;

/**
 * Runs `statement` once per thousand rows, the rows handed in as one JSON parameter (read back
 * with `jsonb_to_recordset`); answers the rows every statement returned, in order.
 */
export async function inChunks<T>(db: Db, rows: readonly T[], statement: (json: string) => SQL): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    out.push(...rowsOf(await db.execute(statement(JSON.stringify(rows.slice(i, i + CHUNK))))));
  }
  return out;
}

/** A time as the JSON rows carry it. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** `jsonb_to_recordset` of one JSON parameter, for `inChunks`' statements. */
export const recordset = (json: string, columns: string): SQL => sql`jsonb_to_recordset(${json}::jsonb) as v(${sql.raw(columns)})`;
