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
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { locations } from './locations.ts';
import { personnel } from './personnel.ts';
import { surveyResponses } from './responses.ts';

/**
 * A public review on a review site (domain.md part D, `Review`; pipeline.md "Reviews"). Every way in
 * (the API, the CSV import, the Google pull, the demo) goes through one ingest function; the site's
 * own id makes a later copy of the same review an update, never a second row.
 */
export const reviews = pgTable(
  'reviews',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.id),
    /** A review site code (REVIEW_SITES in @admin/shared). */
    site: text('site').notNull(),
    externalId: text('external_id').notNull(),
    authorName: text('author_name').notNull(),
    /** 1–5 on star sites; null on a recommend site (Facebook). */
    rating: smallint('rating'),
    /** Facebook's recommended / not recommended; null elsewhere. */
    recommend: boolean('recommend'),
    text: text('text'),
    url: text('url'),
    reviewCreatedAt: timestamp('review_created_at', { withTimezone: true }).notNull(),
    reviewUpdatedAt: timestamp('review_updated_at', { withTimezone: true }),
    replyText: text('reply_text'),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    /** Personnel the review names (matched mentions). */
    personnelIds: integer('personnel_ids').array().notNull().default(sql`'{}'`),
    /** positive, neutral, negative; null until known. */
    sentiment: text('sentiment'),
    /** How it came in: api, csv, google, demo. */
    source: text('source').notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Per client: a site's review id is public, so one client can never claim another's (or block its copy).
    uniqueIndex('reviews_client_site_external_uq').on(t.clientId, t.site, t.externalId),
    index('reviews_client_site_created_idx').on(t.clientId, t.site, t.reviewCreatedAt, t.id),
    index('reviews_location_site_created_idx').on(t.locationId, t.site, t.reviewCreatedAt),
  ],
);

/**
 * One review site offered to one respondent on the thank-you page (domain.md §10's reputation item):
 * invited → clicked → posted; not_posted 14 days after the invitation without a match; opted_out;
 * failed. `token` is the `/r/{token}` link's; the click redirects to the location's stored link.
 * A review matches at most one invitation.
 */
export const amplifications = pgTable(
  'amplifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.id),
    personnelId: integer('personnel_id').references(() => personnel.id),
    responseId: integer('response_id')
      .notNull()
      .references(() => surveyResponses.id),
    site: text('site').notNull(),
    /** The channel the survey invitation went out on (email, sms). */
    channel: text('channel').notNull(),
    token: text('token').notNull(),
    /** The respondent's name as the feed gave it, kept for matching and the panel's Customer column. */
    customerName: text('customer_name').notNull().default(''),
    surveyScore: integer('survey_score'),
    invitedAt: timestamp('invited_at', { withTimezone: true }).notNull(),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    clickedAt: timestamp('clicked_at', { withTimezone: true }),
    clickCount: integer('click_count').notNull().default(0),
    reviewId: bigint('review_id', { mode: 'number' }).references(() => reviews.id),
    /** 0–100: the match score, kept with its parts in `match_reasons`. */
    matchConfidence: integer('match_confidence'),
    matchReasons: jsonb('match_reasons').$type<Record<string, number | string>>(),
    /** auto or manual; null while unmatched. */
    matchedBy: text('matched_by'),
    matchedByUserId: integer('matched_by_user_id'),
    /** A 40–69 candidate waiting for a person to confirm. */
    suggestedReviewId: bigint('suggested_review_id', { mode: 'number' }).references(() => reviews.id),
    suggestedConfidence: integer('suggested_confidence'),
    /** invited, clicked, posted, not_posted, opted_out, failed. */
    status: text('status').notNull().default('invited'),
    /** Why it is failed or opted_out, in words. */
    statusReason: text('status_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('amplifications_token_uq').on(t.token),
    uniqueIndex('amplifications_response_site_uq').on(t.responseId, t.site),
    uniqueIndex('amplifications_review_uq').on(t.reviewId).where(sql`${t.reviewId} is not null`),
    index('amplifications_client_site_invited_idx').on(t.clientId, t.site, t.invitedAt, t.id),
    // Matching: open invitations of a location and site, by time.
    index('amplifications_open_idx').on(t.locationId, t.site, t.invitedAt).where(sql`${t.status} in ('invited', 'clicked')`),
    // The not_posted sweep: open invitations by age.
    index('amplifications_open_age_idx').on(t.invitedAt).where(sql`${t.status} in ('invited', 'clicked')`),
    // Late reviews: invitations closed unmatched stay candidates inside their window (docs/decisions/049).
    index('amplifications_not_posted_idx').on(t.locationId, t.site, t.invitedAt).where(sql`${t.status} = 'not_posted'`),
  ],
);

/**
 * Review Alert Settings (domain.md §11): a rule notifies a client's people when a public review
 * arrives. Empty `location_ids` = every location ("Selected All").
 */
