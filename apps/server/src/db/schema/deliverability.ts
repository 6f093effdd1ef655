import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { notificationLogs } from './notifications.ts';

/**
 * SES Logs: every SES event (event publishing or identity notification) received through SNS, one
 * row per recipient. The unique index on (message_id, event_type, recipient, event_at) is what makes
 * the ingest idempotent: SNS retries and duplicates insert nothing, so change nothing twice.
 * `notification_id` is the NotificationLog row whose provider message id is `message_id`.
 */
export const sesEvents = pgTable(
  'ses_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** SES's message id (`mail.messageId`). */
    messageId: text('message_id').notNull(),
    /** Send, Delivery, Bounce, Complaint, Reject, Open, Click, RenderingFailure, DeliveryDelay, Subscription. */
    eventType: text('event_type').notNull(),
    /** Lower-case address. */
    recipient: text('recipient').notNull(),
    source: text('source').notNull(),
    subject: text('subject'),
    configurationSet: text('configuration_set'),
    bounceType: text('bounce_type'),
    bounceSubtype: text('bounce_subtype'),
    complaintFeedbackType: text('complaint_feedback_type'),
    /** A bounce's diagnostic code, a delivery's SMTP response, a delay's or rejection's reason. */
    diagnosticCode: text('diagnostic_code'),
    reportingMta: text('reporting_mta'),
    eventAt: timestamp('event_at', { withTimezone: true }).notNull(),
    /** The SES event as SNS carried it (the `Message`, parsed). */
    raw: jsonb('raw').notNull(),
    /** The SNS envelope's MessageId, for tracing a delivery. */
    snsMessageId: text('sns_message_id'),
    notificationId: bigint('notification_id', { mode: 'number' }).references(() => notificationLogs.id, { onDelete: 'set null' }),
    clientId: integer('client_id').references(() => clients.id),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Keyset pages newest first with one filter applied stay index walks (like Tracking Logs).
  (t) => [
    uniqueIndex('ses_events_identity_uq').on(t.messageId, t.eventType, t.recipient, t.eventAt),
    index('ses_events_event_at_idx').on(t.eventAt, t.id),
    index('ses_events_type_event_at_idx').on(t.eventType, t.eventAt, t.id),
    index('ses_events_client_event_at_idx').on(t.clientId, t.eventAt, t.id),
    index('ses_events_recipient_event_at_idx').on(t.recipient, t.eventAt, t.id),
    // SES Logs' Bounce type filter: a type few (or no) events have is otherwise a walk of the whole table (docs/decisions/060).
    index('ses_events_bounce_type_event_at_idx').on(t.bounceType, t.eventAt, t.id).where(sql`${t.bounceType} is not null`),
    index('ses_events_notification_idx').on(t.notificationId).where(sql`${t.notificationId} is not null`),
  ],
);

/**
 * An SMS provider's status callbacks (Twilio-compatible), one row per message and status: callbacks
 * arrive out of order and may repeat, so the unique index keeps each status once and the
 * NotificationLog row only ever moves forward.
 */
export const smsStatusEvents = pgTable(
  'sms_status_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    messageSid: text('message_sid').notNull(),
    status: text('status').notNull(),
    errorCode: text('error_code'),
    raw: jsonb('raw').notNull(),
    notificationId: bigint('notification_id', { mode: 'number' }).references(() => notificationLogs.id, { onDelete: 'set null' }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sms_status_events_uq').on(t.messageSid, t.status),
    index('sms_status_events_notification_idx').on(t.notificationId).where(sql`${t.notificationId} is not null`),
  ],
);

/**
 * Messages phones sent us (Twilio-compatible inbound webhook), once per provider sid, with what the
 * platform did: `opt_out`, `opt_in`, `help` or `none`.
 */
export const smsInboundMessages = pgTable(
  'sms_inbound_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    messageSid: text('message_sid').notNull(),
    fromPhone: text('from_phone').notNull(),
    toPhone: text('to_phone').notNull(),
    body: text('body').notNull(),
    action: text('action').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sms_inbound_messages_sid_uq').on(t.messageSid),
    index('sms_inbound_messages_from_idx').on(t.fromPhone, t.receivedAt),
  ],
);
