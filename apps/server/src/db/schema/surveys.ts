import type { ProcessingItemChannel, ProcessingItemSource, ProcessingItemStatus } from '@admin/shared/resources/surveys';
import type { SurveyQuestion } from '@admin/shared/surveys/questions';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { products, referralSources } from './catalog.ts';
import { clients } from './clients.ts';
import { locations } from './locations.ts';
import { personnel } from './personnel.ts';
import { smsTemplates } from './sms.ts';

/**
 * Survey definitions per client (docs/screens.md, Surveys). The questions are one `jsonb` array
 * checked by `surveyQuestionSchema` on every write (decision 023): they are always read and
 * written whole, with the survey.
 */
export const surveys = pgTable(
  'surveys',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    type: text('type').notNull(),
    language: text('language').notNull(),
    channel: text('channel').notNull(),
    questions: jsonb('questions').$type<SurveyQuestion[]>().notNull().default([]),
    emailSubject: text('email_subject'),
    emailBody: text('email_body'),
    smsTemplateId: integer('sms_template_id').references(() => smsTemplates.id),
    senderName: text('sender_name').notNull(),
    replyTo: text('reply_to'),
    sendDelayHours: integer('send_delay_hours').notNull().default(24),
    reminderCount: integer('reminder_count').notNull().default(1),
    reminderIntervalDays: integer('reminder_interval_days').notNull().default(3),
    linkExpiresDays: integer('link_expires_days').notNull().default(30),
    /** Null = the client's Survey Admin value (docs/decisions/027-surveys-inherit-survey-admin.md); so is a null `reply_to`. */
    overSurveyDays: integer('over_survey_days'),
    reviewInviteMode: text('review_invite_mode').notNull().default('all_respondents'),
    reviewInviteThreshold: integer('review_invite_threshold'),
    reviewSites: text('review_sites').array().notNull().default(sql`'{}'::text[]`),
    testimonialConsentText: text('testimonial_consent_text'),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('surveys_client_name_idx').on(t.clientId, sql`lower(${t.name})`, t.id)],
);

/** The locations a survey is sent for (n–n). */
export const surveyLocations = pgTable(
  'survey_locations',
  {
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.id),
  },
  (t) => [primaryKey({ columns: [t.surveyId, t.locationId] }), index('survey_locations_location_idx').on(t.locationId)],
);

/**
 * One invitation to one customer (Survey Processing): who, for which survey and location, by which
 * channel, and where it stands. `token` (≥ 128 random bits, base64url) is the survey link
 * `/s/{token}` and the unsubscribe link `/u/{token}`; it stops working at `expires_at`.
 */
