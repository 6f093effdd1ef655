import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { HttpError } from './http-error.ts';

/**
 * How long one report may read (PostgreSQL's `statement_timeout`, set for its transaction only):
 * a year over the whole platform cannot hold a connection and the database's time for longer.
 * PGlite does not enforce it. Shared by the report screens (apps/server/src/reports/,
 * modules/review-alerts-report/, modules/ac-performance-report/).
 */
export const REPORT_STATEMENT_TIMEOUT_MS = 15_000;

/** PostgreSQL's "canceling statement due to statement timeout". */
const QUERY_CANCELED = '57014';

function sqlStateOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/**
 * Runs `work` in a transaction bounded by the timeout; stopped by it, a 503 saying what was stopped
 * (`what`, e.g. "This report") and how to make it smaller, never a 500.
 */
export async function boundedRead<T>(db: Db, work: (tx: Db) => Promise<T>, options: { what: string; timeoutMs?: number }): Promise<T> {
  const timeoutMs = options.timeoutMs ?? REPORT_STATEMENT_TIMEOUT_MS;
  try {
    return await db.transaction(async (tx) => {
      // For this transaction only, in one round trip: the timeout; no JIT (aggregates over many rows
      // are costed high enough to compile, which costs more than it saves here); and memory enough
      // for a report's grouping sets to hash its groups (the planner cannot count the groups of a
      // union and, under the default 4 MB, sorts hundreds of thousands of rows on disk instead).
      await tx.execute(
        sql`select set_config('statement_timeout', ${String(Math.max(1, Math.floor(timeoutMs)))}, true),
          set_config('jit', 'off', true), set_config('work_mem', '64MB', true)`,
      );
      return work(tx);
    });
  } catch (error) {
    if (sqlStateOf(error) === QUERY_CANCELED)
      throw new HttpError(
        503,
        `${options.what} needs more than ${Math.round(timeoutMs / 1000)} seconds to compute and was stopped: choose fewer clients or a shorter date range.`,
      );
    throw error;
  }
}
