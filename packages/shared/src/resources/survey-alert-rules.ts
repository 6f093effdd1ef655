import { z } from 'zod';
import { bodyId, idFilterItem } from '../api/ids.ts';
import { defineResource, optionLabel, statusFilter, statusLabel } from '../api/resource.ts';
import { DEFAULT_USER_ENTRY, STATUSES } from '../constants.ts';
import { LOCATION_ID, locationResource } from './locations.ts';

/** What makes a rule fire (domain.md §7, pipeline.md "Alerts"). */
export const ALERT_TRIGGERS = ['score_at_or_below', 'score_between', 'detractor', 'keyword', 'any_comment', 'no_response_days'] as const;
export type AlertTrigger = (typeof ALERT_TRIGGERS)[number];
export const ALERT_TRIGGER_LABELS: Record<AlertTrigger, string> = {
  score_at_or_below: 'Score at or below',
  score_between: 'Score between',
  detractor: 'Detractor (NPS 0–6)',
  keyword: 'Keyword in a comment',
  any_comment: 'Any comment',
  no_response_days: 'No response after N days',
};
export const ALERT_TRIGGER_OPTIONS = ALERT_TRIGGERS.map((t) => ({ value: t, label: ALERT_TRIGGER_LABELS[t] }));

export const ALERT_CHANNELS = ['email', 'sms'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];
export const ALERT_CHANNEL_OPTIONS = [
  { value: 'email', label: 'Email' },
  { value: 'sms', label: 'SMS' },
] as const;

export const ALERT_FREQUENCIES = ['instant', 'daily_digest'] as const;
export const ALERT_FREQUENCY_OPTIONS = [
  { value: 'instant', label: 'Instant' },
  { value: 'daily_digest', label: 'Daily digest' },
] as const;

/** Limits of the form's lists (issue 20, "Bad input and limits"). */
export const MAX_KEYWORDS = 50;
export const MAX_EXTRA_EMAILS = 10;
export const MAX_EXTRA_PHONES = 5;
/** A mobile number in international format, as SMS is sent (E.164). */
export const E164 = /^\+[1-9]\d{6,14}$/;
/** The recipient id that is no person: users added to the client later join the rule (constants.ts). */
export const DEFAULT_RECIPIENT_ID = DEFAULT_USER_ENTRY.id;

/** A recipient user as a rule lists them; `added_by` = `default` when they joined through Default for New User. */
export const alertRecipientSchema = z.object({ id: z.number().int(), name: z.string(), added_by: z.enum(['chosen', 'default']) });
export type AlertRecipient = z.infer<typeof alertRecipientSchema>;

