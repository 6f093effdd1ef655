import { z } from 'zod';
import { defineResource, optionLabel, statusFilter, statusLabel } from '../api/resource.ts';
import { STATUSES } from '../constants.ts';
import { checkSmsTemplate, SMS_PURPOSE_LABELS, SMS_PURPOSES } from '../sms/compliance.ts';
import { SMS_ENCODING_LABELS, type SmsEncoding } from '../sms/segments.ts';

export * from '../sms/compliance.ts';
export * from '../sms/segments.ts';

export const SMS_LANGUAGES = ['en', 'es', 'fr'] as const;
export const SMS_LANGUAGE_OPTIONS = [
  { value: 'en', label: 'English' },
  { value: 'es', label: 'Spanish' },
  { value: 'fr', label: 'French' },
] as const;
const PURPOSE_OPTIONS = SMS_PURPOSES.map((p) => ({ value: p, label: SMS_PURPOSE_LABELS[p] }));
const ENCODING_OPTIONS = (['gsm7', 'ucs2'] as const).map((e) => ({ value: e, label: SMS_ENCODING_LABELS[e] }));

/** How long the table's preview of a message is. */
export const SMS_PREVIEW_LENGTH = 60;

/**
 * A text message template: a client's own, or a global default (`client_id` null). `encoding`,
 * `segments` and `has_opt_out` are computed from `body` when it is written; `length` when read.
 */
export const smsTemplateSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int().nullable(),
  client_name: z.string().nullable(),
  name: z.string(),
  purpose: z.enum(SMS_PURPOSES),
  language: z.enum(SMS_LANGUAGES),
  body: z.string(),
  encoding: z.enum(['gsm7', 'ucs2']),
  /** Characters as sent (links 23, tokens at their assumed length: packages/shared/src/sms/segments.ts). */
  length: z.number().int(),
  segments: z.number().int(),
  has_opt_out: z.boolean(),
  status: z.enum(STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SmsTemplate = z.infer<typeof smsTemplateSchema>;

export const smsTemplateResource = defineResource({
  name: 'sms_template',
  noun: 'SMS template',
  path: '/api/sms-templates',
  screen: 'sms-text',
  scope: 'current-client-and-global',
  record: smsTemplateSchema,
  fields: {
    name: { label: 'Name', rules: 'required|max:120', placeholder: 'e.g. Survey invite (short)' },
    purpose: { label: 'Purpose', input: 'select', options: PURPOSE_OPTIONS, rules: { required: true, included: [...SMS_PURPOSES] } },
    language: {
      label: 'Language',
      input: 'select',
      options: SMS_LANGUAGE_OPTIONS,
      rules: { required: true, included: [...SMS_LANGUAGES] },
      default: 'en',
    },
    // The compliance rules (business name, opt-out, HELP…) depend on the purpose: `checkSmsTemplate`.
    body: { label: 'Message', input: 'textarea', rules: 'required|max:1600' },
    /** `true` makes a default shared by all clients; otherwise it belongs to the current client. */
    global: { label: 'Global default for all clients', input: 'checkbox', createOnly: true, schema: z.boolean().optional() },
  },
  columns: {
    name: { label: 'Name', sortable: true },
    client_name: { label: 'Client', format: (r) => (r.client_id === null ? 'Global default' : r.client_name) },
    purpose: { label: 'Purpose', sortable: true, format: (r) => SMS_PURPOSE_LABELS[r.purpose] },
    language: { label: 'Language', sortable: true, format: (r) => optionLabel(SMS_LANGUAGE_OPTIONS, r.language), defaultVisible: false },
    preview: { label: 'Preview', format: (r) => smsPreview(r.body) },
    encoding: { label: 'Encoding', sortable: true, format: (r) => SMS_ENCODING_LABELS[r.encoding satisfies SmsEncoding] },
    length: { label: 'Length', defaultVisible: false },
    segments: { label: 'Segments', sortable: true },
    has_opt_out: { label: 'Has opt-out text', format: (r) => (r.has_opt_out ? 'Yes' : 'No'), defaultVisible: false },
    status: { label: 'Status', sortable: true, format: (r) => statusLabel(r.status) },
    updated_at: { label: 'Updated', sortable: true },
  },
  filters: {
    purpose: { kind: 'multi', label: 'Purpose', options: PURPOSE_OPTIONS },
    language: { kind: 'multi', label: 'Language', options: SMS_LANGUAGE_OPTIONS },
    encoding: { kind: 'multi', label: 'Encoding', options: ENCODING_OPTIONS },
    status: statusFilter,
    /** `client` = the current client's own, `global` = the shared defaults; absent = both. */
    scope: {
      kind: 'choice',
      label: 'Scope',
      emptyLabel: 'Client and global',
      options: [
        { value: 'client', label: 'This client only' },
        { value: 'global', label: 'Global defaults only' },
      ],
    },
  },
  defaultSort: { sort: 'name', order: 'asc' },
  search: 'Name or message text',
  card: { facts: ['client_name', 'purpose', 'segments'] },
  statusEffects: {
    paused: 'Surveys stop sending this text until it is resumed.',
    inactive: 'The template is archived and hidden by default. You can restore it later.',
  },
});

/** The first characters of a message, on one line. */
export function smsPreview(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > SMS_PREVIEW_LENGTH ? `${line.slice(0, SMS_PREVIEW_LENGTH)}…` : line;
}

/** The compliance check of a template's values, its messages naming the body as the form labels it. */
export const checkSmsTemplateBody = (purpose: string | null | undefined, body: string) =>
  checkSmsTemplate(purpose, body, smsTemplateResource.fields.body.label);

export type SmsTemplateCreate = z.infer<typeof smsTemplateResource.createSchema>;
export type SmsTemplateListQuery = z.infer<typeof smsTemplateResource.listQuerySchema>;

/** `POST /api/sms-templates/:id/duplicate`: the copy is global, or the current client's; the source's owner when absent. */
export const smsTemplateDuplicateSchema = z.strictObject({ global: z.boolean().optional() });

/** `POST /api/sms-templates/:id/send-test`: the phone the rendered template goes to (E.164). */
export const smsTemplateTestSchema = z.strictObject({
  phone: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, 'The Phone field must be a number in international format, e.g. +13035550142'),
});
/** What a test send ended as: the NotificationLog row (Tracking Logs), its status and any refusal or error. */
export const smsTemplateTestResultSchema = z.object({ id: z.number().int(), status: z.string(), error: z.string().nullable() });

/**
 * `GET /api/sms-templates/options` (`optionsQuerySchema` → `optionsAnswerSchema`): the SMS templates
 * a survey of the current client may use — its own and the global defaults, active ones by name,
 * searched and paged on the server — then the chosen ones whatever their status, so their labels show.
 */
export const SMS_TEMPLATE_OPTIONS_PATH = `${smsTemplateResource.path}/options`;
