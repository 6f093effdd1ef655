import { z } from 'zod';
import { bodyId, idFilterItem } from '../api/ids.ts';
import { defineResource, statusFilter, statusLabel } from '../api/resource.ts';
import { versionStamp } from '../api/status.ts';
import { STATUSES } from '../constants.ts';

export const SEND_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type SendDay = (typeof SEND_DAYS)[number];
export const SEND_DAY_OPTIONS = [
  { value: 'mon', label: 'Mon' },
  { value: 'tue', label: 'Tue' },
  { value: 'wed', label: 'Wed' },
  { value: 'thu', label: 'Thu' },
  { value: 'fri', label: 'Fri' },
  { value: 'sat', label: 'Sat' },
  { value: 'sun', label: 'Sun' },
] as const;

/**
 * The platform defaults a client's survey settings start from, and what Reset to platform
 * defaults brings back: the database's column defaults are these values
 * (apps/server/src/db/schema/survey-settings.ts). `from_name` null = the client's name;
 * `from_email` null = the platform's sender address (the server's EMAIL_FROM).
 */
export const SURVEY_SETTINGS_DEFAULTS = {
  from_name: null,
  from_email: null,
  reply_to: null,
  sending_domain: null,
  quiet_hours_start: '21:00',
  quiet_hours_end: '08:00',
  send_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as readonly SendDay[],
  daily_cap_per_location: 50,
  over_survey_days: 90,
  default_survey_id: null,
  logo_url: null,
  brand_color: null,
  sms_sender: null,
  sms_enabled: false,
  tcpa_consent_source: null,
  unsubscribe_footer: 'You received this because you visited {business_name}. Unsubscribe: {unsubscribe_link}',
} as const;

/**
 * One client's survey programme settings (1:1 with the client). Every client has a row in the
 * list: a client that never saved any shows the platform defaults, `customized` false and
 * `updated_at` '' (the version stamp of "not saved yet", so a first save that raced another one is refused).
 */
export const surveySettingsSchema = z.object({
  /** The client's id: a client's settings are addressed by it. */
  id: z.number().int(),
  client_name: z.string(),
  /** The client's own status (Client Manager); this screen does not change it. */
  status: z.enum(STATUSES),
  from_name: z.string(),
  from_email: z.string().nullable(),
  reply_to: z.string().nullable(),
  sending_domain: z.string().nullable(),
  domain_verified: z.boolean(),
  domain_checked_at: z.string().nullable(),
  quiet_hours_start: z.string(),
  quiet_hours_end: z.string(),
  send_days: z.array(z.enum(SEND_DAYS)),
  daily_cap_per_location: z.number().int(),
  over_survey_days: z.number().int(),
  /** One of the client's surveys that is not archived, or null. */
  default_survey_id: z.number().int().nullable(),
  default_survey_name: z.string().nullable(),
  logo_url: z.string().nullable(),
  brand_color: z.string().nullable(),
  sms_sender: z.string().nullable(),
  sms_enabled: z.boolean(),
  tcpa_consent_source: z.string().nullable(),
  unsubscribe_footer: z.string(),
  customized: z.boolean(),
  updated_at: z.string(),
});
export type SurveySettings = z.infer<typeof surveySettingsSchema>;

const whole = z.number().nullable().optional();
const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

