import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { notificationLogs } from './notifications.ts';
import { surveyResponses } from './responses.ts';
import { surveyProcessingItems } from './surveys.ts';

/**
 * Survey Alert Settings (domain.md §7, pipeline.md "Alerts"): a rule notifies a client's people
 * when a response needs attention. Empty `survey_ids` / `location_ids` mean every survey / location
 * of the client ("Selected All").
 */
export const surveyAlertRules = pgTable(
  'survey_alert_rules',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    surveyIds: integer('survey_ids').array().notNull().default(sql`'{}'`),
    locationIds: text('location_ids').array().notNull().default(sql`'{}'`),
    /** score_at_or_below, score_between, detractor, keyword, any_comment, no_response_days. */
    trigger: text('trigger').notNull(),
    scoreMin: integer('score_min'),
    scoreMax: integer('score_max'),
    keywords: text('keywords').array().notNull().default(sql`'{}'`),
    /** no_response_days: invitations sent this many days ago and still unanswered. */
    noResponseDays: integer('no_response_days'),
    channels: text('channels').array().notNull().default(sql`'{email}'`),
    extraEmails: text('extra_emails').array().notNull().default(sql`'{}'`),
    extraPhones: text('extra_phones').array().notNull().default(sql`'{}'`),
    notifyAssignedPersonnel: boolean('notify_assigned_personnel').notNull().default(false),
    notifyLocationManager: boolean('notify_location_manager').notNull().default(false),
    /** instant or daily_digest. */
    frequency: text('frequency').notNull().default('instant'),
    /** The hour (0–23, the client's zone) a daily digest goes out. */
    digestHour: integer('digest_hour'),
    escalateAfterHours: integer('escalate_after_hours'),
    escalationEmails: text('escalation_emails').array().notNull().default(sql`'{}'`),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('survey_alert_rules_client_idx').on(t.clientId, t.status, t.id)],
);

/**
 * The client users a rule notifies. User id 1000 ("Default for New User") is not a person: a rule
 * that lists it takes in every user added to its client afterwards (pipeline.md), so `user_id`
 * has no foreign key.
 */
export const surveyAlertRecipients = pgTable(
  'survey_alert_recipients',
  {
    ruleId: integer('rule_id')
      .notNull()
      .references(() => surveyAlertRules.id),
    userId: integer('user_id').notNull(),
    /** How the user came to be here: chosen on the rule, or joined through "Default for New User". */
    addedBy: text('added_by').notNull().default('chosen'),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.userId] }), index('survey_alert_recipients_user_idx').on(t.userId)],
);

/**
 * One alert for one recipient on one channel (domain.md §6). `response_id` names the response that
 * fired it; a `no_response_days` alert names its unanswered invitation instead. Unique on what it
 * is about, so a retried evaluation never alerts twice; a test (Test on a rule) is never unique.
 * `recipient` is '' for a `no_recipients` event (the rule reached nobody).
 */
export const surveyAlertEvents = pgTable(
  'survey_alert_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ruleId: integer('rule_id')
      .notNull()
      .references(() => surveyAlertRules.id),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    responseId: integer('response_id').references(() => surveyResponses.id),
    processingItemId: integer('processing_item_id').references(() => surveyProcessingItems.id),
    /** email or sms. */
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    /** pending, sent, retrying, unsent, resent, dismissed. */
    state: text('state').notNull().default('pending'),
    /** Why it did not reach its recipient (domain.md §6's reasons); null while fine. */
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    nextRetryAt: timestamp('next_retry_at', { withTimezone: true }),
    notificationId: bigint('notification_id', { mode: 'number' }).references(() => notificationLogs.id),
    /** The digest that carried it (daily_digest rules). */
    digestId: integer('digest_id'),
    /** SHA-256 of the acknowledge link's token (`/a/{token}`). */
    ackTokenHash: text('ack_token_hash'),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    escalatedAt: timestamp('escalated_at', { withTimezone: true }),
    /** The address or number a "Resend to…" used instead of the recipient. */
    resentTo: text('resent_to'),
    dismissedBy: integer('dismissed_by'),
    note: text('note'),
    test: boolean('test').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('survey_alert_events_once_uq')
      .on(t.ruleId, sql`coalesce(${t.responseId}, 0)`, sql`coalesce(${t.processingItemId}, 0)`, t.channel, t.recipient)
      .where(sql`not ${t.test}`),
    index('survey_alert_events_state_idx').on(t.state, t.createdAt, t.id),
    index('survey_alert_events_client_idx').on(t.clientId, t.createdAt, t.id),
    index('survey_alert_events_retry_idx').on(t.nextRetryAt).where(sql`${t.state} in ('pending', 'retrying')`),
    index('survey_alert_events_rule_idx').on(t.ruleId, t.createdAt),
    index('survey_alert_events_ack_idx').on(t.ackTokenHash),
    // Escalation's scan (apps/server/src/alerts/escalate.ts): per rule, delivered alerts not yet escalated, by time.
    index('survey_alert_events_escalation_idx')
      .on(t.ruleId, t.lastAttemptAt)
      .where(sql`${t.escalatedAt} is null and ${t.state} in ('sent', 'resent') and not ${t.test}`),
  ],
);

/** One digest message per rule, recipient, channel and period (the day it covers, client's zone). */
export const surveyAlertDigests = pgTable(
  'survey_alert_digests',
  {
    id: serial('id').primaryKey(),
    ruleId: integer('rule_id')
      .notNull()
      .references(() => surveyAlertRules.id),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    notificationId: bigint('notification_id', { mode: 'number' }).references(() => notificationLogs.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('survey_alert_digests_once_uq').on(t.ruleId, t.recipient, t.channel, t.periodStart)],
);
