import { randomUUID } from 'node:crypto';
import type { FeedRunSource } from '@admin/shared';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dataFeedFiles, dataFeedRowErrors, dataFeedRunBatches, dataFeedRuns, dataFeeds } from '../../db/schema/index.ts';
import type { Clock } from '../types.ts';
import type { FeedRecord } from './parse.ts';

/**
 * A feed run's rows on their way in (docs/decisions/031-feed-runs-resume.md): a run is opened,
 * its file is stored as batches while it arrives, marked received once whole, then admitted batch
 * by batch, each batch deleted in the transaction that admits it. Whoever receives or admits a
 * run holds its lease (`locked_by`, `locked_until`) and renews it with every batch; a run whose
 * lease ran out lost its worker and is resumed (received) or failed (still arriving) by the
 * feed-run loop.
 */

/** What a run needs of the app: the database, the clock, how many rows go in one batch, and what to await between batches (pipeline/foreground.ts). */
export type RunDeps = { db: Db; clock: Clock; batchSize?: number; pause?: () => Promise<void> };

/** Rows per batch: on the embedded database a batch's transaction holds every other request, so it stays short. */
export const batchSizeFor = (kind: 'pglite' | 'pg') => (kind === 'pglite' ? 150 : 2000);
export const DEFAULT_BATCH = 500;
/**
 * Batches stored per transaction while a file arrives: each transaction has a fixed cost, so
 * storing a 60 MB file 150 rows at a time on PGlite took over a minute (bench/stall).
 */
export const BATCHES_PER_STORE = 5;

/** How long a run is its worker's after its last batch; a worker that stops lets it go after this. */
export const RUN_LEASE_MS = 30_000;

/** Who holds a run: a random id per receiver or worker. */
export type Lease = { holder: string };
export const newLease = (): Lease => ({ holder: randomUUID() });

/** The lease lapsed (a stopped worker's run taken over): the holder stops without writing. */
export class LeaseLost extends Error {
  constructor(runId: number) {
    super(`Run ${runId} is no longer this worker's`);
  }
}

const until = (deps: RunDeps) => new Date(deps.clock.now().getTime() + RUN_LEASE_MS);

export type RunStart = {
  source: FeedRunSource;
  /** The file's name, or "API" for a call. */
  sourceName: string;
  startedBy: number | null;
  /** The run this one re-runs the failed rows of. */
  rerunOf?: number;
};

/** A SFTP file as listed: it is recorded taken when its run is received whole (or refused). */
export type TakenFile = { name: string; size: number; modifiedAt: Date };

export type FeedRef = { id: number; clientId: number };

/** Opens a run, still receiving, held by `lease`. */
export async function openRun(deps: RunDeps, feed: FeedRef, start: RunStart, lease: Lease, tx?: Db): Promise<number> {
  const [run] = await (tx ?? deps.db)
    .insert(dataFeedRuns)
    .values({
      dataFeedId: feed.id,
      clientId: feed.clientId,
      source: start.source,
      sourceName: start.sourceName,
      startedAt: deps.clock.now(),
      startedBy: start.startedBy,
      rerunOf: start.rerunOf ?? null,
      lockedBy: lease.holder,
      lockedUntil: until(deps),
    })
    .returning({ id: dataFeedRuns.id });
  if (!run) throw new Error('insert returned nothing');
  return run.id;
}

/**
 * Renews the lease on the run in `tx`, or throws LeaseLost when another worker holds it or the run
 * ended: every write of a holder goes through here first, so a holder whose lease lapsed writes nothing.
 */
export async function renewLease(deps: RunDeps, tx: Db, runId: number, lease: Lease): Promise<void> {
  const held = await tx
    .update(dataFeedRuns)
    .set({ lockedUntil: until(deps) })
    .where(and(eq(dataFeedRuns.id, runId), eq(dataFeedRuns.lockedBy, lease.holder), eq(dataFeedRuns.status, 'running')))
    .returning({ id: dataFeedRuns.id });
  if (held.length === 0) throw new LeaseLost(runId);
}

/**
 * Stores the next records of an arriving file as batches of `batchSize` rows from `seq` on, in one
 * transaction (their rows counted as read, the lease renewed); answers the next batch's `seq`.
 */
export async function stageBatch(deps: RunDeps, runId: number, seq: number, records: FeedRecord[], lease: Lease): Promise<number> {
  const size = deps.batchSize ?? DEFAULT_BATCH;
  const batches: { runId: number; seq: number; records: FeedRecord[] }[] = [];
  for (let i = 0; i < records.length; i += size) batches.push({ runId, seq: seq + batches.length, records: records.slice(i, i + size) });
  if (batches.length === 0) return seq;
  await deps.db.transaction(async (tx) => {
    await renewLease(deps, tx, runId, lease);
    await tx.insert(dataFeedRunBatches).values(batches);
    await tx
      .update(dataFeedRuns)
      .set({ rowsRead: sql`${dataFeedRuns.rowsRead} + ${records.length}` })
      .where(eq(dataFeedRuns.id, runId));
  });
  return seq + batches.length;
}

