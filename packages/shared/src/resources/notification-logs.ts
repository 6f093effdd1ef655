import { z } from 'zod';
import { idFilterItem } from '../api/ids.ts';
import { defineResource } from '../api/resource.ts';
import { exportMoment } from '../api/zoned-time.ts';

/**
 * Tracking Logs (docs/screens.md, Tracking Logs): every outbound message, whatever the channel, one
 * NotificationLog row each (apps/server/src/messaging writes them). Read-only: no fields. The
 * definition drives the API's query validation, the table's columns, the filters and the CSV headers.
 * Recipients leave the server masked (`maskRecipient`), in the list, the detail and the CSV alike.
 */
export const NOTIFICATION_CHANNELS = ['email', 'sms'] as const;
export const NOTIFICATION_TYPES = [
  'survey_invite',
  'survey_reminder',
  'review_invite',
  'survey_alert',
  'review_alert',
  'report',
  'system',
] as const;
export const NOTIFICATION_STATUSES = [
  'queued',
  'sent',
  'delivered',
  'opened',
  'clicked',
  'bounced',
  'complained',
  'failed',
  'undelivered',
  'suppressed',
] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export const NOTIFICATION_TYPE_LABELS: Record<NotificationType, string> = {
  survey_invite: 'Survey invite',
  survey_reminder: 'Survey reminder',
  review_invite: 'Review invite',
  survey_alert: 'Survey alert',
  review_alert: 'Review alert',
  report: 'Report',
  system: 'System',
};
export const NOTIFICATION_STATUS_LABELS: Record<NotificationStatus, string> = {
  queued: 'Queued',
  sent: 'Sent',
  delivered: 'Delivered',
  opened: 'Opened',
  clicked: 'Clicked',
  bounced: 'Bounced',
  complained: 'Complained',
  failed: 'Failed',
  undelivered: 'Undelivered',
  suppressed: 'Suppressed',
};
/** What a message can be about (`related_type`), as people read it; the writers are the sender's callers. */
export const RELATED_LABELS: Record<string, string> = {
  survey_processing_item: 'Invitation',
  survey_response: 'Survey response',
  sms_template: 'SMS template',
  survey_settings: 'Survey Admin settings of client',
  survey_alert_event: 'Survey alert',
  survey_alert_digest: 'Survey alert digest',
  survey_alert_rule: 'Survey alert rule',
};
export const NOTIFICATION_CHANNEL_LABELS: Record<NotificationChannel, string> = { email: 'E-mail', sms: 'SMS' };

/**
 * How a recipient is shown: `j***@example.com`, `+1 ***-***-0142` (a North American number), or
 * `+*** ***-0142` for other numbers (the country code's length is not known without a phone
 * library). The address itself never leaves the server; the recipient search matches it there.
 */
export function maskRecipient(recipient: string): string {
  const at = recipient.lastIndexOf('@');
  if (at >= 0) return `${recipient.slice(0, Math.min(1, at))}***${recipient.slice(at)}`;
  const digits = recipient.replace(/\D/g, '');
  const last4 = digits.slice(-4);
  if (digits.length < 7) return '***';
  if (recipient.startsWith('+1') && digits.length === 11) return `+1 ***-***-${last4}`;
  return `+*** ***-${last4}`;
}

export const notificationLogSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  client_id: z.number().int().nullable(),
  client_name: z.string().nullable(),
  /** The client's time zone (IANA): its times are shown in it (formatMoment). */
  client_timezone: z.string().nullable(),
  location_id: z.string().nullable(),
  location_name: z.string().nullable(),
  channel: z.enum(NOTIFICATION_CHANNELS),
  type: z.enum(NOTIFICATION_TYPES),
  /** Masked (`maskRecipient`). */
  recipient: z.string(),
  subject_or_template: z.string(),
  provider_message_id: z.string().nullable(),
  /**
   * The message's status. Not named `status`: in the console's kit a record's `status` is the
   * active/paused/archived lifecycle (packages/shared constants.ts), which a message does not have.
   */
  delivery_status: z.enum(NOTIFICATION_STATUSES),
  related_type: z.string().nullable(),
  related_id: z.string().nullable(),
  error: z.string().nullable(),
  /** Sent by a staff member's Send test (its invitation's source is `manual_test`), not to a customer. */
  test: z.boolean(),
});
export type NotificationLog = z.infer<typeof notificationLogSchema>;

/** One step of a message's status history. */
export const notificationEventSchema = z.object({
  status: z.enum(NOTIFICATION_STATUSES),
  at: z.string(),
  detail: z.string().nullable(),
});
export type NotificationEvent = z.infer<typeof notificationEventSchema>;

/**
 * One entry of a message's timeline, in words: a status change the platform wrote, an SES event
 * (SES Logs) or an SMS provider's status callback, with what the provider said (bounce type and
 * diagnostic, SMTP response, the opening client, the link clicked) as lines.
 */