export const surveyAlertRuleSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  client_name: z.string().nullable(),
  name: z.string(),
  survey_ids: z.array(z.number().int()),
  survey_names: z.array(z.string()),
  location_ids: z.array(z.string()),
  location_names: z.array(z.string()),
  trigger: z.enum(ALERT_TRIGGERS),
  score_min: z.number().int().nullable(),
  score_max: z.number().int().nullable(),
  keywords: z.array(z.string()),
  no_response_days: z.number().int().nullable(),
  channels: z.array(z.enum(ALERT_CHANNELS)),
  recipient_user_ids: z.array(z.number().int()),
  recipients: z.array(alertRecipientSchema),
  extra_emails: z.array(z.string()),
  extra_phones: z.array(z.string()),
  notify_assigned_personnel: z.boolean(),
  notify_location_manager: z.boolean(),
  frequency: z.enum(ALERT_FREQUENCIES),
  digest_hour: z.number().int().nullable(),
  escalate_after_hours: z.number().int().nullable(),
  escalation_emails: z.array(z.string()),
  /** From survey_alert_events, test events left out: the last alert, and alerts (all, unsent) of the last 30 days. */
  last_fired_at: z.string().nullable(),
  fired_30d: z.number().int(),
  unsent_30d: z.number().int(),
  status: z.enum(STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SurveyAlertRule = z.infer<typeof surveyAlertRuleSchema>;

const whole = z.number().int().nullable().optional();
const flag = z.boolean().optional();

/** "8:00 AM": a digest hour as the form and the table show it (the client's zone). */
export function hourLabel(hour: number | null): string {
  if (hour === null) return '';
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h}:00 ${hour < 12 ? 'AM' : 'PM'}`;
}
export const DIGEST_HOUR_OPTIONS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: hourLabel(h) }));

/** How a rule's recipients read in the table: "3: Pat Lee, Sam Roe (joined by default), Default for New User". */
export function recipientsText(rule: Pick<SurveyAlertRule, 'recipients' | 'extra_emails' | 'extra_phones'>): string {
  const names = rule.recipients.map((r) => (r.added_by === 'default' ? `${r.name} (joined by default)` : r.name));
  const all = [...names, ...rule.extra_emails, ...rule.extra_phones];
  return all.length === 0 ? '0' : `${all.length}: ${all.join(', ')}`;
}

const listOrAll = (names: string[]) => (names.length === 0 ? 'Selected All' : names.join(', '));

export const surveyAlertRuleResource = defineResource({
  name: 'survey_alert_rule',
  noun: 'alert rule',
  path: '/api/survey-alert-settings',
  screen: 'survey-alert-settings',
  // The current client's by default, or the clients chosen in the filter (as Surveys); a write
  // acts on the rule's own client.
  scope: 'filterable-clients',
  record: surveyAlertRuleSchema,
  fields: {
    name: { label: 'Rule name', rules: 'required|max:120', placeholder: 'e.g. Detractors to the owner' },
    // Empty = every survey / location of the client ("Selected All").
    survey_ids: { label: 'Surveys', schema: z.array(bodyId).max(500).optional(), default: [] },
    location_ids: {
      label: 'Locations',
      rules: { regex: LOCATION_ID },
      schema: z.array(z.string().max(40)).max(1000).optional(),
      default: [],
    },
    trigger: {
      label: 'Trigger',
      input: 'select',
      options: ALERT_TRIGGER_OPTIONS,
      rules: { required: true, included: [...ALERT_TRIGGERS] },
      default: 'detractor',
    },
    score_min: { label: 'Lowest score', rules: 'integer|between:0,10', schema: whole },
    score_max: { label: 'Highest score', rules: 'integer|between:0,10', schema: whole },
    keywords: { label: 'Keywords', rules: 'max:50', schema: z.array(z.string().max(500)).max(200).optional(), default: [] },
    no_response_days: { label: 'Days without response', rules: 'integer|between:1,90', schema: whole },
    channels: {
      label: 'Channels',
      options: ALERT_CHANNEL_OPTIONS,
      rules: { required: true, included: [...ALERT_CHANNELS] },
      schema: z.array(z.string().max(20)).max(10).optional(),
      default: ['email'],
    },
    recipient_user_ids: { label: 'Recipient users', schema: z.array(bodyId).max(500).optional(), default: [] },
    extra_emails: { label: 'Extra emails', rules: 'email|max:254', schema: z.array(z.string().max(500)).max(100).optional(), default: [] },
    extra_phones: {
      label: 'Extra phones',
      rules: { regex: E164 },
      schema: z.array(z.string().max(40)).max(100).optional(),
      placeholder: 'e.g. +13035550142',
      default: [],
    },
    notify_assigned_personnel: { label: 'Notify assigned personnel', input: 'checkbox', schema: flag, default: false },
    notify_location_manager: { label: 'Notify location manager', input: 'checkbox', schema: flag, default: false },
    frequency: {
      label: 'Frequency',
      input: 'select',
      options: ALERT_FREQUENCY_OPTIONS,
      rules: { required: true, included: [...ALERT_FREQUENCIES] },
      default: 'instant',
    },
    digest_hour: { label: 'Digest hour', input: 'select', options: DIGEST_HOUR_OPTIONS, rules: 'integer|between:0,23', schema: whole },
    escalate_after_hours: { label: 'Escalate after (hours)', rules: 'integer|between:1,168', schema: whole },
    escalation_emails: {
      label: 'Escalation emails',
      rules: 'email|max:254',
      schema: z.array(z.string().max(500)).max(100).optional(),
      default: [],
    },
  },
  columns: {
    name: { label: 'Rule name', sortable: true },
    client_name: { label: 'Client' },
    survey_names: { label: 'Surveys', format: (r) => listOrAll(r.survey_names) },
    location_names: { label: 'Locations', format: (r) => listOrAll(r.location_names) },
    trigger: { label: 'Trigger', sortable: true, format: (r) => ALERT_TRIGGER_LABELS[r.trigger] },
    channels: { label: 'Channels', format: (r) => r.channels.map((c) => optionLabel(ALERT_CHANNEL_OPTIONS, c)).join(', ') },
    recipients: { label: 'Recipients', format: recipientsText },
    frequency: {
      label: 'Frequency',
      sortable: true,
      format: (r) => (r.frequency === 'daily_digest' ? `Daily digest at ${hourLabel(r.digest_hour)}` : 'Instant'),
    },
    last_fired_at: { label: 'Last fired' },
    fired_30d: { label: 'Fired 30d' },
    unsent_30d: { label: 'Unsent 30d' },
    status: { label: 'Status', sortable: true, format: (r) => statusLabel(r.status) },
    updated_at: { label: 'Updated', sortable: true, defaultVisible: false },
  },
  filters: {
    /** Client ids, or `all` for every client; absent = the current client (as Surveys). */
    client: locationResource.filters.client,
    survey: { kind: 'multi', label: 'Survey', item: idFilterItem, optionsPath: '/api/survey-alert-settings/survey-options' },
    location: { kind: 'multi', label: 'Location', item: z.string().regex(LOCATION_ID), optionsPath: '/api/endpoints/options' },
    trigger: { kind: 'multi', label: 'Trigger', options: ALERT_TRIGGER_OPTIONS },
    status: statusFilter,
    recipient: { kind: 'multi', label: 'Recipient user', item: idFilterItem, optionsPath: '/api/survey-alert-settings/user-options' },
  },
  defaultSort: { sort: 'name', order: 'asc' },
  search: 'Rule name',
  card: { facts: ['trigger', 'recipients', 'last_fired_at'] },
  statusEffects: {
    paused: 'The rule sends no alerts until it is resumed.',
    inactive: 'The rule is archived: it sends nothing and is hidden by default. You can restore it later.',
  },
});

export type SurveyAlertRuleBody = z.infer<typeof surveyAlertRuleResource.createSchema>;
export type SurveyAlertRuleListQuery = z.infer<typeof surveyAlertRuleResource.listQuerySchema>;

export * from './survey-alert-rule-checks.ts';