/**
 * The file arrived whole: the run is received, and an SFTP file is recorded taken in the same
 * transaction. When another worker took the same file first, this run never happened (deleted,
 * with its batches) and the answer is false. `release` lets the feed-run loop admit the rows;
 * otherwise the holder admits them itself.
 */
export async function markReceived(
  deps: RunDeps,
  runId: number,
  lease: Lease,
  options: { feedId: number; file?: TakenFile; release: boolean },
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    await renewLease(deps, tx, runId, lease);
    if (options.file) {
      const taken = await tx
        .insert(dataFeedFiles)
        .values({ dataFeedId: options.feedId, ...options.file, runId, takenAt: deps.clock.now() })
        .onConflictDoNothing()
        .returning({ name: dataFeedFiles.name });
      if (taken.length === 0) {
        await tx.delete(dataFeedRuns).where(eq(dataFeedRuns.id, runId));
        return false;
      }
    }
    await tx
      .update(dataFeedRuns)
      .set({ receivedAt: deps.clock.now(), ...(options.release ? { lockedBy: null, lockedUntil: null } : {}) })
      .where(eq(dataFeedRuns.id, runId));
    return true;
  });
}

/**
 * Ends a run as failed with `error`, in one transaction. Rows of it still waiting in batches are
 * kept as refused rows with the reason, so Re-run failed rows can replay them and nothing is
 * lost; a file that was being received is discarded whole (none of its rows was admitted). An
 * SFTP file is recorded taken when `file` is given (a file that can never be read is not pulled
 * again and again). `lease` null: a stopped worker's run still arriving, taken over by the loop.
 */
export async function failRun(
  deps: RunDeps,
  runId: number,
  error: string,
  options: { lease: Lease | null; feedId: number; file?: TakenFile },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (options.lease) await renewLease(deps, tx, runId, options.lease);
    const [run] = await tx
      .select({ receivedAt: dataFeedRuns.receivedAt, status: dataFeedRuns.status, lockedUntil: dataFeedRuns.lockedUntil })
      .from(dataFeedRuns)
      .where(eq(dataFeedRuns.id, runId))
      .for('update');
    if (run?.status !== 'running') return;
    // Taken over by the loop: only if, now that it is locked, it is still arriving with its lease
    // lapsed; a slow receiver may have renewed it or stored it whole since the loop looked.
    if (!options.lease && (run.receivedAt !== null || (run.lockedUntil !== null && run.lockedUntil >= deps.clock.now()))) return;
    if (run.receivedAt !== null) {
      // Received rows not admitted yet become refused rows, with why.
      await tx.execute(sql`
        insert into data_feed_row_errors (run_id, row_number, "column", message, raw)
        select ${runId}, (r->>'rowNumber')::int, null, ${`Not admitted: the run failed before this row. ${error}`}, r->'raw'
        from data_feed_run_batches b, jsonb_array_elements(b.records) r
        where b.run_id = ${runId}`);
    }
    await tx.delete(dataFeedRunBatches).where(eq(dataFeedRunBatches.runId, runId));
    const invalid = sql`(select count(distinct row_number)::int from ${dataFeedRowErrors} where run_id = ${runId})`;
    await tx
      .update(dataFeedRuns)
      .set({
        status: 'failed',
        error,
        finishedAt: deps.clock.now(),
        lockedBy: null,
        lockedUntil: null,
        rowsInvalid: invalid,
      })
      .where(eq(dataFeedRuns.id, runId));
    if (options.file) {
      await tx
        .insert(dataFeedFiles)
        .values({ dataFeedId: options.feedId, ...options.file, runId, takenAt: deps.clock.now() })
        .onConflictDoNothing();
    }
    await tx
      .update(dataFeeds)
      .set({ lastRunAt: deps.clock.now(), lastError: error, lastErrorAt: deps.clock.now() })
      .where(eq(dataFeeds.id, options.feedId));
  });
}

/** The batches of a run still to admit, in file order, one at a time. */
export async function nextBatch(db: Db, runId: number): Promise<{ seq: number; records: FeedRecord[] } | null> {
  const [batch] = await db
    .select({ seq: dataFeedRunBatches.seq, records: dataFeedRunBatches.records })
    .from(dataFeedRunBatches)
    .where(eq(dataFeedRunBatches.runId, runId))
    .orderBy(dataFeedRunBatches.seq)
    .limit(1);
  return batch ?? null;
}

/**
 * The embedded database has one process: when it starts, every lease it finds was held by a
 * process that stopped, so its runs are taken over at once rather than after RUN_LEASE_MS.
 */
export async function releaseStaleLeases(db: Db): Promise<void> {
  await db
    .update(dataFeedRuns)
    .set({ lockedBy: null, lockedUntil: new Date(0) })
    .where(and(eq(dataFeedRuns.status, 'running'), isNotNull(dataFeedRuns.lockedBy)));
}