export const TIMELINE_SOURCES = ['status', 'ses', 'sms'] as const;
export const timelineEntrySchema = z.object({
  at: z.string(),
  source: z.enum(TIMELINE_SOURCES),
  /** The status the entry stands for, when it stands for one. */
  status: z.enum(NOTIFICATION_STATUSES).nullable(),
  title: z.string(),
  lines: z.array(z.string()),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

/**
 * The detail panel adds the rendered body (text and/or HTML), the status history and the merged
 * timeline, oldest first, and the whole address SES reported events for (null when none), which
 * SES Logs and SES Bounce already show the same staff whole: the detail's link to SES Bounce needs it.
 */
export const notificationLogDetailSchema = notificationLogSchema.extend({
  body_text: z.string().nullable(),
  body_html: z.string().nullable(),
  events: z.array(notificationEventSchema),
  timeline: z.array(timelineEntrySchema),
  ses_address: z.string().nullable(),
  /** Files sent with an e-mail (a scheduled report's CSV), by name, type and size in bytes. */
  attachments: z.array(z.object({ filename: z.string(), content_type: z.string(), size_bytes: z.number().int() })).optional(),
});
export type NotificationLogDetail = z.infer<typeof notificationLogDetailSchema>;

const labelIn = (labels: Record<string, string>, key: string) => (Object.hasOwn(labels, key) ? labels[key] : undefined) ?? key;
/** `Survey invite · Sent`: a message's type and status in words, from their stored keys. */
export const messageKindText = (type: string, status: string): string =>
  `${labelIn(NOTIFICATION_TYPE_LABELS, type)} · ${labelIn(NOTIFICATION_STATUS_LABELS, status)}`;

/** `Survey invite`, or `Survey invite · Test send` for a staff member's Send test. */
export const messageTypeText = (r: Pick<NotificationLog, 'type' | 'test'>): string =>
  `${NOTIFICATION_TYPE_LABELS[r.type]}${r.test ? ' · Test send' : ''}`;

/** `Invitation 571`: what the message is about, as the table, the detail and the CSV show it. */
export const relatedOf = (r: Pick<NotificationLog, 'related_type' | 'related_id'>): string | null =>
  r.related_type ? `${RELATED_LABELS[r.related_type] ?? r.related_type.replace(/_/g, ' ')}${r.related_id ? ` ${r.related_id}` : ''}` : null;

export const notificationLogResource = defineResource({
  name: 'notification_log',
  noun: 'message',
  plural: 'messages',
  // The original's call (`GET notifications-logs`), kept as its path.
  path: '/api/notifications-logs',
  screen: 'tracking-logs',
  // Every client's messages; the Clients filter narrows them.
  scope: 'filterable-clients',
  record: notificationLogSchema,
  fields: {},
  columns: {
    created_at: { label: 'Time', sortable: true, format: (r) => exportMoment(r.created_at, r.client_timezone) },
    client_name: { label: 'Client' },
    location_name: { label: 'Location', defaultVisible: false },
    channel: { label: 'Channel', format: (r) => NOTIFICATION_CHANNEL_LABELS[r.channel] },
    type: { label: 'Type', format: messageTypeText },
    recipient: { label: 'Recipient' },
    subject_or_template: { label: 'Subject/template' },
    provider_message_id: { label: 'Provider message id', defaultVisible: false },
    status: { label: 'Status', sortable: true, format: (r) => NOTIFICATION_STATUS_LABELS[r.delivery_status] },
    related: { label: 'Related', format: relatedOf, defaultVisible: false },
    error: { label: 'Error' },
  },
  filters: {
    client: { kind: 'multi', label: 'Clients', item: idFilterItem },
    channel: {
      kind: 'multi',
      label: 'Channel',
      options: NOTIFICATION_CHANNELS.map((c) => ({ value: c, label: NOTIFICATION_CHANNEL_LABELS[c] })),
    },
    type: { kind: 'multi', label: 'Type', options: NOTIFICATION_TYPES.map((t) => ({ value: t, label: NOTIFICATION_TYPE_LABELS[t] })) },
    status: {
      kind: 'multi',
      label: 'Status',
      options: NOTIFICATION_STATUSES.map((s) => ({ value: s, label: NOTIFICATION_STATUS_LABELS[s] })),
    },
    recipient: { kind: 'text', label: 'Recipient', placeholder: 'e.g. jane@example.com', max: 200 },
    date: { kind: 'dateRange', label: 'Date range' },
  },
  defaultSort: { sort: 'created_at', order: 'desc' },
  search: 'Subject, template or provider message id',
  card: { title: 'recipient', facts: ['created_at', 'type', 'subject_or_template'] },
});

export type NotificationLogListQuery = z.infer<typeof notificationLogResource.listQuerySchema>;
