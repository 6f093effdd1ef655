import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ProcessingItemSource } from '@admin/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dataFeedRowErrors, dataFeedRunBatches, dataFeedRuns, dataFeeds } from '../../db/schema/index.ts';
import { admitRows } from '../admit.ts';
import type { AdmitOutcome } from '../types.ts';
import { type FeedForIngest, normalize, type RowError } from './normalize.ts';
import type { FeedRecord } from './parse.ts';
import { failRun, type Lease, LeaseLost, nextBatch, type RunDeps, renewLease } from './run-store.ts';

export type DataFeedRow = typeof dataFeeds.$inferSelect;

/** Row errors stored per insert. */
const ERROR_BATCH = 1000;

export const feedForIngest = (feed: DataFeedRow): FeedForIngest => ({
  clientId: feed.clientId,
  locationMode: feed.locationMode,
  locationId: feed.locationId,
  dateFormat: feed.dateFormat,
  fieldMapping: feed.fieldMapping,
});

/** The rows a row error list refuses (a row may have several errors). */
export const invalidRows = (errors: RowError[]) => new Set(errors.map((e) => e.rowNumber)).size;

/** Where the outcomes and errors of the batches an inline run admits are gathered (the ingest API answers them). */
export type Collector = { outcomes: AdmitOutcome[]; errors: RowError[] };

async function storeErrors(tx: Db, runId: number, list: RowError[]): Promise<void> {
  for (let i = 0; i < list.length; i += ERROR_BATCH) {
    await tx
      .insert(dataFeedRowErrors)
      .values(
        list.slice(i, i + ERROR_BATCH).map((e) => ({ runId, rowNumber: e.rowNumber, column: e.column, message: e.message, raw: e.raw })),
      );
  }
}

/** A run's or batch's counts of its admitted rows: skipped by status, accepted, scheduled. */
export function countOutcomes(outcomes: readonly AdmitOutcome[]) {
  const skipped: Record<string, number> = {};
  let accepted = 0;
  let scheduled = 0;
  for (const o of outcomes) {
    if (o.status.startsWith('skipped_') || o.status === 'invalid_contact') skipped[o.status] = (skipped[o.status] ?? 0) + 1;
    else accepted++;
    if (o.status === 'scheduled') scheduled++;
  }
  return { skipped, accepted, scheduled };
}

/** Adds a batch's counts to the run's (skipped by status merged key by key) and deletes the batch: the batch is done. */
async function countBatch(tx: Db, runId: number, seq: number, records: number, outcomes: AdmitOutcome[], errors: RowError[]) {
  const { skipped, accepted, scheduled } = countOutcomes(outcomes);
  const deleted = await tx
    .delete(dataFeedRunBatches)
    .where(and(eq(dataFeedRunBatches.runId, runId), eq(dataFeedRunBatches.seq, seq)))
    .returning({ seq: dataFeedRunBatches.seq });
  if (deleted.length === 0) throw new LeaseLost(runId);
  await tx
    .update(dataFeedRuns)
    .set({
      rowsDone: sql`${dataFeedRuns.rowsDone} + ${records}`,
      rowsAccepted: sql`${dataFeedRuns.rowsAccepted} + ${accepted}`,
      scheduled: sql`${dataFeedRuns.scheduled} + ${scheduled}`,
      rowsInvalid: sql`${dataFeedRuns.rowsInvalid} + ${invalidRows(errors)}`,
      rowsSkipped: sql`(select coalesce(jsonb_object_agg(key, total), '{}'::jsonb) from (
          select key, sum(value::int) as total
          from (select * from jsonb_each_text(${dataFeedRuns.rowsSkipped}) union all select * from jsonb_each_text(${JSON.stringify(skipped)}::jsonb)) s
          group by key) t)`,
    })
    .where(eq(dataFeedRuns.id, runId));
}

type RunContext = { runId: number; feed: DataFeedRow; source: ProcessingItemSource; lease: Lease; collect?: Collector };

/**
 * One batch, exactly once: in one transaction the lease is renewed, the rows normalized, the
 * refused ones stored, the good ones admitted (`admitRows`), the counts added and the batch
 * deleted. A crash anywhere rolls all of it back and the batch is done again by whoever resumes
 * the run. A batch the database refuses (its transaction rolled back) has its rows stored as
 * refused with the reason, so the run counts them and Re-run failed rows can replay them.
 */
