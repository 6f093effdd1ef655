import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { keepRenewed, RENEW_EVERY_MS } from './lease-renewal.ts';
import type { BatchJobHandler, Clock, JobHandler, Jobs } from './types.ts';

/**
 * The durable job queue on the `jobs` table (docs/decisions/028-job-queue.md). A worker claims a
 * batch of due jobs with `FOR UPDATE SKIP LOCKED` and a lease (`locked_until`), so several workers
 * (threads of one process or separate `npm run worker` processes) never take the same job; a job
 * whose lease ran out (its worker died) is taken again; while its worker runs it, the lease is
 * renewed (docs/decisions/075-send-claims.md), so a long job is not. A failure is retried with exponential
 * back-off, then the job is `failed` with the error. Every time the queue compares is the clock's
 * now, passed as a parameter (never SQL `now()`), so tests move time instead of sleeping.
 */

/** How long a claimed job is its worker's before another may take it back. */
const DEFAULT_LEASE_MS = 5 * 60_000;
/** First retry after 30 s, then 60 s, 120 s, … up to an hour. */
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_CAP_MS = 60 * 60_000;
const MAX_ERROR = 1000;

/** Delay before the retry that follows the `attempts`-th failed attempt (1 = the first). */
export function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/**
 * Writes one job (the queue's `enqueue`), in `executor`: a transaction makes the job exist only if
 * the caller's writes commit. A second pending job with the same singleton key is a no-op (null).
 */
export async function insertJob(
  executor: Db,
  now: Date,
  queue: string,
  payload: Record<string, unknown>,
  opts: { runAt?: Date; singletonKey?: string; maxAttempts?: number } = {},
): Promise<number | null> {
  const result = await executor.execute(sql`
    insert into jobs (queue, payload, status, run_at, max_attempts, singleton_key, created_at)
    values (${queue}, ${JSON.stringify(payload)}::jsonb, 'pending', ${iso(opts.runAt ?? now)}::timestamptz,
      ${opts.maxAttempts ?? 5}, ${opts.singletonKey ?? null}, ${iso(now)}::timestamptz)
    on conflict (singleton_key) where status in ('pending', 'running') and singleton_key is not null do nothing
    returning id`);
  const [row] = rowsOf(result);
  return row ? Number(row.id) : null;
}

type ClaimedJob = { id: number; queue: string; payload: Record<string, unknown>; attempts: number; maxAttempts: number };

/** Work a worker does on each poll besides jobs (e.g. the send engine): returns how much it did. */
export type WorkerLoop = { name: string; run(now: Date): Promise<number> };

export type Queue = Jobs & {
  /** Adds work run on each poll (after the due jobs). */
  addLoop(loop: WorkerLoop): void;
  /** Claims and runs due jobs (and the loops) until none is left at `now`; answers how many jobs ran. Tests drain with it. */
  runDue(now?: Date): Promise<number>;
  /** Starts polling every `pollMs`; polls again at once while there was work. */
  start(): void;
  /** Stops polling and waits for the current poll to end. */
  stop(): Promise<void>;
};

export type QueueOptions = {
  /** Names this worker in `locked_by`; random by default. */
  workerId?: string;
  pollMs?: number;
  leaseMs?: number;
  /** How often the lease of the jobs a pass holds is renewed while they run (real ms). */
  renewEveryMs?: number;
  batchSize?: number;
  /** Where a handler's or a loop's unexpected error is reported. */
  onError?: (err: unknown, what: string) => void;
};

const iso = (d: Date) => d.toISOString();

