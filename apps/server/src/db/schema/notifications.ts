import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { locations } from './locations.ts';

/**
 * Every outbound message, whatever its channel and transport (Tracking Logs): written by the one
 * sender (apps/server/src/messaging) with the rendered subject and body, before the transport is
 * called, and updated as the message moves on. A refused send (suppressed, opted out) is a row too.
 */
export const notificationLogs = pgTable(
  'notification_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clientId: integer('client_id').references(() => clients.id),
    locationId: text('location_id').references(() => locations.id),
    channel: text('channel').notNull(),
    type: text('type').notNull(),
    /** The address or E.164 phone as sent; shown masked. */
    recipient: text('recipient').notNull(),
    /** The rendered subject of an e-mail, the template's name of an SMS. */
    subjectOrTemplate: text('subject_or_template').notNull(),
    bodyText: text('body_text'),
    bodyHtml: text('body_html'),
    providerMessageId: text('provider_message_id'),
    status: text('status').notNull(),
    relatedType: text('related_type'),
    relatedId: text('related_id'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Keyset pages in time order with one filter applied stay index walks (like System Logs).
  (t) => [
    index('notification_logs_created_idx').on(t.createdAt, t.id),
    index('notification_logs_client_created_idx').on(t.clientId, t.createdAt, t.id),
    index('notification_logs_status_created_idx').on(t.status, t.createdAt, t.id),
    // Provider events (SES, SMS status callbacks) find their message by its id, the first row by id:
    // with id in the index that lookup never becomes a walk of the primary key on a table without
    // statistics (the embedded database has no autovacuum; bench/deliverability/ingest.ts).
    index('notification_logs_provider_message_id_idx').on(t.providerMessageId, t.id),
    index('notification_logs_related_idx').on(t.relatedType, t.relatedId),
  ],
);

/** The status history of one message, oldest first: the detail's timeline. */
export const notificationEvents = pgTable(
  'notification_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    notificationId: bigint('notification_id', { mode: 'number' })
      .notNull()
      .references(() => notificationLogs.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    detail: text('detail'),
  },
  (t) => [index('notification_events_notification_idx').on(t.notificationId, t.at, t.id)],
);

/**
 * SES Bounce: one row per lower-case address that bounced, complained or was suppressed by hand.
 * `suppressed` is what the sender and the send engine check; the counts and "last" fields are
 * kept by the SES event ingest (apps/server/src/deliverability) under the row's lock, so two
 * events for one address never lose a count. A release keeps the row (history) with
 * `suppressed = false` and who released it, when and why.
 */
export const emailSuppressions = pgTable(
  'email_suppressions',
  {
    email: text('email').primaryKey(),
    suppressed: boolean('suppressed').notNull().default(true),
    /** BOUNCE, COMPLAINT or MANUAL: why it is (or last was) suppressed; BOUNCE for a counted address not yet suppressed. */
    reason: text('reason').notNull(),
    lastBounceType: text('last_bounce_type'),
    lastBounceSubtype: text('last_bounce_subtype'),
    lastDiagnosticCode: text('last_diagnostic_code'),
    /** Every bounce event seen for the address (counted or not). */
    bounceCount: integer('bounce_count').notNull().default(0),
    complaintCount: integer('complaint_count').notNull().default(0),
    /** The subject of the last message that bounced or drew a complaint. */
    lastTemplate: text('last_template'),
    /** Clients whose messages to the address bounced or drew a complaint. */
    clientIds: integer('client_ids').array().notNull().default(sql`'{}'::int[]`),
    note: text('note'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    suppressedAt: timestamp('suppressed_at', { withTimezone: true }),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    releasedBy: integer('released_by'),
    releaseReason: text('release_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('email_suppressions_last_seen_idx').on(t.lastSeenAt, t.email),
    index('email_suppressions_suppressed_idx').on(t.suppressed, t.lastSeenAt, t.email),
  ],
);

/**
 * Addresses that unsubscribed (`/u/{token}`), the e-mail twin of `sms_opt_outs`: one row per
 * lower-case address; `client_id` null = opted out of every client.
 */
export const emailOptOuts = pgTable(
  'email_opt_outs',
  {
    email: text('email').primaryKey(),
    clientId: integer('client_id').references(() => clients.id),
    source: text('source').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('email_opt_outs_client_idx').on(t.clientId)],
);
