import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../lib/http-error.ts';

/**
 * How long the cards may read (PostgreSQL's `statement_timeout`, for their transaction only): the
 * Performance Report's bound (apps/server/src/reports/performance/run.ts), so a year over every
 * client cannot hold a connection longer. Modules may not import that folder, hence this copy.
 */
export const CARDS_STATEMENT_TIMEOUT_MS = 15_000;

/** PostgreSQL's "canceling statement due to statement timeout". */
const QUERY_CANCELED = '57014';

function sqlStateOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** Runs `work` in a transaction bounded by the timeout; stopped by it, a 503 saying how to narrow the filters. */
export async function boundedRead<T>(db: Db, work: (tx: Db) => Promise<T>, timeoutMs = CARDS_STATEMENT_TIMEOUT_MS): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`));
      return work(tx);
    });
  } catch (error) {
    if (sqlStateOf(error) === QUERY_CANCELED)
      throw new HttpError(
        503,
        `The Review Alerts Report's cards need more than ${Math.round(timeoutMs / 1000)} seconds to compute and were stopped: choose fewer clients or a shorter date range.`,
      );
    throw error;
  }
}
