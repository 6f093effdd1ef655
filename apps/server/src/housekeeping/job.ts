import type { Db } from '../db/client.ts';
import { systemLogs } from '../db/schema/index.ts';
import { insertJob, type Queue, type WorkerLoop } from '../pipeline/queue.ts';
import { type PrunedTable, type PruneOptions, type PruneResult, prunePass } from './prune.ts';
import type { RetentionConfig } from './retention.ts';

/**
 * The housekeeping job (docs/decisions/073-housekeeping.md): once a day it removes the rows older
 * than their retention (prune.ts) and says how many in one System Logs line. Recurring as decision
 * 028 has it: each run queues the next under a singleton key naming that run's time, so however
 * many workers start, one job waits for each day.
 */
export const HOUSEKEEPING_QUEUE = 'housekeeping';

/** 09:00 UTC: night in the US time zones the clients keep (03:00 in Chicago), when few requests come. */
const RUN_HOUR_UTC = 9;
const DAY_MS = 86_400_000;
/** A pass that left rows behind goes on after this, rather than waiting for the next day. */
const CONTINUE_AFTER_MS = 60_000;
/** How often (clock time) a worker checks the next run is queued, so a chain ended by failures starts again. */
const ENSURE_EVERY_MS = 60 * 60_000;
/** 5,000 rows a statement, 20 statements a table per pass: at most 100,000 rows of a table each minute. */
const DEFAULT_PRUNE: PruneOptions = { batchSize: 5000, maxBatches: 20 };

/** The first daily run time strictly after `after`. */
export function nextRunAfter(after: Date): Date {
  const today = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate(), RUN_HOUR_UTC);
  return new Date(today > after.getTime() ? today : today + DAY_MS);
}

/** Queues a run at `runAt` unless one with that time is waiting or running (then null). */
function queueRun(db: Db, now: Date, runAt: Date): Promise<number | null> {
  return insertJob(
    db,
    now,
    HOUSEKEEPING_QUEUE,
    {},
    { runAt, singletonKey: `${HOUSEKEEPING_QUEUE}:${runAt.toISOString()}`, maxAttempts: 3 },
  );
}

/** Each table's rows in words, one and many. */
const WORDS: Record<PrunedTable, [string, string]> = {
  jobs: ['finished job', 'finished jobs'],
  login_attempts: ['sign-in attempt', 'sign-in attempts'],
  login_refusal_summaries: ['refused sign-in summary', 'refused sign-in summaries'],
  api_call_logs: ['API call', 'API calls'],
  api_refusal_summaries: ['refused API call summary', 'refused API call summaries'],
  system_logs: ['System Logs row', 'System Logs rows'],
};

const DAYS_OF: Record<PrunedTable, keyof RetentionConfig> = {
  jobs: 'finishedJobsDays',
  login_attempts: 'loginAttemptsDays',
  login_refusal_summaries: 'loginAttemptsDays',
  api_call_logs: 'apiCallLogsDays',
  api_refusal_summaries: 'apiCallLogsDays',
  system_logs: 'systemLogsDays',
};

/** The pass in words: each table's count and retention, or that its rows are kept. */
export function passMessage(retention: RetentionConfig, result: PruneResult): string {
  const parts = (Object.keys(WORDS) as PrunedTable[]).map((table) => {
    const days = retention[DAYS_OF[table]];
    const [one, many] = WORDS[table];
    if (days === null) return `${many} kept (retention off)`;
    const n = result.removed[table] ?? 0;
    return `${n.toLocaleString('en-US')} ${n === 1 ? one : many} older than ${days} day${days === 1 ? '' : 's'}`;
  });
  const tail = result.more ? '; more are left for the next pass in a minute' : '';
  return `Housekeeping removed ${parts.join(', ')}${tail}.`;
}

async function logPass(db: Db, now: Date, retention: RetentionConfig, result: PruneResult): Promise<void> {
  await db.insert(systemLogs).values({
    level: 'info',
    service: 'housekeeping',
    action: 'housekeeping.prune',
    message: passMessage(retention, result),
    after: { removed: result.removed, retentionDays: retention, more: result.more },
    at: now,
  });
}

/**
 * The job's handler and the loop that keeps its next run queued, on a worker's queue (installed
 * with the other workers, pipeline/worker.ts). `prune` sets the batches (tests make them small).
 */
export function installHousekeeping(queue: Queue, db: Db, retention: RetentionConfig, prune: Partial<PruneOptions> = {}): void {
  const options: PruneOptions = { ...DEFAULT_PRUNE, ...prune };
  queue.register(
    HOUSEKEEPING_QUEUE,
    async (_payload, job) => {
      // The next day's run first, so a pass that fails for good still leaves one queued.
      await queueRun(db, job.now, nextRunAfter(job.now));
      const result = await prunePass(db, retention, job.now, options);
      if (result.more) await queueRun(db, job.now, new Date(job.now.getTime() + CONTINUE_AFTER_MS));
      await logPass(db, job.now, retention, result);
    },
    { batchSize: 1 },
  );
  queue.addLoop(housekeepingSchedule(db));
}

/** Queues the next daily run on a worker's first poll and every ENSURE_EVERY_MS after (a no-op while it waits). */
function housekeepingSchedule(db: Db): WorkerLoop {
  let lastCheck: number | null = null;
  return {
    name: 'housekeeping-schedule',
    async run(now) {
      const at = now.getTime();
      if (lastCheck !== null && at >= lastCheck && at - lastCheck < ENSURE_EVERY_MS) return 0;
      await queueRun(db, now, nextRunAfter(now));
      lastCheck = at;
      return 0;
    },
  };
}
