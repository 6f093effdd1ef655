import type {
  FeedDateFormat,
  FeedDelimiter,
  FeedLocationMode,
  FeedMapping,
  FeedRunSource,
  FeedRunStatus,
  FeedSourceType,
  FeedTriggerEvent,
} from '@admin/shared/pipeline/enums';
import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { users } from './identity.ts';
import { locations } from './locations.ts';
import { surveys } from './surveys.ts';

/**
 * Data feeds (Survey Platform) and their runs (Survey Manager Logs): the files an SFTP feed took,
 * each run with its staged batches (docs/decisions/031-feed-runs-resume.md) and refused rows.
 */

/** A client's data feed ("datafeed survey"): where rows come from, how they map, which survey they trigger. */
export const dataFeeds = pgTable(
  'data_feeds',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    sourceType: text('source_type').$type<FeedSourceType>().notNull(),
    vendor: text('vendor'),
    triggerEvent: text('trigger_event').$type<FeedTriggerEvent>().notNull(),
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id),
    locationMode: text('location_mode').$type<FeedLocationMode>().notNull().default('single'),
    locationId: text('location_id').references(() => locations.id),
    scheduleCron: text('schedule_cron'),
    sftpHost: text('sftp_host'),
    sftpPort: integer('sftp_port').notNull().default(22),
    sftpPath: text('sftp_path'),
    sftpUsername: text('sftp_username'),
    /** The SFTP password, encrypted with the server's key (docs/decisions), never answered by the API. */
    sftpPasswordEnc: text('sftp_password_enc'),
    filePattern: text('file_name_pattern'),
    delimiter: text('delimiter').$type<FeedDelimiter>().notNull().default('comma'),
    hasHeader: boolean('has_header').notNull().default(true),
    dateFormat: text('date_format').$type<FeedDateFormat>().notNull().default('yyyy-MM-dd'),
    fieldMapping: jsonb('field_mapping').$type<FeedMapping>().notNull().default({}),
    allowedIps: text('allowed_ips').array().notNull().default(sql`'{}'::text[]`),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    /** The last file or call received (name or "API"), for the list. */
    lastReceived: text('last_received'),
    /** Why the feed's last pull failed (cannot connect, refused password…); cleared by the next pull that connects. */
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('data_feeds_client_name_idx').on(t.clientId, sql`lower(${t.name})`, t.id)],
);

/** Files an SFTP feed has already taken, so each is processed once even if it stays on the server. */
export const dataFeedFiles = pgTable(
  'data_feed_files',
  {
    dataFeedId: integer('data_feed_id')
      .notNull()
      .references(() => dataFeeds.id),
    name: text('name').notNull(),
    size: integer('size').notNull(),
    modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull(),
    runId: integer('run_id'),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('data_feed_files_uq').on(t.dataFeedId, t.name, t.size, t.modifiedAt)],
);

/** One run of a feed over one file, upload or API call (Survey Manager Logs, Runs). */
export const dataFeedRuns = pgTable(
  'data_feed_runs',
  {
    id: serial('id').primaryKey(),
    dataFeedId: integer('data_feed_id')
      .notNull()
      .references(() => dataFeeds.id),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    source: text('source').$type<FeedRunSource>().notNull(),
    sourceName: text('source_name').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    rowsRead: integer('rows_read').notNull().default(0),
    rowsAccepted: integer('rows_accepted').notNull().default(0),
    /** Rows the rules skipped, by status (`skipped_duplicate`: 3, …). */
    rowsSkipped: jsonb('rows_skipped').$type<Record<string, number>>().notNull().default({}),
    rowsInvalid: integer('rows_invalid').notNull().default(0),
    scheduled: integer('scheduled').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    status: text('status').$type<FeedRunStatus>().notNull().default('running'),
    error: text('error'),
    /** The run this one re-ran the failed rows of. */
    rerunOf: integer('rerun_of'),
    startedBy: integer('started_by').references(() => users.id),
    /** When the whole file was stored (its batches staged); null while it is still arriving. */
    receivedAt: timestamp('received_at', { withTimezone: true }),
    /** Rows whose batch is admitted and committed: the run resumes after them (docs/decisions/031-feed-runs-resume.md). */
    rowsDone: integer('rows_done').notNull().default(0),
    /** The worker receiving or processing the run, and until when it holds it (renewed every batch). */
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [
    index('data_feed_runs_feed_started_idx').on(t.dataFeedId, t.startedAt, t.id),
    index('data_feed_runs_client_started_idx').on(t.clientId, t.startedAt, t.id),
    index('data_feed_runs_running_idx').on(t.lockedUntil).where(sql`${t.status} = 'running'`),
    // A run's failed rows are re-run once (a double click must not admit them twice); a re-run's own failures are re-run from it.
    uniqueIndex('data_feed_runs_rerun_of_uq').on(t.rerunOf).where(sql`${t.rerunOf} is not null`),
  ],
);

/**
 * A run's rows waiting to be admitted, one batch a row, in file order. A batch is deleted in the
 * transaction that admits it, so what is left is exactly what a resumed run still has to do.
 */
export const dataFeedRunBatches = pgTable(
  'data_feed_run_batches',
  {
    runId: integer('run_id')
      .notNull()
      .references(() => dataFeedRuns.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    /** The batch's records as received: `[{ rowNumber, raw }]`. */
    records: jsonb('records').$type<{ rowNumber: number; raw: Record<string, string> }[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

/** A row a run refused: where, which column, why, and the row as received (re-run and the rejected-rows CSV). */
export const dataFeedRowErrors = pgTable(
  'data_feed_row_errors',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: integer('run_id')
      .notNull()
      .references(() => dataFeedRuns.id),
    rowNumber: integer('row_number').notNull(),
    column: text('column'),
    message: text('message').notNull(),
    raw: jsonb('raw').$type<Record<string, string>>().notNull(),
  },
  (t) => [index('data_feed_row_errors_run_idx').on(t.runId, t.rowNumber)],
);
