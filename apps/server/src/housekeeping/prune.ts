import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import type { RetentionConfig } from './retention.ts';

/**
 * The rows the housekeeping pass removes, table by table (docs/decisions/073-housekeeping.md). Each
 * batch is one short statement over an index of its time column, so it never holds the embedded
 * database's one connection, or a table, for long; what a batch deleted stays deleted when a later
 * one fails.
 */

/** One table's old rows: which retention applies and the rows a batch may take. */
type PruneTarget = {
  table: PrunedTable;
  retention: keyof RetentionConfig;
  /** The keys of at most `limit` rows older than `cutoff` that may go, as `(key) in (…)` reads them. */
  oldest(cutoff: string, limit: number): SQL;
  key: SQL;
};

export type PrunedTable = 'jobs' | 'login_attempts' | 'login_refusal_summaries' | 'api_call_logs' | 'api_refusal_summaries' | 'system_logs';

/**
 * In this order: the refusal summaries go before System Logs, so a log row a summary still points
 * at (`system_log_id`, written by the same statement, hence no foreign key) is never removed first.
 */
const TARGETS: PruneTarget[] = [
  {
    table: 'jobs',
    retention: 'finishedJobsDays',
    key: sql`id`,
    // Only jobs that ended: a pending or running job is work still to do (jobs_finished_idx).
    oldest: (cutoff, limit) =>
      sql`select id from jobs where status in ('done', 'failed') and finished_at < ${cutoff}::timestamptz limit ${limit}`,
  },
  {
    table: 'login_attempts',
    retention: 'loginAttemptsDays',
    key: sql`id`,
    oldest: (cutoff, limit) => sql`select id from login_attempts where at < ${cutoff}::timestamptz limit ${limit}`,
  },
  {
    table: 'login_refusal_summaries',
    retention: 'loginAttemptsDays',
    key: sql`(ip, window_start)`,
    oldest: (cutoff, limit) =>
      sql`select ip, window_start from login_refusal_summaries where window_start < ${cutoff}::timestamptz limit ${limit}`,
  },
  {
    table: 'api_call_logs',
    retention: 'apiCallLogsDays',
    key: sql`id`,
    oldest: (cutoff, limit) => sql`select id from api_call_logs where received_at < ${cutoff}::timestamptz limit ${limit}`,
  },
  {
    table: 'api_refusal_summaries',
    retention: 'apiCallLogsDays',
    key: sql`(ip, window_start)`,
    oldest: (cutoff, limit) =>
      sql`select ip, window_start from api_refusal_summaries where window_start < ${cutoff}::timestamptz limit ${limit}`,
  },
  {
    table: 'system_logs',
    retention: 'systemLogsDays',
    key: sql`id`,
    oldest: (cutoff, limit) => sql`
      select l.id from system_logs l
      where l.at < ${cutoff}::timestamptz
        and not exists (select 1 from login_refusal_summaries s where s.system_log_id = l.id)
        and not exists (select 1 from api_refusal_summaries s where s.system_log_id = l.id)
      limit ${limit}`,
  },
];

export type PruneOptions = {
  /** Rows one statement deletes. */
  batchSize: number;
  /** Statements per table in one pass; a table with rows left past them is taken up by the next pass. */
  maxBatches: number;
  /** Awaited between two statements: on the embedded database, until the requests being answered are done. */
  pause?: () => Promise<void>;
};

export type PruneResult = {
  /** Rows removed per table; a table whose retention is off is absent. */
  removed: Partial<Record<PrunedTable, number>>;
  /** Whether a table still had old rows when the pass stopped at `maxBatches`. */
  more: boolean;
};

const DAY_MS = 86_400_000;

/** Lets the requests and other work waiting on this process run before the next statement. */
async function yieldTurn(pause: (() => Promise<void>) | undefined): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  await pause?.();
}

async function deleteBatch(db: Db, target: PruneTarget, cutoff: string, limit: number): Promise<number> {
  const table = sql.identifier(target.table);
  const result = await db.execute(sql`
    with gone as (delete from ${table} where ${target.key} in (${target.oldest(cutoff, limit)}) returning 1)
    select count(*)::int as n from gone`);
  return Number(rowsOf(result)[0]?.n ?? 0);
}

/** One pass: each table's rows older than its retention at `now` (the clock's), in batches. */
export async function prunePass(db: Db, retention: RetentionConfig, now: Date, options: PruneOptions): Promise<PruneResult> {
  const removed: PruneResult['removed'] = {};
  let more = false;
  for (const target of TARGETS) {
    const days = retention[target.retention];
    if (days === null) continue;
    const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
    let total = 0;
    for (let i = 0; i < options.maxBatches; i++) {
      if (i > 0) await yieldTurn(options.pause);
      const n = await deleteBatch(db, target, cutoff, options.batchSize);
      total += n;
      removed[target.table] = total;
      if (n < options.batchSize) break;
      if (i === options.maxBatches - 1) more = true;
    }
    await yieldTurn(options.pause);
  }
  return { removed, more };
}