export const surveySettingsResource = defineResource({
  name: 'survey_settings',
  noun: 'survey settings',
  plural: 'survey settings',
  path: '/api/surveys-admin',
  screen: 'surveys-admin',
  // One row per client, every client's: the list is of clients, not of one current client.
  scope: 'global',
  record: surveySettingsSchema,
  fields: {
    from_name: { label: 'From name', rules: 'required|max:60', placeholder: 'e.g. Acme Dental' },
    from_email: { label: 'From email', rules: 'required|email|max:254', placeholder: 'e.g. surveys@acme.com' },
    reply_to: { label: 'Reply-to', rules: 'email|max:254' },
    sending_domain: { label: 'Sending domain', rules: 'ip_or_fqdn|max:253', placeholder: 'e.g. mail.acme.com' },
    quiet_hours_start: {
      label: 'Quiet hours start',
      rules: 'required|date_format:HH:mm',
      default: SURVEY_SETTINGS_DEFAULTS.quiet_hours_start,
    },
    quiet_hours_end: { label: 'Quiet hours end', rules: 'required|date_format:HH:mm', default: SURVEY_SETTINGS_DEFAULTS.quiet_hours_end },
    send_days: {
      label: 'Send days',
      rules: { included: [...SEND_DAYS] },
      options: SEND_DAY_OPTIONS,
      default: SURVEY_SETTINGS_DEFAULTS.send_days,
      schema: z.array(z.string().max(10)).max(7).optional(),
    },
    daily_cap_per_location: { label: 'Daily cap per location', rules: 'required|integer|between:0,200', schema: whole },
    over_survey_days: { label: 'Over-survey days', rules: 'required|integer|between:0,365', schema: whole },
    default_survey_id: { label: 'Default survey', input: 'select', schema: bodyId.nullable().optional() },
    logo_url: { label: 'Logo URL', rules: 'url|max:2000', placeholder: 'https://…' },
    brand_color: { label: 'Brand color', rules: { regex: /^#[0-9A-Fa-f]{6}$/ }, placeholder: '#1A73E8' },
    sms_sender: { label: 'SMS sender', rules: { regex: /^(\+[1-9]\d{6,14}|\d{5}|\d{6})$/ }, placeholder: '+15555550142 or 12345' },
    sms_enabled: { label: 'SMS enabled', input: 'checkbox', schema: z.boolean().optional() },
    tcpa_consent_source: { label: 'TCPA consent source', input: 'textarea', rules: 'max:300' },
    unsubscribe_footer: { label: 'Unsubscribe footer', input: 'textarea', rules: 'required|max:500' },
  },
  columns: {
    client_name: { label: 'Client', sortable: true },
    from_name: { label: 'From name', sortable: true },
    from_email: {
      label: 'From email/domain',
      format: (r) => [r.from_email ?? 'Platform sender', r.sending_domain].filter((v) => v !== null).join(' · '),
    },
    domain_verified: { label: 'SES verified', sortable: true, format: (r) => yesNo(r.domain_verified) },
    quiet_hours: { label: 'Quiet hours', format: (r) => `${r.quiet_hours_start}–${r.quiet_hours_end}` },
    send_days: { label: 'Send days', defaultVisible: false, format: (r) => r.send_days.join(', ') },
    daily_cap_per_location: { label: 'Daily cap per location', sortable: true, defaultVisible: false },
    over_survey_days: { label: 'Over-survey days', sortable: true },
    default_survey_id: { label: 'Default survey', format: (r) => r.default_survey_name ?? '' },
    branding: { label: 'Branding set', format: (r) => yesNo(r.logo_url !== null || r.brand_color !== null), defaultVisible: false },
    sms_sender: { label: 'SMS number', format: (r) => (r.sms_sender === null ? '' : `${r.sms_sender}${r.sms_enabled ? '' : ' (off)'}`) },
    status: { label: 'Status', sortable: true, format: (r) => statusLabel(r.status) },
    customized: { label: 'Own settings', defaultVisible: false, format: (r) => yesNo(r.customized) },
  },
  filters: {
    client: {
      kind: 'multi',
      label: 'Clients',
      item: idFilterItem,
      optionsPath: '/api/endpoints/client-options',
    },
    verified: {
      kind: 'choice',
      label: 'SES verified',
      options: [
        { value: 'yes', label: 'Verified' },
        { value: 'no', label: 'Not verified' },
      ],
    },
    status: statusFilter,
  },
  defaultSort: { sort: 'client_name', order: 'asc' },
  search: 'Client, from name or email',
  card: { facts: ['from_email', 'domain_verified', 'default_survey_id'] },
});

export type SurveySettingsBody = z.infer<typeof surveySettingsResource.createSchema>;
export type SurveySettingsListQuery = z.infer<typeof surveySettingsResource.listQuerySchema>;

const { labels } = surveySettingsResource;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The rules that look at more than one field or that the rule library cannot say (both the form
 * and the server run them, on the whole record as it will be saved): SMS sending needs the TCPA
 * consent source, and the sending domain is a domain name, never an IP address. Field → messages.
 */
export function checkSurveySettings(values: {
  sms_enabled?: boolean | null | undefined;
  tcpa_consent_source?: string | null | undefined;
  sending_domain?: string | null | undefined;
}): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (values.sms_enabled === true && (values.tcpa_consent_source ?? '').trim() === '') {
    errors.tcpa_consent_source = [`The ${labels.tcpa_consent_source} field is required when ${labels.sms_enabled} is ticked`];
  }
  const domain = (values.sending_domain ?? '').trim();
  if (domain !== '' && (IPV4.test(domain) || domain.includes(':'))) {
    errors.sending_domain = [`The ${labels.sending_domain} field must be a domain name, not an IP address`];
  }
  return errors;
}

/** One DNS record to add for a sending domain, and whether the last lookup found it. */
export const dnsRecordSchema = z.object({
  purpose: z.enum(['SPF', 'DKIM', 'DMARC']),
  type: z.enum(['TXT', 'CNAME']),
  name: z.string(),
  value: z.string(),
  found: z.boolean(),
});
export type DnsRecord = z.infer<typeof dnsRecordSchema>;
export const domainCheckSchema = z.object({
  domain: z.string(),
  verified: z.boolean(),
  checked_at: z.string(),
  records: z.array(dnsRecordSchema),
  settings: surveySettingsSchema,
});
export type DomainCheck = z.infer<typeof domainCheckSchema>;

/** `GET /api/surveys-admin/:id/survey-options`: the client's surveys that are not archived, for the Default survey select. */
export const SURVEY_SETTINGS_SURVEY_OPTIONS_PATH = (clientId: number) => `/api/surveys-admin/${clientId}/survey-options`;

/** Send test email's one field as its dialog labels it; its messages name it so. */
export const SURVEY_TEST_EMAIL_LABELS = { to: 'To' } as const satisfies Record<string, string>;
/** `POST /api/surveys-admin/:id/test-email`. */
export const surveyTestEmailSchema = z.strictObject({
  to: z.email(`The ${SURVEY_TEST_EMAIL_LABELS.to} field must be a valid email`).max(254),
});
/** `POST /api/surveys-admin/:id/reset`: the version stamp as loaded ('' = never saved). */
export const surveySettingsResetSchema = z.strictObject({ updated_at: versionStamp });

/**
 * `GET /api/surveys-admin/:id/test-email`: the test e-mail as it will go out — the From its
 * transport is given (`Name <address>`: the platform's address unless the client's own domain is
 * verified), reply-to, subject and HTML — so Send test email shows what it sends.
 */
export const surveyTestEmailPreviewSchema = z.object({
  from: z.string(),
  reply_to: z.string().nullable(),
  subject: z.string(),
  html: z.string(),
});
export type SurveyTestEmailPreview = z.infer<typeof surveyTestEmailPreviewSchema>;
