import type { PerformanceQuery, PerformanceReport } from '@admin/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../lib/http-error.ts';
import { type CountSource, performanceReport } from './report.ts';

/**
 * How long one report may read (PostgreSQL's `statement_timeout`, set for its transaction only):
 * a year over the whole platform cannot hold a connection and the database's time for longer.
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
 * Runs `work` in a read-only transaction bounded by the report's statement timeout; a report
 * stopped by it is refused with 503 and a message saying how to make it smaller, never a 500.
 */
export async function boundedRead<T>(db: Db, work: (tx: Db) => Promise<T>, timeoutMs = REPORT_STATEMENT_TIMEOUT_MS): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`));
      // Aggregates over many rows are costed high enough to JIT-compile, which costs more than it saves here.
      await tx.execute(sql`set local jit = off`);
      return work(tx);
    });
  } catch (error) {
    if (sqlStateOf(error) === QUERY_CANCELED)
      throw new HttpError(
        503,
        `This report needs more than ${Math.round(timeoutMs / 1000)} seconds to compute and was stopped: choose fewer clients or a shorter date range.`,
      );
    throw error;
  }
}

/** The Performance Report for a validated query, bounded (boundedRead). */
export function runPerformanceReport(db: Db, q: PerformanceQuery, source: CountSource, timeoutMs?: number): Promise<PerformanceReport> {
  return boundedRead(db, (tx) => performanceReport(tx, q, source), timeoutMs);
}
