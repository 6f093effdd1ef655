import type { FeedRun, FeedRunSource, FeedValidation, ProcessingItemSource } from '@admin/shared';
import { eq, TransactionRollbackError } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dataFeedFiles, dataFeedRowErrors, dataFeedRuns, dataFeeds } from '../../db/schema/index.ts';
import { admitRows } from '../admit.ts';
import type { AdmitOutcome, Clock } from '../types.ts';
import { type FeedForIngest, normalize, type RowError } from './normalize.ts';
import { type FeedRecord, parseFeedFile } from './parse.ts';

export type DataFeedRow = typeof dataFeeds.$inferSelect;

/** Rows admitted per transaction: a failure loses at most one batch, and locks are held briefly. */
const ADMIT_BATCH = 2000;
/** Row errors stored per insert. */
const ERROR_BATCH = 1000;
/** Errors a run or a dry run answers (all are stored; Survey Manager Logs pages them). */
const ERRORS_ANSWERED = 500;

/** What a run needs of the app: the database and the clock (a Fastify app has both). */
export type RunDeps = { db: Db; clock: Clock };

export type RunOptions = {
  source: FeedRunSource;
  /** The file's name, or "API" for a call. */
  sourceName: string;
  records: FeedRecord[];
  startedBy: number | null;
  /** An SFTP file: recorded as taken in the transaction that starts the run (the run is not made when another took it). */
  file?: { name: string; size: number; modifiedAt: Date };
  /** The run whose failed rows this one re-runs. */
  rerunOf?: number;
  /** Why the file could not be read at all: the run is recorded failed with it, no rows. */
  error?: string;
};

export type RunResult = { run: FeedRun; outcomes: AdmitOutcome[]; errors: RowError[] };

/** What a feed's rows are, as a processing item's source. */
function itemSource(feed: DataFeedRow, source: FeedRunSource): ProcessingItemSource {
  if (source !== 'rerun') return source;
  return feed.sourceType === 'sftp' ? 'sftp' : feed.sourceType === 'csv_upload' ? 'csv_upload' : 'api';
}

const answered = (errors: RowError[]) =>
  errors.slice(0, ERRORS_ANSWERED).map((e) => ({ row_number: e.rowNumber, column: e.column, message: e.message }));

/** The rows a row error list refuses (a row may have several errors). */
const invalidRows = (errors: RowError[]) => new Set(errors.map((e) => e.rowNumber)).size;

export const feedForIngest = (feed: DataFeedRow): FeedForIngest => ({
  clientId: feed.clientId,
  locationMode: feed.locationMode,
  locationId: feed.locationId,
  dateFormat: feed.dateFormat,
  fieldMapping: feed.fieldMapping,
});

/**
 * One run of a feed over some records (a file, an SFTP file, an API call): a `data_feed_runs` row,
 * the records normalized, each refused row stored with its errors, the good rows admitted by the
 * rules (`admitRows`) in batches, each in its own transaction, and the counts: accepted (became
 * an invitation), skipped by status, invalid, scheduled; the status succeeded, partial (some rows
 * refused) or failed (every row refused, or an error); the feed's last run and last file. Answers
 * null when the SFTP file was already taken.
 */