export const reviewAlertRules = pgTable(
  'review_alert_rules',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    locationIds: text('location_ids').array().notNull().default(sql`'{}'`),
    sites: text('sites').array().notNull().default(sql`'{google}'`),
    ratingMin: integer('rating_min'),
    ratingMax: integer('rating_max'),
    /** recommended, not_recommended (Facebook); empty = either. */
    recommendFilter: text('recommend_filter').array().notNull().default(sql`'{}'`),
    /** any, with_text, without_text. */
    textFilter: text('text_filter').notNull().default('any'),
    keywords: text('keywords').array().notNull().default(sql`'{}'`),
    channels: text('channels').array().notNull().default(sql`'{email}'`),
    extraEmails: text('extra_emails').array().notNull().default(sql`'{}'`),
    extraPhones: text('extra_phones').array().notNull().default(sql`'{}'`),
    /** instant, daily, weekly. */
    frequency: text('frequency').notNull().default('instant'),
    /** HH:mm in the client's zone (daily and weekly). */
    sendTime: text('send_time'),
    /** mon … sun (weekly). */
    weeklyDay: text('weekly_day'),
    includeReplyLink: boolean('include_reply_link').notNull().default(false),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('review_alert_rules_client_idx').on(t.clientId, t.status, t.id)],
);

/** The client users a review rule notifies; user id 1000 is "Default for New User", as for survey rules. */
export const reviewAlertRecipients = pgTable(
  'review_alert_recipients',
  {
    ruleId: integer('rule_id')
      .notNull()
      .references(() => reviewAlertRules.id),
    userId: integer('user_id').notNull(),
    addedBy: text('added_by').notNull().default('chosen'),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.userId] }), index('review_alert_recipients_user_idx').on(t.userId)],
);

/**
 * One review for one recipient on one channel under one rule (ReviewAlertDelivery, read by the
 * Review Alerts Report): pending until sent (at once, or in the rule's digest), then sent, failed
 * or suppressed. Unique on what it is about so a retried evaluation never alerts twice.
 */
export const reviewAlertDeliveries = pgTable(
  'review_alert_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ruleId: integer('rule_id')
      .notNull()
      .references(() => reviewAlertRules.id),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    reviewId: bigint('review_id', { mode: 'number' }).references(() => reviews.id),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    /** pending, sent, failed, suppressed. */
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    nextRetryAt: timestamp('next_retry_at', { withTimezone: true }),
    digestId: integer('digest_id'),
    notificationId: bigint('notification_id', { mode: 'number' }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    test: boolean('test').notNull().default(false),
    /** SHA-256 of the one-click unsubscribe link's token (`/alerts/unsubscribe/{token}`) of an instant e-mail. */
    unsubscribeTokenHash: text('unsubscribe_token_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('review_alert_deliveries_unsubscribe_idx').on(t.unsubscribeTokenHash).where(sql`${t.unsubscribeTokenHash} is not null`),
    uniqueIndex('review_alert_deliveries_once_uq')
      .on(t.ruleId, sql`coalesce(${t.reviewId}, 0)`, t.channel, t.recipient)
      .where(sql`not ${t.test}`),
    index('review_alert_deliveries_client_idx').on(t.clientId, t.createdAt, t.id),
    // The Review Alerts Report over every client, newest alert first (modules/review-alerts-report; decision 067).
    index('review_alert_deliveries_created_idx').on(t.createdAt, t.id).where(sql`not ${t.test}`),
    index('review_alert_deliveries_due_idx').on(t.ruleId, t.createdAt).where(sql`${t.status} = 'pending'`),
  ],
);

/** One digest message per rule, recipient, channel and period (the day or week it covers, client's zone). */
export const reviewAlertDigests = pgTable(
  'review_alert_digests',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    ruleId: integer('rule_id')
      .notNull()
      .references(() => reviewAlertRules.id),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    notificationId: bigint('notification_id', { mode: 'number' }),
    /** SHA-256 of the digest e-mail's one-click unsubscribe token (`/alerts/unsubscribe/{token}`). */
    unsubscribeTokenHash: text('unsubscribe_token_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('review_alert_digests_once_uq').on(t.ruleId, t.recipient, t.channel, t.periodStart),
    index('review_alert_digests_unsubscribe_idx').on(t.unsubscribeTokenHash).where(sql`${t.unsubscribeTokenHash} is not null`),
  ],
);

/**
 * A client's Google Business Profile connection for the review pull: the OAuth refresh token,
 * encrypted like feeds' SFTP passwords, and the account it reads.
 */
export const googleConnections = pgTable('google_connections', {
  clientId: integer('client_id')
    .primaryKey()
    .references(() => clients.id),
  /** `accounts/{a}`. */
  account: text('account').notNull(),
  refreshTokenEncrypted: text('refresh_token_encrypted').notNull(),
  status: text('status').notNull().default('active'),
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Which Google Business Profile location a location's reviews are pulled from, and when it was last pulled. */
export const reviewPullSources = pgTable(
  'review_pull_sources',
  {
    locationId: text('location_id')
      .primaryKey()
      .references(() => locations.id),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** `locations/{l}` under the connection's account. */
    googleLocation: text('google_location').notNull(),
    lastPulledAt: timestamp('last_pulled_at', { withTimezone: true }),
    nextPullAt: timestamp('next_pull_at', { withTimezone: true }),
    lastError: text('last_error'),
    reviewsSeen: integer('reviews_seen').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('review_pull_sources_due_idx').on(t.nextPullAt)],
);
