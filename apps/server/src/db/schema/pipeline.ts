import type { ApiTokenScope, JobStatus, PayloadFormat, SurveyChangeAction } from '@admin/shared/pipeline/enums';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { dataFeeds } from './feeds.ts';
import { users } from './identity.ts';
import { locations } from './locations.ts';
import { surveys } from './surveys.ts';

/**
 * The pipeline's tables (docs/pipeline.md): the job queue, API tokens, the ingest endpoints'
 * settings and call log, and the survey change log. Data feeds and their runs are in feeds.ts.
 */

/**
 * The durable job queue (docs/decisions/028-job-queue.md): a row per job, claimed with
 * `FOR UPDATE SKIP LOCKED` so several workers share it; `run_at` and every time the queue compares
 * come from the caller's clock, so tests move time instead of sleeping. `singleton_key` keeps one
 * pending job per key (e.g. one pending run of a feed).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    queue: text('queue').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status').$type<JobStatus>().notNull().default('pending'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    singletonKey: text('singleton_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('jobs_due_idx').on(t.queue, t.status, t.runAt),
    uniqueIndex('jobs_singleton_uq').on(t.singletonKey).where(sql`${t.status} in ('pending', 'running') and ${t.singletonKey} is not null`),
    // The housekeeping job's range of ended jobs (housekeeping/prune.ts).
    index('jobs_finished_idx').on(t.finishedAt).where(sql`${t.status} in ('done', 'failed')`),
  ],
);

/**
 * An API token (API Token Generation): `rp_` + 40 base62 + a 6-character checksum, stored only as
 * its SHA-256 with the prefix and the last 4 for display; the plaintext is answered once.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    clientId: integer('client_id').references(() => clients.id),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    tokenHash: text('token_hash').notNull(),
    last4: text('last4').notNull(),
    scopes: text('scopes').array().$type<ApiTokenScope[]>().notNull(),
    allowedIps: text('allowed_ips').array().notNull().default(sql`'{}'::text[]`),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedIp: text('last_used_ip'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Revoked now, or (regenerate with a grace period) from this time on. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The token this one replaced (regenerate). */
    replacesId: integer('replaces_id'),
  },
  (t) => [
    uniqueIndex('api_tokens_hash_uq').on(t.tokenHash),
    index('api_tokens_user_idx').on(t.userId),
    // One unrevoked token per user, whatever races (docs/decisions/032-api-access-one-winner.md): a
    // regenerate revokes the old one (from the end of its grace) before it inserts the new one.
    uniqueIndex('api_tokens_user_live_uq').on(t.userId).where(sql`${t.revokedAt} is null`),
  ],
);

/** A location's ingest endpoint settings (API Managers), 1:1 with the location (its `_id` is the endpoint id). */
export const endpointConfigs = pgTable('endpoint_configs', {
  locationId: text('location_id')
    .primaryKey()
    .references(() => locations.id),
  surveyId: integer('survey_id').references(() => surveys.id),
  /** The `api` feed the endpoint's calls run through (its mapping, runs and Survey Manager Logs); made with the endpoint. */
  dataFeedId: integer('data_feed_id').references(() => dataFeeds.id),
  tokenId: integer('token_id').references(() => apiTokens.id),
  allowedIps: text('allowed_ips').array().notNull().default(sql`'{}'::text[]`),
  payloadFormat: text('payload_format').$type<PayloadFormat>().notNull().default('json'),
  rateLimitPerMin: integer('rate_limit_per_min').notNull().default(60),
  webhookSecretHash: text('webhook_secret_hash'),
  status: text('status').notNull().default('active'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One call to an ingest endpoint (API Managers' recent calls, Calls 24h / Errors 24h). */
export const apiCallLogs = pgTable(
  'api_call_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    locationId: text('location_id').notNull(),
    tokenId: integer('token_id'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    ip: text('ip').notNull(),
    statusCode: integer('status_code').notNull(),
    rowsAccepted: integer('rows_accepted').notNull().default(0),
    rowsRejected: integer('rows_rejected').notNull().default(0),
    runId: integer('run_id'),
    error: text('error'),
  },
  (t) => [
    index('api_call_logs_location_received_idx').on(t.locationId, t.receivedAt),
    // The housekeeping job's range (housekeeping/prune.ts).
    index('api_call_logs_received_idx').on(t.receivedAt),
  ],
);

/**
 * Ingest calls refused before any credential was established (no token, an unknown or unusable
 * one, a wrong webhook secret), one row per caller address and window instead of a call-log row
 * each, shown by its one System Logs row (as sign-in refusals are, `login_refusal_summaries`).
 */
export const apiRefusalSummaries = pgTable(
  'api_refusal_summaries',
  {
    ip: text('ip').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    /** The System Logs row showing this summary; written by the same statement, so no foreign key. */
    systemLogId: bigint('system_log_id', { mode: 'number' }).notNull(),
    /** Calls whose credential was checked and refused. */
    refused: integer('refused').notNull().default(0),
    /** Calls answered 429 without a credential check, the address having been refused too often. */
    throttled: integer('throttled').notNull().default(0),
    /** The endpoint ids called, at most API_REFUSAL_MAX_ENDPOINTS. */
    endpoints: text('endpoints').array().notNull(),
    moreEndpoints: boolean('more_endpoints').notNull().default(false),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.ip, t.windowStart] }), index('api_refusal_summaries_window_idx').on(t.windowStart)],
);

/** Who changed which survey how (Survey Manager Logs, Changes), with the fields' before and after. */
export const surveyChangeLogs = pgTable(
  'survey_change_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    userId: integer('user_id').references(() => users.id),
    action: text('action').$type<SurveyChangeAction>().notNull(),
    diff: jsonb('diff').$type<Record<string, { before: unknown; after: unknown }>>().notNull().default({}),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('survey_change_logs_client_at_idx').on(t.clientId, t.at, t.id),
    index('survey_change_logs_survey_idx').on(t.surveyId, t.at),
  ],
);