export async function runFeed(deps: RunDeps, feed: DataFeedRow, options: RunOptions): Promise<RunResult | null> {
  const { db, clock } = deps;
  const startedAt = clock.now();
  const runId = await db
    .transaction(async (tx) => {
      const [run] = await tx
        .insert(dataFeedRuns)
        .values({
          dataFeedId: feed.id,
          clientId: feed.clientId,
          source: options.source,
          sourceName: options.sourceName,
          startedAt,
          rowsRead: options.records.length,
          startedBy: options.startedBy,
          rerunOf: options.rerunOf ?? null,
        })
        .returning({ id: dataFeedRuns.id });
      if (!run) throw new Error('insert returned nothing');
      if (options.file) {
        const taken = await tx
          .insert(dataFeedFiles)
          .values({ dataFeedId: feed.id, ...options.file, runId: run.id, takenAt: startedAt })
          .onConflictDoNothing()
          .returning({ name: dataFeedFiles.name });
        if (taken.length === 0) {
          // Another worker took the file first: this run never happened.
          tx.rollback();
        }
      }
      return run.id;
    })
    .catch((err: unknown) => {
      if (err instanceof TransactionRollbackError) return null;
      throw err;
    });
  if (runId === null) return null;

  const outcomes: AdmitOutcome[] = [];
  let errors: RowError[] = [];
  let failure: string | null = options.error ?? null;
  if (failure === null)
    try {
      const normalized = await normalize(db, feedForIngest(feed), options.records);
      errors = normalized.errors;
      const storeErrors = async (list: RowError[]) => {
        for (let i = 0; i < list.length; i += ERROR_BATCH) {
          await db
            .insert(dataFeedRowErrors)
            .values(
              list
                .slice(i, i + ERROR_BATCH)
                .map((e) => ({ runId, rowNumber: e.rowNumber, column: e.column, message: e.message, raw: e.raw })),
            );
        }
      };
      await storeErrors(errors);
      const ctx = {
        clientId: feed.clientId,
        surveyId: feed.surveyId,
        dataFeedId: feed.id,
        runId,
        source: itemSource(feed, options.source),
      };
      for (let i = 0; i < normalized.rows.length; i += ADMIT_BATCH) {
        const batch = normalized.rows.slice(i, i + ADMIT_BATCH);
        try {
          outcomes.push(...(await db.transaction((tx) => admitRows(tx, ctx, batch, clock.now()))));
        } catch (err) {
          // A batch the database refused wrote nothing: its rows are stored as refused, with the
          // reason, so the run counts them, Re-run failed rows can replay them, and the other
          // batches still go in. (Should storing fail too, the run fails below.)
          const reason = err instanceof Error ? err.message : String(err);
          const lost = batch.map((r) => ({
            rowNumber: r.rowNumber,
            column: null,
            message: `The row could not be admitted: ${reason}`,
            raw: r.raw,
          }));
          await storeErrors(lost);
          errors = [...errors, ...lost];
        }
      }
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    }

  const skipped: Record<string, number> = {};
  let accepted = 0;
  let scheduled = 0;
  for (const o of outcomes) {
    if (o.status.startsWith('skipped_') || o.status === 'invalid_contact') skipped[o.status] = (skipped[o.status] ?? 0) + 1;
    else accepted++;
    if (o.status === 'scheduled') scheduled++;
  }
  const invalid = invalidRows(errors);
  const read = options.records.length;
  const status = failure !== null || (read > 0 && invalid === read) ? 'failed' : invalid > 0 ? 'partial' : 'succeeded';
  const finishedAt = clock.now();
  await db.transaction(async (tx) => {
    await tx
      .update(dataFeedRuns)
      .set({ finishedAt, rowsAccepted: accepted, rowsSkipped: skipped, rowsInvalid: invalid, scheduled, status, error: failure })
      .where(eq(dataFeedRuns.id, runId));
    await tx.update(dataFeeds).set({ lastRunAt: startedAt, lastReceived: options.sourceName }).where(eq(dataFeeds.id, feed.id));
  });
  return {
    run: {
      id: runId,
      data_feed_id: feed.id,
      source_name: options.sourceName,
      status,
      rows_read: read,
      rows_accepted: accepted,
      rows_skipped: skipped,
      rows_invalid: invalid,
      scheduled,
      error: failure,
      errors: answered(errors),
    },
    outcomes,
    errors,
  };
}

/** Validate file (the dry run): the file parsed and normalized with the feed's settings, its row errors; nothing written. */
export async function validateFile(db: Db, feed: DataFeedRow, text: string): Promise<FeedValidation> {
  const { records } = parseFeedFile(text, { delimiter: feed.delimiter, hasHeader: feed.hasHeader });
  const { rows, errors } = await normalize(db, feedForIngest(feed), records);
  return { rows_read: records.length, rows_valid: rows.length, rows_invalid: invalidRows(errors), errors: answered(errors) };
}
