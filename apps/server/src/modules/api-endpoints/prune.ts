import { API_CALL_LOG_RETENTION_DAYS } from '@admin/shared';
import { inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apiCallLogs, apiRefusalSummaries } from '../../db/schema/index.ts';
import type { WorkerLoop } from '../../pipeline/queue.ts';

/** How often (clock time) a worker prunes, unless the last pass left rows behind. */
const PRUNE_EVERY_MS = 10 * 60_000;
/** Rows one statement deletes: short transactions, so ingest calls never wait long behind a prune. */
const BATCH = 5000;
const BATCHES_PER_PASS = 20;

/**
 * The worker loop that keeps the ingest call log to API_CALL_LOG_RETENTION_DAYS (and the refused
 * calls' summaries to the same): on each poll at most every PRUNE_EVERY_MS, in batches over the
 * `received_at` index. Several workers may prune at once; a row deleted twice is deleted once.
 * Registered on `app.jobs` by the module's routes and by `npm run worker` (worker.ts).
 */
export function callLogPruning(db: Db): WorkerLoop {
  let lastPass: number | null = null;
  return {
    name: 'api-call-log-prune',
    async run(now) {
      const at = now.getTime();
      if (lastPass !== null && at >= lastPass && at - lastPass < PRUNE_EVERY_MS) return 0;
      const cutoff = new Date(at - API_CALL_LOG_RETENTION_DAYS * 86_400_000);
      let deleted = 0;
      let more = false;
      for (let i = 0; i < BATCHES_PER_PASS; i++) {
        const oldest = db.select({ id: apiCallLogs.id }).from(apiCallLogs).where(lt(apiCallLogs.receivedAt, cutoff)).limit(BATCH);
        const gone = await db.delete(apiCallLogs).where(inArray(apiCallLogs.id, oldest)).returning({ id: apiCallLogs.id });
        deleted += gone.length;
        more = gone.length === BATCH;
        if (!more) break;
      }
      const summaries = await db
        .delete(apiRefusalSummaries)
        .where(lt(apiRefusalSummaries.windowStart, cutoff))
        .returning({ ip: apiRefusalSummaries.ip });
      // Rows left behind: the next poll goes on at once instead of waiting PRUNE_EVERY_MS.
      if (!more) lastPass = at;
      return deleted + summaries.length;
    },
  };
}