export function createQueue(db: Db, clock: Clock, options: QueueOptions = {}): Queue {
  const workerId = options.workerId ?? randomUUID();
  const pollMs = options.pollMs ?? 500;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const renewEveryMs = options.renewEveryMs ?? RENEW_EVERY_MS;
  const defaultBatch = options.batchSize ?? 20;
  const onError = options.onError ?? (() => undefined);
  const handlers = new Map<string, { handler: JobHandler; batchSize: number; batch?: BatchJobHandler }>();
  const loops: WorkerLoop[] = [];
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;

  async function claim(queue: string, limit: number, now: Date): Promise<ClaimedJob[]> {
    const at = iso(now);
    const until = iso(new Date(now.getTime() + leaseMs));
    // A job whose lease ran out with no attempt left is failed rather than run again.
    await db.execute(sql`
      update jobs set status = 'failed', finished_at = ${at}::timestamptz, locked_by = null, locked_until = null,
        last_error = coalesce(last_error, 'The worker running it stopped (lease expired)')
      where queue = ${queue} and status = 'running' and locked_until < ${at}::timestamptz and attempts >= max_attempts`);
    const result = await db.execute(sql`
      update jobs set status = 'running', attempts = attempts + 1, locked_by = ${workerId}, locked_until = ${until}::timestamptz
      where id in (
        select id from jobs
        where queue = ${queue}
          and ((status = 'pending' and run_at <= ${at}::timestamptz) or (status = 'running' and locked_until < ${at}::timestamptz))
        order by run_at, id
        limit ${limit}
        for update skip locked)
      returning id, queue, payload, attempts, max_attempts`);
    return rowsOf(result)
      .map((r) => ({
        id: Number(r.id),
        queue: String(r.queue),
        payload: (r.payload ?? {}) as Record<string, unknown>,
        attempts: Number(r.attempts),
        maxAttempts: Number(r.max_attempts),
      }))
      .sort((a, b) => a.id - b.id);
  }

  /**
   * The queues with a job to claim at `now`, in one statement: an idle poll asks this once instead
   * of two statements per queue, which on the embedded database kept an idle server about 3% busy.
   */
  async function dueQueues(now: Date): Promise<Set<string>> {
    const at = iso(now);
    const result = await db.execute(sql`
      select q.name from unnest(${sql.param([...handlers.keys()])}::text[]) as q(name)
      where exists (
        select 1 from jobs
        where queue = q.name
          and ((status = 'pending' and run_at <= ${at}::timestamptz) or (status = 'running' and locked_until < ${at}::timestamptz)))`);
    return new Set(rowsOf(result).map((r) => String(r.name)));
  }

  async function finish(job: ClaimedJob, error: unknown, now: Date): Promise<void> {
    const at = iso(now);
    if (error === undefined) {
      await db.execute(sql`
        update jobs set status = 'done', finished_at = ${at}::timestamptz, locked_by = null, locked_until = null
        where id = ${job.id} and locked_by = ${workerId}`);
      return;
    }
    const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR);
    if (job.attempts >= job.maxAttempts) {
      await db.execute(sql`
        update jobs set status = 'failed', last_error = ${message}, finished_at = ${at}::timestamptz, locked_by = null, locked_until = null
        where id = ${job.id} and locked_by = ${workerId}`);
      return;
    }
    const retryAt = iso(new Date(now.getTime() + backoffMs(job.attempts)));
    await db.execute(sql`
      update jobs set status = 'pending', last_error = ${message}, run_at = ${retryAt}::timestamptz, locked_by = null, locked_until = null
      where id = ${job.id} and locked_by = ${workerId}`);
  }

  /**
   * Runs claimed jobs through their queue's batch handler and marks them all done in one update;
   * answers false (nothing marked) when it threw, and the caller runs them one by one.
   */
  async function ranAsBatch(claimed: ClaimedJob[], batch: BatchJobHandler, now: Date): Promise<boolean> {
    try {
      await batch(
        claimed.map((j) => j.payload),
        now,
      );
    } catch (err) {
      onError(err, `batch ${claimed[0]?.queue ?? ''} of ${claimed.length}`);
      return false;
    }
    const at = iso(now);
    await db.execute(sql`
      update jobs set status = 'done', finished_at = ${at}::timestamptz, locked_by = null, locked_until = null
      where id in (select jsonb_array_elements_text(${JSON.stringify(claimed.map((j) => j.id))}::jsonb)::bigint) and locked_by = ${workerId}`);
    return true;
  }

  /** Holds the claimed jobs' leases, from the clock's now, while their handlers run; a job finished is no longer renewed. */
  function renewLeases(claimed: ClaimedJob[]) {
    const ids = JSON.stringify(claimed.map((j) => j.id));
    return keepRenewed(
      () =>
        db.execute(sql`
          update jobs set locked_until = ${iso(new Date(clock.now().getTime() + leaseMs))}::timestamptz
          where id in (select jsonb_array_elements_text(${ids}::jsonb)::bigint) and status = 'running' and locked_by = ${workerId}`),
      renewEveryMs,
      (err) => onError(err, `lease of ${claimed.length} ${claimed[0]?.queue ?? ''} jobs`),
    );
  }

  /** Runs a queue's claimed jobs: as one batch when it has a batch handler, else (or when that threw) one by one. */
  async function runClaimed(claimed: ClaimedJob[], handler: JobHandler, batch: BatchJobHandler | undefined, now: Date) {
    if (batch && claimed.length > 1 && (await ranAsBatch(claimed, batch, now))) return;
    for (const job of claimed) {
      let error: unknown;
      try {
        await handler(job.payload, { id: job.id, attempts: job.attempts, now });
      } catch (err) {
        error = err ?? new Error('failed');
        onError(err, `job ${job.queue}#${job.id}`);
      }
      await finish(job, error, now);
    }
  }

  /** One pass over every queue and loop; answers how much work was found. */
  async function pass(now: Date): Promise<{ jobs: number; work: number }> {
    let jobs = 0;
    let work = 0;
    const due = handlers.size > 0 ? await dueQueues(now) : new Set<string>();
    for (const [queue, { handler, batchSize, batch }] of handlers) {
      if (!due.has(queue)) continue;
      const claimed = await claim(queue, batchSize, now);
      jobs += claimed.length;
      if (claimed.length === 0) continue;
      const renewal = renewLeases(claimed);
      try {
        await runClaimed(claimed, handler, batch, now);
      } finally {
        await renewal.stop();
      }
    }
    for (const loop of loops) {
      try {
        work += await loop.run(now);
      } catch (err) {
        onError(err, `loop ${loop.name}`);
      }
    }
    return { jobs, work: work + jobs };
  }

  function schedule(delay: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      running = pass(clock.now())
        .then(
          ({ work }) => schedule(work > 0 ? 0 : pollMs),
          (err: unknown) => {
            onError(err, 'poll');
            schedule(pollMs);
          },
        )
        .finally(() => {
          running = null;
        });
    }, delay);
  }

  return {
    enqueue: (queue, payload, opts = {}) => insertJob(opts.tx ?? db, clock.now(), queue, payload, opts),
    register(queue, handler, opts = {}) {
      handlers.set(queue, { handler, batchSize: opts.batchSize ?? defaultBatch, batch: opts.batch });
    },
    addLoop(loop) {
      loops.push(loop);
    },
    async runDue(now = clock.now()) {
      let total = 0;
      for (let i = 0; i < 1000; i++) {
        const { jobs, work } = await pass(now);
        total += jobs;
        if (work === 0) break;
      }
      return total;
    },
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
