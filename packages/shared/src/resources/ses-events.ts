import { z } from 'zod';
import { idFilterItem } from '../api/ids.ts';
import { defineResource } from '../api/resource.ts';
import { exportMoment } from '../api/zoned-time.ts';
import type { NotificationStatus } from './notification-logs.ts';

/**
 * SES Logs (domain.md §24): the raw Amazon SES event stream, one `ses_events` row per event and
 * recipient (the SES ingest writes them). Read-only: no fields. The definition drives the API's
 * query validation, the table's columns, the filters and the CSV headers. Addresses are shown whole:
 * the screen is staff-only and exists to answer "why did this address get nothing"
 * (docs/decisions/060-ses-screens.md).
 */
export const SES_EVENT_TYPES = [
  'Send',
  'Delivery',
  'Bounce',
  'Complaint',
  'Reject',
  'Open',
  'Click',
  'RenderingFailure',
  'DeliveryDelay',
  'Subscription',
] as const;
export type SesEventType = (typeof SES_EVENT_TYPES)[number];
export const SES_EVENT_TYPE_LABELS: Record<SesEventType, string> = {
  Send: 'Send',
  Delivery: 'Delivery',
  Bounce: 'Bounce',
  Complaint: 'Complaint',
  Reject: 'Reject',
  Open: 'Open',
  Click: 'Click',
  RenderingFailure: 'Rendering failure',
  DeliveryDelay: 'Delivery delay',
  Subscription: 'Subscription',
};

/** SES's bounce types (domain.md A6), as event publishing writes them. */
export const SES_BOUNCE_TYPES = ['Undetermined', 'Permanent', 'Transient'] as const;
export type SesBounceType = (typeof SES_BOUNCE_TYPES)[number];
export const SES_BOUNCE_TYPE_LABELS: Record<SesBounceType, string> = {
  Undetermined: 'Undetermined',
  Permanent: 'Permanent (hard)',
  Transient: 'Transient (soft)',
};

/** Each subtype SES gives, with the types it comes under (domain.md A6). */
export const SES_BOUNCE_SUBTYPES = [
  'Undetermined',
  'General',
  'NoEmail',
  'Suppressed',
  'OnAccountSuppressionList',
  'MailboxFull',
  'MessageTooLarge',
  'ContentRejected',
  'AttachmentRejected',
] as const;
export type SesBounceSubtype = (typeof SES_BOUNCE_SUBTYPES)[number];
export const SES_BOUNCE_SUBTYPE_LABELS: Record<SesBounceSubtype, string> = {
  Undetermined: 'Undetermined',
  General: 'General',
  NoEmail: 'No such address',
  Suppressed: 'On the SES suppression list',
  OnAccountSuppressionList: 'On the account suppression list',
  MailboxFull: 'Mailbox full',
  MessageTooLarge: 'Message too large',
  ContentRejected: 'Content rejected',
  AttachmentRejected: 'Attachment rejected',
};

const labelOf = (labels: Record<string, string>, key: string | null): string | null =>
  key === null ? null : ((Object.hasOwn(labels, key) ? labels[key] : undefined) ?? key);
/** `Bounce`, `Rendering failure`: an event type in words (an unknown one as it came). */
export const sesEventTypeText = (type: string): string => labelOf(SES_EVENT_TYPE_LABELS, type) ?? type;
/** `Permanent (hard) · No such address`, or null when the event is no bounce. */
export function bounceText(type: string | null, subtype: string | null): string | null {
  const t = labelOf(SES_BOUNCE_TYPE_LABELS, type);
  const s = labelOf(SES_BOUNCE_SUBTYPE_LABELS, subtype);
  if (t === null) return s;
  return s === null ? t : `${t} · ${s}`;
}

