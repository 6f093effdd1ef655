import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FeedRun, FeedValidation } from '@admin/shared';
import { eq } from 'drizzle-orm';
import { dataFeedRuns } from '../../db/schema/index.ts';
import type { AdmitOutcome } from '../types.ts';
import { normalize, type RowError } from './normalize.ts';
import { FeedFileError, type FeedFileOptions, type FeedRecord, readFeedStream } from './parse.ts';
import { type Collector, type DataFeedRow, feedForIngest, invalidRows, processRun } from './process.ts';
import {
  BATCHES_PER_STORE,
  DEFAULT_BATCH,
  failRun,
  type Lease,
  markReceived,
  newLease,
  openRun,
  type RunDeps,
  type RunStart,
  stageBatch,
  type TakenFile,
} from './run-store.ts';

export type { DataFeedRow } from './process.ts';
export { feedForIngest } from './process.ts';
export type { RunDeps } from './run-store.ts';

/** Errors a run or a dry run answers (all are stored; Survey Manager Logs pages them). */
const ERRORS_ANSWERED = 500;

export type RunResult = { run: FeedRun; outcomes: AdmitOutcome[]; errors: RowError[] };

const answered = (errors: RowError[]) =>
  errors.slice(0, ERRORS_ANSWERED).map((e) => ({ row_number: e.rowNumber, column: e.column, message: e.message }));

const fileOptions = (feed: DataFeedRow): FeedFileOptions => ({ delimiter: feed.delimiter, hasHeader: feed.hasHeader });
const batchOf = (deps: RunDeps) => deps.batchSize ?? DEFAULT_BATCH;

/**
 * A run of records already in memory (an API call, a re-run's refused rows, the demo data): the
 * run is opened, its batches stored one transaction each (so a big re-run holds the database
 * only briefly at a time), and marked received. `release` leaves the admitting to the feed-run
 * loop; otherwise the caller holds the run and admits it with `processRun`. A crash while storing
 * leaves a run that the loop fails once its lease lapses, nothing of it admitted.
 */
async function stageRecords(
  deps: RunDeps,
  feed: DataFeedRow,
  start: RunStart,
  records: FeedRecord[],
  lease: Lease,
  options: { release: boolean; file?: TakenFile },
) {
  const size = batchOf(deps);
  const runId = await openRun(deps, feed, start, lease);
  const chunk = size * BATCHES_PER_STORE;
  for (let i = 0, seq = 0; i < records.length; i += chunk) {
    seq = await stageBatch(deps, runId, seq, records.slice(i, i + chunk), lease);
  }
  await markReceived(deps, runId, lease, { feedId: feed.id, ...options });
  return runId;
}

/** Queues records as a run the feed-run loop admits in the background (Re-run failed rows); answers the run's id. */
export function startRun(deps: RunDeps, feed: DataFeedRow, start: RunStart, records: FeedRecord[]): Promise<number> {
  return stageRecords(deps, feed, start, records, newLease(), { release: true });
}

/**
 * A run over records in memory, admitted before answering (an API call, the demo data): its
 * counts, status, every row's outcome and the first errors (`file`: the demo's SFTP files, recorded
 * taken as a pull records them). A crash part-way leaves the run received, and the feed-run loop
 * resumes it after its lease lapses.
 */
export async function runFeed(
  deps: RunDeps,
  feed: DataFeedRow,
  options: RunStart & { records: FeedRecord[]; file?: TakenFile },
): Promise<RunResult> {
  const { records, file, ...start } = options;
  const lease = newLease();
  const runId = await stageRecords(deps, feed, start, records, lease, { release: false, ...(file ? { file } : {}) });
  const collect: Collector = { outcomes: [], errors: [] };
  await processRun(deps, runId, lease, { collect });
  const run = await runAnswer(deps, runId, feed.id);
  return { run: { ...run, errors: answered(collect.errors) }, outcomes: collect.outcomes, errors: collect.errors };
}

