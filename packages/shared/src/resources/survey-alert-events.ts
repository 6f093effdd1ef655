import { z } from 'zod';
import { idFilterItem } from '../api/ids.ts';
import { defineResource } from '../api/resource.ts';
import { exportMoment } from '../api/zoned-time.ts';
import { LOCATION_ID } from './locations.ts';
import { ALERT_CHANNELS, type AlertChannel } from './survey-alert-rules.ts';

/**
 * Survey Alerts Unsent events (domain.md §6): every survey alert that did not reach its recipient,
 * with its reason, attempts and next retry. Read-only list; Resend, Resend to…, Dismiss and the
 * bulk Resend are the module's own actions (apps/server/src/modules/survey-alert-events/).
 */
export const ALERT_EVENT_REASONS = [
  'no_recipients',
  'recipient_unsubscribed',
  'ses_suppressed',
  'ses_rejected',
  'ses_config_error',
  'sms_opted_out',
  'sms_invalid_number',
  'provider_error',
  'rule_paused_at_send',
] as const;
export type AlertEventReason = (typeof ALERT_EVENT_REASONS)[number];
export const ALERT_EVENT_REASON_LABELS: Record<AlertEventReason, string> = {
  no_recipients: 'No recipients',
  recipient_unsubscribed: 'Recipient unsubscribed',
  ses_suppressed: 'On the suppression list',
  ses_rejected: 'Rejected by the provider',
  ses_config_error: 'Sending configuration error',
  sms_opted_out: 'Phone opted out (STOP)',
  sms_invalid_number: 'Invalid phone number',
  provider_error: 'Provider error or timeout',
  rule_paused_at_send: 'Rule paused at send',
};
/** The states this screen lists: those of an alert that has not (yet) reached its recipient, or was handled here. */
export const UNSENT_EVENT_STATES = ['unsent', 'retrying', 'resent', 'dismissed'] as const;
export type UnsentEventState = (typeof UNSENT_EVENT_STATES)[number];
export const UNSENT_EVENT_STATE_LABELS: Record<UnsentEventState, string> = {
  unsent: 'Unsent',
  retrying: 'Retrying',
  resent: 'Resent',
  dismissed: 'Dismissed',
};
/** An event's channel as people read it. */
const CHANNEL_LABELS: Record<AlertChannel, string> = { email: 'E-mail', sms: 'SMS' };

const labelOf = <K extends string>(labels: Record<K, string>, key: string | null): string | null =>
  key === null ? null : Object.hasOwn(labels, key) ? labels[key as K] : key;

export const surveyAlertEventSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  client_id: z.number().int(),
  client_name: z.string(),
  /** The client's time zone (IANA): its times are shown in it (formatMoment). */
  client_timezone: z.string(),
  location_id: z.string().nullable(),
  location_name: z.string().nullable(),
  survey_id: z.number().int().nullable(),
  survey_name: z.string().nullable(),
  response_id: z.number().int().nullable(),
  score: z.number().int().nullable(),
  /** The comment's first 120 characters. */
  comment: z.string().nullable(),
  rule_id: z.number().int(),
  rule_name: z.string(),
  channel: z.enum(ALERT_CHANNELS),
  /** Who it was for ('' when the rule reached nobody). */
  recipient: z.string(),
  reason: z.string().nullable(),
  attempts: z.number().int(),
  last_attempt_at: z.string().nullable(),
  next_retry_at: z.string().nullable(),
  state: z.string(),
  resent_to: z.string().nullable(),
  note: z.string().nullable(),
});
export type SurveyAlertEvent = z.infer<typeof surveyAlertEventSchema>;

export const surveyAlertEventResource = defineResource({
  name: 'survey_alert_event',
  noun: 'unsent alert',
  plural: 'unsent alerts',
  path: '/api/survey-alerts-unsent-events',
  screen: 'survey-alerts-unsent-events',
  scope: 'filterable-clients',
  record: surveyAlertEventSchema,
  fields: {},
  columns: {
    created_at: { label: 'Event created', sortable: true, format: (r) => exportMoment(r.created_at, r.client_timezone) },
    client_name: { label: 'Client' },
    location_name: { label: 'Location' },
    survey_name: { label: 'Survey', defaultVisible: false },
    score: { label: 'Score' },
    comment: { label: 'Comment excerpt', defaultVisible: false },
    rule_name: { label: 'Rule' },
    channel: { label: 'Channel', format: (r) => CHANNEL_LABELS[r.channel] },
    recipient: { label: 'Intended recipient', format: (r) => (r.recipient === '' ? '—' : r.recipient) },
    reason: { label: 'Reason', format: (r) => labelOf(ALERT_EVENT_REASON_LABELS, r.reason) },
    attempts: { label: 'Attempts', defaultVisible: false },
    last_attempt_at: {
      label: 'Last attempt',
      defaultVisible: false,
      format: (r) => (r.last_attempt_at ? exportMoment(r.last_attempt_at, r.client_timezone) : null),
    },
    next_retry_at: {
      label: 'Next retry',
      defaultVisible: false,
      format: (r) => (r.next_retry_at ? exportMoment(r.next_retry_at, r.client_timezone) : null),
    },
    state: {
      label: 'State',
      sortable: true,
      format: (r) => `${labelOf(UNSENT_EVENT_STATE_LABELS, r.state)}${r.resent_to ? ` to ${r.resent_to}` : ''}`,
    },
  },
  filters: {
    client: { kind: 'multi', label: 'Clients', item: idFilterItem },
    location: { kind: 'multi', label: 'Locations', item: z.string().regex(LOCATION_ID) },
    survey: { kind: 'multi', label: 'Surveys', item: idFilterItem },
    reason: {
      kind: 'multi',
      label: 'Reason',
      options: ALERT_EVENT_REASONS.map((r) => ({ value: r, label: ALERT_EVENT_REASON_LABELS[r] })),
    },
    state: { kind: 'multi', label: 'State', options: UNSENT_EVENT_STATES.map((s) => ({ value: s, label: UNSENT_EVENT_STATE_LABELS[s] })) },
    channel: { kind: 'multi', label: 'Channel', options: ALERT_CHANNELS.map((c) => ({ value: c, label: CHANNEL_LABELS[c] })) },
    date: { kind: 'dateRange', label: 'Date range' },
  },
  defaultSort: { sort: 'created_at', order: 'desc' },
  search: 'Recipient, rule or comment',
  card: { title: 'rule_name', facts: ['created_at', 'recipient', 'reason', 'state'] },
});

export type SurveyAlertEventListQuery = z.infer<typeof surveyAlertEventResource.listQuerySchema>;

/** Resend to…: another address (e-mail events) or number (SMS events), validated beside the field. */
export const resendToSchema = z.strictObject({ to: z.string().trim().min(1, 'The Send to field is required').max(320) });
/** Dismiss: why nobody needs to hear of this alert. */
export const dismissSchema = z.strictObject({
  note: z.string().trim().min(1, 'The Note field is required').max(500, 'The Note field may not be greater than 500 characters'),
});
export const E164_PHONE = /^\+[1-9]\d{6,14}$/;