export const sesEventSchema = z.object({
  id: z.number().int(),
  event_at: z.string(),
  event_type: z.string(),
  recipient: z.string(),
  source: z.string(),
  subject: z.string().nullable(),
  message_id: z.string(),
  configuration_set: z.string().nullable(),
  bounce_type: z.string().nullable(),
  bounce_subtype: z.string().nullable(),
  complaint_feedback_type: z.string().nullable(),
  diagnostic_code: z.string().nullable(),
  reporting_mta: z.string().nullable(),
  client_id: z.number().int().nullable(),
  client_name: z.string().nullable(),
  /** The client's time zone (IANA): its times are shown in it; UTC, named, for an event of no client. */
  client_timezone: z.string().nullable(),
  notification_id: z.number().int().nullable(),
});
export type SesEvent = z.infer<typeof sesEventSchema>;

/** The detail adds the event as SNS carried it and when it reached us. */
export const sesEventDetailSchema = sesEventSchema.extend({
  raw: z.unknown(),
  sns_message_id: z.string().nullable(),
  received_at: z.string(),
});
export type SesEventDetail = z.infer<typeof sesEventDetailSchema>;

/** An event's time as the screen and the CSV write it: the client's zone, else UTC, named either way. */
export const sesEventMoment = (r: Pick<SesEvent, 'event_at' | 'client_timezone'>): string =>
  exportMoment(r.event_at, r.client_timezone ?? 'UTC');

export const sesEventResource = defineResource({
  name: 'ses_event',
  noun: 'SES event',
  path: '/api/ses-events',
  screen: 'ses-logs',
  // Every client's events; the Clients filter narrows them.
  scope: 'filterable-clients',
  record: sesEventSchema,
  fields: {},
  columns: {
    event_at: { label: 'Event time', sortable: true, format: sesEventMoment },
    event_type: { label: 'Event type', format: (r) => sesEventTypeText(r.event_type) },
    recipient: { label: 'Recipient' },
    source: { label: 'From' },
    subject: { label: 'Subject' },
    message_id: { label: 'Message id', defaultVisible: false },
    configuration_set: { label: 'Configuration set', defaultVisible: false },
    bounce: { label: 'Bounce type/subtype', format: (r) => bounceText(r.bounce_type, r.bounce_subtype) },
    complaint_feedback_type: { label: 'Complaint feedback type', defaultVisible: false },
    diagnostic_code: { label: 'Diagnostic code / SMTP response' },
    reporting_mta: { label: 'Reporting MTA', defaultVisible: false },
    client_name: { label: 'Client' },
    notification_id: { label: 'Notification id', defaultVisible: false },
  },
  filters: {
    event_type: {
      kind: 'multi',
      label: 'Event type',
      options: SES_EVENT_TYPES.map((t) => ({ value: t, label: SES_EVENT_TYPE_LABELS[t] })),
    },
    // The whole address, any case: an index finds it among millions of events (decision 060).
    recipient: { kind: 'text', label: 'Recipient', placeholder: 'The whole address: jane@example.com', max: 320 },
    // Every client by name, as Tracking Logs' Clients filter offers them.
    client: { kind: 'multi', label: 'Clients', item: idFilterItem, optionsPath: '/api/notifications-logs/options/client' },
    bounce_type: {
      kind: 'multi',
      label: 'Bounce type',
      options: SES_BOUNCE_TYPES.map((t) => ({ value: t, label: SES_BOUNCE_TYPE_LABELS[t] })),
    },
    date: { kind: 'dateRange', label: 'Date range' },
    message_id: { kind: 'text', label: 'Message id', placeholder: 'SES message id', max: 200 },
  },
  defaultSort: { sort: 'event_at', order: 'desc' },
  search: 'Message id or whole address',
  card: { title: 'recipient', facts: ['event_at', 'event_type', 'bounce'] },
});

export type SesEventListQuery = z.infer<typeof sesEventResource.listQuerySchema>;

/**
 * The Tracking Logs status each SES event type stands for: read by the ingest (forward-only moves,
 * apps/server/src/deliverability/ses/rank.ts) and by the Tracking Logs timeline.
 */
export const STATUS_OF_SES_EVENT: Readonly<Record<string, NotificationStatus>> = {
  Send: 'sent',
  Delivery: 'delivered',
  DeliveryDelay: 'sent',
  Open: 'opened',
  Click: 'clicked',
  Bounce: 'bounced',
  Complaint: 'complained',
  Reject: 'failed',
  RenderingFailure: 'failed',
};
