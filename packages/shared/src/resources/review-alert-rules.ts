import { z } from 'zod';
import { bodyId, idFilterItem } from '../api/ids.ts';
import { defineResource, optionLabel, statusFilter, statusLabel } from '../api/resource.ts';
import { REVIEW_SITE_CODES, REVIEW_SITES, reviewSiteLabel, STATUSES } from '../constants.ts';
import { LOCATION_ID, locationResource } from './locations.ts';
import { ALERT_CHANNEL_OPTIONS, ALERT_CHANNELS, alertRecipientSchema, E164, recipientsText } from './survey-alert-rules.ts';

/** How often a review rule sends (domain.md §11): each review at once, or a digest at the rule's time. */
export const REVIEW_ALERT_FREQUENCIES = ['instant', 'daily', 'weekly'] as const;
export type ReviewAlertFrequency = (typeof REVIEW_ALERT_FREQUENCIES)[number];
export const REVIEW_ALERT_FREQUENCY_OPTIONS = [
  { value: 'instant', label: 'Instant' },
  { value: 'daily', label: 'Daily digest' },
  { value: 'weekly', label: 'Weekly digest' },
] as const;

export const TEXT_FILTERS = ['any', 'with_text', 'without_text'] as const;
export type TextFilter = (typeof TEXT_FILTERS)[number];
export const TEXT_FILTER_OPTIONS = [
  { value: 'any', label: 'Any review' },
  { value: 'with_text', label: 'With text only' },
  { value: 'without_text', label: 'Without text only' },
] as const;

/** Facebook's two answers (a recommend site has no stars). */
export const RECOMMEND_FILTERS = ['recommended', 'not_recommended'] as const;
export const RECOMMEND_FILTER_OPTIONS = [
  { value: 'recommended', label: 'Recommended' },
  { value: 'not_recommended', label: 'Not recommended' },
] as const;

export const WEEKDAY_OPTIONS = [
  { value: 'mon', label: 'Monday' },
  { value: 'tue', label: 'Tuesday' },
  { value: 'wed', label: 'Wednesday' },
  { value: 'thu', label: 'Thursday' },
  { value: 'fri', label: 'Friday' },
  { value: 'sat', label: 'Saturday' },
  { value: 'sun', label: 'Sunday' },
] as const;
export const WEEKDAYS = WEEKDAY_OPTIONS.map((d) => d.value);

export const REVIEW_SITE_OPTIONS = REVIEW_SITES.map((s) => ({ value: s.value, label: s.label }));