export const surveyProcessingItems = pgTable(
  'survey_processing_items',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    locationId: text('location_id').references(() => locations.id),
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name'),
    email: text('email'),
    phone: text('phone'),
    transactionId: text('transaction_id'),
    transactionDate: text('transaction_date'),
    personnelId: integer('personnel_id').references(() => personnel.id),
    productId: integer('product_id').references(() => products.id),
    referralSourceId: integer('referral_source_id').references(() => referralSources.id),
    amount: numeric('amount', { precision: 14, scale: 2 }),
    /** SMS is sent only when the row said the customer agreed to texts (TCPA). */
    smsOptIn: boolean('sms_opt_in').notNull().default(false),
    /** The feed, run and row it came from; the row as received (Survey Processing's detail). */
    dataFeedId: integer('data_feed_id'),
    runId: integer('run_id'),
    rowNumber: integer('row_number'),
    raw: jsonb('raw').$type<Record<string, string>>(),
    remindersSent: integer('reminders_sent').notNull().default(0),
    /**
     * When the next reminder is due (set by the send engine at each send and reminder, null when the
     * survey's reminders are used up), so the reminder sweep reads only the due rows of an index
     * instead of every sent invitation. A survey's reminder settings apply to invitations sent after
     * they change.
     */
    nextReminderAt: timestamp('next_reminder_at', { withTimezone: true }),
    channel: text('channel').$type<ProcessingItemChannel>().notNull(),
    status: text('status').$type<ProcessingItemStatus>().notNull().default('queued'),
    skipReason: text('skip_reason'),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    /**
     * Until when a send engine's batch holds the invitation (its lease, renewed while the batch is
     * out; null once the outcome is written), so Send now refuses one being sent (pipeline/send.ts).
     */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    token: text('token').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    source: text('source').$type<ProcessingItemSource>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('survey_processing_items_token_uq').on(t.token),
    // Survey Processing's newest-first list over every client (bench/pipeline/processing.ts).
    index('survey_processing_items_created_idx').on(t.createdAt, t.id),
    index('survey_processing_items_client_created_idx').on(t.clientId, t.createdAt, t.id),
    index('survey_processing_items_survey_created_idx').on(t.surveyId, t.createdAt, t.id),
    index('survey_processing_items_status_idx').on(t.status, t.scheduledAt),
    index('survey_processing_items_client_status_created_idx').on(t.clientId, t.status, t.createdAt, t.id),
    index('survey_processing_items_transaction_idx').on(t.clientId, t.transactionId),
    index('survey_processing_items_email_idx').on(t.clientId, t.email),
    index('survey_processing_items_phone_idx').on(t.clientId, t.phone),
    index('survey_processing_items_run_idx').on(t.runId),
    // Survey Processing's search: a prefix ("POS-900" finds "POS-9001") of the transaction id, the
    // e-mail (lower-cased when received), the phone (E.164) or the name, over every client, each an
    // index range scan (text_pattern_ops: LIKE 'x%' whatever the database's collation), never a
    // scan of millions of rows (modules/survey-processing/repository.ts, searchWhere).
    index('survey_processing_items_transaction_prefix_idx').on(sql`lower(${t.transactionId}) text_pattern_ops`),
    index('survey_processing_items_email_prefix_idx').on(sql`${t.email} text_pattern_ops`),
    index('survey_processing_items_phone_prefix_idx').on(sql`${t.phone} text_pattern_ops`),
    index('survey_processing_items_name_prefix_idx').on(sql`lower(${t.firstName} || ' ' || coalesce(${t.lastName}, '')) text_pattern_ops`),
    // A feed run's "Sent" (survey-manager-logs repository), read every second while a run is followed:
    // through run_idx it visited every invitation of the run, 150 ms for a 250,000-row run on PGlite
    // (bench/stall); this one holds only those sent.
    index('survey_processing_items_run_sent_idx').on(t.runId).where(sql`sent_at is not null`),
    // The send engine's claim (pipeline/send.ts), every pass: only waiting invitations, in due order. On PGlite
    // statistics go stale (no autovacuum), and with 250,000 new invitations the claim's plan filtered all of
    // them through the expiry index, 150-190 ms a pass (bench/stall); this index is the one it can take.
    index('survey_processing_items_due_idx').on(t.scheduledAt).where(sql`status = 'scheduled'`),
    // The send engine's sweeps (pipeline/send.ts): only invitations still waiting for an answer are indexed.
    index('survey_processing_items_reminder_due_idx')
      .on(t.nextReminderAt)
      .where(sql`next_reminder_at is not null and status in ('sent', 'delivered', 'opened', 'reminded')`),
    // The daily cap's count of what each location has scheduled per day (pipeline/admit-lookups.ts),
    // once per admitted batch: only the batch's locations, read from the index alone. Without it
    // the count filtered every live invitation of every client since yesterday (bench/pipeline/endpoint.ts).
    index('survey_processing_items_location_live_idx')
      .on(t.locationId, t.scheduledAt)
      .where(sql`status in ('scheduled', 'sent', 'delivered', 'opened', 'responded', 'reminded')`),
    index('survey_processing_items_expiry_idx')
      .on(t.expiresAt)
      .where(sql`status in ('scheduled', 'sent', 'delivered', 'opened', 'reminded')`),
  ],
);