async function processBatch(deps: RunDeps, ctx: RunContext, batch: { seq: number; records: FeedRecord[] }): Promise<void> {
  const { db, clock } = deps;
  const admitContext = {
    clientId: ctx.feed.clientId,
    surveyId: ctx.feed.surveyId,
    dataFeedId: ctx.feed.id,
    runId: ctx.runId,
    source: ctx.source,
  };
  let normalizedErrors: RowError[] = [];
  let rows: Awaited<ReturnType<typeof normalize>>['rows'] = [];
  try {
    const done = await db.transaction(async (tx) => {
      await renewLease(deps, tx, ctx.runId, ctx.lease);
      const normalized = await normalize(tx, feedForIngest(ctx.feed), batch.records);
      normalizedErrors = normalized.errors;
      rows = normalized.rows;
      await storeErrors(tx, ctx.runId, normalized.errors);
      const outcomes = await admitRows(tx, admitContext, normalized.rows, clock.now());
      await countBatch(tx, ctx.runId, batch.seq, batch.records.length, outcomes, normalized.errors);
      return outcomes;
    });
    ctx.collect?.outcomes.push(...done);
    ctx.collect?.errors.push(...normalizedErrors);
  } catch (err) {
    if (err instanceof LeaseLost) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    const lost = rows.map((r) => ({
      rowNumber: r.rowNumber,
      column: null,
      message: `The row could not be admitted: ${reason}`,
      raw: r.raw,
    }));
    const errors = normalizedErrors.length + lost.length > 0 ? [...normalizedErrors, ...lost] : refusedWhole(batch.records, reason);
    await db.transaction(async (tx) => {
      await renewLease(deps, tx, ctx.runId, ctx.lease);
      await storeErrors(tx, ctx.runId, errors);
      await countBatch(tx, ctx.runId, batch.seq, batch.records.length, [], errors);
    });
    ctx.collect?.errors.push(...errors);
  }
}

/** A batch that failed before its rows were even read: each of them refused with the reason. */
const refusedWhole = (records: FeedRecord[], reason: string): RowError[] =>
  records.map((r) => ({ rowNumber: r.rowNumber, column: null, message: `The row could not be admitted: ${reason}`, raw: r.raw }));

/** What a feed's rows are, as a processing item's source. */
function itemSource(feed: DataFeedRow, source: string): ProcessingItemSource {
  if (source === 'csv_upload' || source === 'sftp' || source === 'api') return source;
  return feed.sourceType === 'sftp' ? 'sftp' : feed.sourceType === 'csv_upload' ? 'csv_upload' : 'api';
}

/** The run's outcome from its counts: failed when every row was refused, partial when some were. */
async function finishRun(deps: RunDeps, runId: number, feed: DataFeedRow, lease: Lease): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await renewLease(deps, tx, runId, lease);
    const [run] = await tx
      .select({ read: dataFeedRuns.rowsRead, invalid: dataFeedRuns.rowsInvalid, sourceName: dataFeedRuns.sourceName })
      .from(dataFeedRuns)
      .where(eq(dataFeedRuns.id, runId));
    if (!run) throw new LeaseLost(runId);
    const status = run.read > 0 && run.invalid >= run.read ? 'failed' : run.invalid > 0 ? 'partial' : 'succeeded';
    const now = deps.clock.now();
    await tx.update(dataFeedRuns).set({ status, finishedAt: now, lockedBy: null, lockedUntil: null }).where(eq(dataFeedRuns.id, runId));
    await tx
      .update(dataFeeds)
      .set({ lastRunAt: now, lastReceived: run.sourceName, lastError: null, lastErrorAt: null })
      .where(eq(dataFeeds.id, feed.id));
  });
}

/**
 * Admits a received run's waiting batches in file order, at most `maxBatches` of them (the run
 * stays this holder's, to go on at its next call), then finishes it when none is left. Answers
 * whether the run is finished. Between batches the event loop is given back, so requests are
 * answered while a big file goes in. An error that is not the database refusing a batch fails the
 * run, its waiting rows kept as refused rows.
 */
export async function processRun(
  deps: RunDeps,
  runId: number,
  lease: Lease,
  options: { maxBatches?: number; collect?: Collector } = {},
): Promise<boolean> {
  const [head] = await deps.db
    .select({ run: dataFeedRuns, feed: dataFeeds })
    .from(dataFeedRuns)
    .innerJoin(dataFeeds, eq(dataFeeds.id, dataFeedRuns.dataFeedId))
    .where(eq(dataFeedRuns.id, runId));
  if (head?.run.status !== 'running') return true;
  const ctx: RunContext = {
    runId,
    feed: head.feed,
    source: itemSource(head.feed, head.run.source),
    lease,
    ...(options.collect ? { collect: options.collect } : {}),
  };
  try {
    for (let done = 0; done < (options.maxBatches ?? Number.POSITIVE_INFINITY); done++) {
      const batch = await nextBatch(deps.db, runId);
      if (!batch) {
        await finishRun(deps, runId, head.feed, lease);
        return true;
      }
      await processBatch(deps, ctx, batch);
      await yieldToLoop();
      await deps.pause?.();
    }
    return false;
  } catch (err) {
    if (err instanceof LeaseLost) return true;
    const reason = err instanceof Error ? err.message : String(err);
    await failRun(deps, runId, `The run stopped: ${reason}`, { lease, feedId: head.feed.id });
    throw err;
  }
}