/** A run as Upload CSV answers it (its first errors are added by the caller that has them). */
export async function runAnswer(deps: RunDeps, runId: number, feedId: number): Promise<FeedRun> {
  const [r] = await deps.db.select().from(dataFeedRuns).where(eq(dataFeedRuns.id, runId));
  return {
    id: runId,
    data_feed_id: feedId,
    source_name: r?.sourceName ?? '',
    status: r?.status ?? 'failed',
    rows_read: r?.rowsRead ?? 0,
    rows_accepted: r?.rowsAccepted ?? 0,
    rows_skipped: r?.rowsSkipped ?? {},
    rows_invalid: r?.rowsInvalid ?? 0,
    scheduled: r?.scheduled ?? 0,
    error: r?.error ?? null,
    errors: [],
  };
}

/** A file arriving (an upload's body, an SFTP download): what `receiveFile` does with it. */
export type Arriving = {
  input: AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>;
  /** An SFTP file, recorded taken once it is stored whole (or refused for good). */
  file?: TakenFile;
};

/**
 * Receives a file as a run: read as it arrives (parse.ts), stored batch by batch under the run's
 * lease, then marked received for the feed-run loop to admit. Answers the run's id and rows, or null when
 * another worker took the same SFTP file first. A file that is not readable CSV fails the run
 * with why (and the FeedFileError is thrown on, for an upload's 422); a file cut off part-way
 * (the connection closed, the server stopped) admits nothing: its run fails, here or, after a
 * crash, in the loop once its lease lapses.
 */
export async function receiveFile(
  deps: RunDeps,
  feed: DataFeedRow,
  start: RunStart,
  arriving: Arriving,
): Promise<{ runId: number; rowsRead: number } | null> {
  const lease = newLease();
  const runId = await openRun(deps, feed, start, lease);
  let seq = 0;
  try {
    const { rowsRead } = await readFeedStream(arriving.input, fileOptions(feed), batchOf(deps) * BATCHES_PER_STORE, async (records) => {
      seq = await stageBatch(deps, runId, seq, records, lease);
      // The event loop turns after each store: on PGlite the parser and the inserts are promise
      // callbacks only, and without a turn no other request would start until the file ends.
      await yieldToLoop();
    });
    const kept = await markReceived(deps, runId, lease, {
      feedId: feed.id,
      release: true,
      ...(arriving.file ? { file: arriving.file } : {}),
    });
    return kept ? { runId, rowsRead } : null;
  } catch (err) {
    const readable = err instanceof FeedFileError;
    const reason = readable
      ? err.message
      : `The file stopped arriving before it was stored whole: ${err instanceof Error ? err.message : String(err)}`;
    // An unreadable SFTP file is taken (it would fail again); one cut off is pulled again next time.
    await failRun(deps, runId, reason, { lease, feedId: feed.id, ...(readable && arriving.file ? { file: arriving.file } : {}) }).catch(
      () => undefined,
    );
    throw err;
  }
}

/** A run that failed before reading a row (a file too big, an SFTP pull that could not connect): recorded, with why. */
export async function failedRun(deps: RunDeps, feed: DataFeedRow, start: RunStart, error: string, file?: TakenFile): Promise<number> {
  const lease = newLease();
  const runId = await openRun(deps, feed, start, lease);
  await failRun(deps, runId, error, { lease, feedId: feed.id, ...(file ? { file } : {}) });
  return runId;
}

/**
 * Validate file (the dry run): the file read as it arrives and normalized with the feed's settings
 * batch by batch, its row errors; nothing written.
 */
export async function validateFile(deps: RunDeps, feed: DataFeedRow, input: Arriving['input']): Promise<FeedValidation> {
  let valid = 0;
  const errors: RowError[] = [];
  let invalid = 0;
  const { rowsRead } = await readFeedStream(input, fileOptions(feed), batchOf(deps), async (records) => {
    const normalized = await normalize(deps.db, feedForIngest(feed), records);
    valid += normalized.rows.length;
    invalid += invalidRows(normalized.errors);
    if (errors.length < ERRORS_ANSWERED) errors.push(...normalized.errors.slice(0, ERRORS_ANSWERED - errors.length));
  });
  return { rows_read: rowsRead, rows_valid: valid, rows_invalid: invalid, errors: answered(errors) };
}