export const reviewAlertRuleSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  client_name: z.string().nullable(),
  name: z.string(),
  location_ids: z.array(z.string()),
  location_names: z.array(z.string()),
  sites: z.array(z.string()),
  rating_min: z.number().int().nullable(),
  rating_max: z.number().int().nullable(),
  recommend_filter: z.array(z.string()),
  text_filter: z.enum(TEXT_FILTERS),
  keywords: z.array(z.string()),
  channels: z.array(z.enum(ALERT_CHANNELS)),
  recipient_user_ids: z.array(z.number().int()),
  recipients: z.array(alertRecipientSchema),
  extra_emails: z.array(z.string()),
  extra_phones: z.array(z.string()),
  frequency: z.enum(REVIEW_ALERT_FREQUENCIES),
  send_time: z.string().nullable(),
  weekly_day: z.string().nullable(),
  include_reply_link: z.boolean(),
  last_sent_at: z.string().nullable(),
  status: z.enum(STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ReviewAlertRule = z.infer<typeof reviewAlertRuleSchema>;

const whole = z.number().int().nullable().optional();
const texts = (items: number, each = 500) => z.array(z.string().max(each)).max(items).optional();
const listOrAll = (names: string[]) => (names.length === 0 ? 'Selected All' : names.join(', '));

/** "1–2★", "5★", "Any rating", with Facebook's choice after it: what the Ratings column says. */
export function ratingsText(rule: Pick<ReviewAlertRule, 'rating_min' | 'rating_max' | 'recommend_filter'>): string {
  const min = rule.rating_min ?? 1;
  const max = rule.rating_max ?? 5;
  const stars = rule.rating_min === null && rule.rating_max === null ? 'Any rating' : min === max ? `${min}★` : `${min}–${max}★`;
  const recommend = rule.recommend_filter.map((r) => optionLabel(RECOMMEND_FILTER_OPTIONS, r));
  return recommend.length > 0 ? `${stars}; Facebook: ${recommend.join(', ')}` : stars;
}

/** "Instant", "Daily at 08:00", "Weekly on Monday at 08:00" (the client's zone). */
export function frequencyText(rule: Pick<ReviewAlertRule, 'frequency' | 'send_time' | 'weekly_day'>): string {
  if (rule.frequency === 'instant') return 'Instant';
  const time = rule.send_time ?? '—';
  if (rule.frequency === 'daily') return `Daily at ${time}`;
  return `Weekly on ${rule.weekly_day ? optionLabel(WEEKDAY_OPTIONS, rule.weekly_day) : '—'} at ${time}`;
}

export const reviewAlertRuleResource = defineResource({
  name: 'review_alert_rule',
  noun: 'review alert rule',
  path: '/api/review-alert-settings',
  screen: 'review-alert-settings',
  // As Survey Alert Settings: the current client's, or the clients chosen in the filter.
  scope: 'filterable-clients',
  record: reviewAlertRuleSchema,
  fields: {
    name: { label: 'Rule', rules: 'required|max:120', placeholder: 'e.g. 1–2 star reviews to the owner' },
    // Empty = every location of the client ("Selected All").
    location_ids: {
      label: 'Locations',
      rules: { regex: LOCATION_ID },
      schema: z.array(z.string().max(40)).max(1000).optional(),
      default: [],
    },
    sites: {
      label: 'Sites',
      options: REVIEW_SITE_OPTIONS,
      rules: { required: true, included: [...REVIEW_SITE_CODES] },
      schema: texts(20, 40),
      default: ['google'],
    },
    rating_min: { label: 'Lowest rating', rules: 'integer|between:1,5', schema: whole },
    rating_max: { label: 'Highest rating', rules: 'integer|between:1,5', schema: whole },
    recommend_filter: {
      label: 'Facebook recommendation',
      options: RECOMMEND_FILTER_OPTIONS,
      rules: { included: [...RECOMMEND_FILTERS] },
      schema: texts(5, 40),
      default: [],
    },
    text_filter: {
      label: 'Text filter',
      input: 'select',
      options: TEXT_FILTER_OPTIONS,
      rules: { included: [...TEXT_FILTERS] },
      default: 'any',
    },
    keywords: { label: 'Keywords', rules: 'max:50', schema: texts(200), default: [] },
    channels: {
      label: 'Channels',
      options: ALERT_CHANNEL_OPTIONS,
      rules: { required: true, included: [...ALERT_CHANNELS] },
      schema: texts(10, 20),
      default: ['email'],
    },
    recipient_user_ids: { label: 'Recipient users', schema: z.array(bodyId).max(500).optional(), default: [] },
    extra_emails: { label: 'Extra emails', rules: 'email|max:254', schema: texts(100), default: [] },
    extra_phones: { label: 'Extra phones', rules: { regex: E164 }, schema: texts(100, 40), placeholder: 'e.g. +13035550142', default: [] },
    frequency: {
      label: 'Frequency',
      input: 'select',
      options: REVIEW_ALERT_FREQUENCY_OPTIONS,
      rules: { required: true, included: [...REVIEW_ALERT_FREQUENCIES] },
      default: 'instant',
    },
    send_time: { label: 'Send time', rules: 'date_format:HH:mm', placeholder: 'e.g. 08:00' },
    weekly_day: { label: 'Weekly day', input: 'select', options: WEEKDAY_OPTIONS, rules: { included: WEEKDAYS } },
    include_reply_link: { label: 'Include a reply link', input: 'checkbox', schema: z.boolean().optional(), default: false },
  },
  columns: {
    name: { label: 'Rule', sortable: true },
    client_name: { label: 'Client' },
    location_names: { label: 'Locations', format: (r) => listOrAll(r.location_names) },
    sites: { label: 'Sites', format: (r) => r.sites.map(reviewSiteLabel).join(', ') },
    rating_min: { label: 'Ratings', format: ratingsText },
    text_filter: {
      label: 'Text filter',
      format: (r) => {
        const kind = optionLabel(TEXT_FILTER_OPTIONS, r.text_filter);
        return r.keywords.length > 0 ? `${kind}; keywords: ${r.keywords.join(', ')}` : kind;
      },
    },
    recipients: { label: 'Recipients', format: recipientsText },
    channels: { label: 'Channel', format: (r) => r.channels.map((c) => optionLabel(ALERT_CHANNEL_OPTIONS, c)).join(', ') },
    frequency: { label: 'Frequency', sortable: true, format: frequencyText },
    last_sent_at: { label: 'Last sent' },
    status: { label: 'Status', sortable: true, format: (r) => statusLabel(r.status) },
    updated_at: { label: 'Updated', sortable: true, defaultVisible: false },
  },
  filters: {
    client: locationResource.filters.client,
    site: { kind: 'multi', label: 'Site', options: REVIEW_SITE_OPTIONS },
    location: { kind: 'multi', label: 'Location', item: z.string().regex(LOCATION_ID), optionsPath: '/api/endpoints/options' },
    recipient: { kind: 'multi', label: 'Recipient user', item: idFilterItem, optionsPath: '/api/review-alert-settings/user-options' },
    status: statusFilter,
  },
  defaultSort: { sort: 'name', order: 'asc' },
  search: 'Rule',
  card: { facts: ['rating_min', 'recipients', 'last_sent_at'] },
  statusEffects: {
    paused: 'The rule sends no review alerts until it is resumed.',
    inactive: 'The rule is archived: it sends nothing and is hidden by default. You can restore it later.',
  },
});

export type ReviewAlertRuleBody = z.infer<typeof reviewAlertRuleResource.createSchema>;
export type ReviewAlertRuleListQuery = z.infer<typeof reviewAlertRuleResource.listQuerySchema>;

export * from './review-alert-rule-checks.ts';
