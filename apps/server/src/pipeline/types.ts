import type { ProcessingItemSource, ProcessingItemStatus, SurveySettings } from '@admin/shared';
import type { Db } from '../db/client.ts';

/**
 * The contracts between the pipeline's parts (docs/pipeline.md): ingest (CSV upload, SFTP pull,
 * the ingest API) turns rows into `NormalRow`s; `admitRows` applies the rules and schedules them
 * as processing items; the send engine sends what is due. Each part is written against these
 * types so it can be changed alone.
 */

/** Where "now" comes from: the system clock in production, a clock the test moves in tests. */
export type Clock = { now(): Date };

/**
 * A client's survey settings as the send engine reads them (its sender and reply-to), on the
 * engine's own database: `app.surveySettings` in the app, given by whoever assembles the engine.
 */
export type SurveySettingsAccess = { of(clientId: number): Promise<SurveySettings | undefined> };

/** A feed row after mapping, validation and code lookup: what `admitRows` takes. */
export type NormalRow = {
  /** The row's number in its file or payload (1 = the first data row), for errors and the detail. */
  rowNumber: number;
  firstName: string;
  lastName: string | null;
  /** Lower-cased and checked, or null. */
  email: string | null;
  /** E.164, or null. */
  phone: string | null;
  transactionId: string | null;
  /** The transaction's day, `yyyy-MM-dd`, in the client's time zone. */
  transactionDate: string;
  locationId: string;
  personnelId: number | null;
  productId: number | null;
  referralSourceId: number | null;
  /** A decimal as text (`"129.50"`), or null. */
  amount: string | null;
  smsOptIn: boolean;
  /** The row as received, column → value. */
  raw: Record<string, string>;
};

/** Whose rows these are and where they came from. */
export type AdmitContext = {
  clientId: number;
  surveyId: number;
  dataFeedId: number | null;
  runId: number | null;
  source: ProcessingItemSource;
};

/** What became of one admitted row: its processing item and the rule that decided. */
export type AdmitOutcome = {
  rowNumber: number;
  itemId: number;
  status: ProcessingItemStatus;
  /** Why it was skipped or is invalid, in words for Survey Processing; null when scheduled. */
  reason: string | null;
  scheduledAt: Date | null;
};

/** Applies the rules in order to each row and inserts one processing item per row, in `tx`. */
export type AdmitRows = (tx: Db, ctx: AdmitContext, rows: NormalRow[], now: Date) => Promise<AdmitOutcome[]>;

/** A job handler: runs at least once, so it must be safe to run again (idempotent). */
export type JobHandler = (payload: Record<string, unknown>, job: { id: number; attempts: number; now: Date }) => Promise<void>;

/**
 * Runs a whole claimed batch of one queue's jobs at once (e.g. evaluating many responses in a few
 * queries). When it throws, the queue runs the batch's jobs one by one through the queue's
 * `JobHandler`, so one bad job fails alone.
 */
export type BatchJobHandler = (payloads: Record<string, unknown>[], now: Date) => Promise<void>;

/** The job queue as the app reaches it (`app.jobs`). */
export type Jobs = {
  /** Adds a job (in `tx` when given, so it exists only if the caller's writes commit). */
  enqueue(
    queue: string,
    payload: Record<string, unknown>,
    options?: { runAt?: Date; singletonKey?: string; maxAttempts?: number; tx?: Db },
  ): Promise<number | null>;
  /** Declares what runs a queue's jobs; workers started by `start` take them. */
  register(queue: string, handler: JobHandler, options?: { batchSize?: number; batch?: BatchJobHandler }): void;
};
