import { z } from 'zod';
import { bodyId } from '../api/ids.ts';
import { defineResource, statusFilter, statusLabel } from '../api/resource.ts';
import { STATUSES } from '../constants.ts';
import {
  MAX_QUESTIONS,
  questionListProblems,
  SURVEY_TYPES,
  type SurveyQuestion,
  type SurveyType,
  storedQuestionSchema,
  surveyQuestionSchema,
} from '../surveys/questions.ts';
import { locationResource } from './locations.ts';
import {
  channelUsesEmail,
  channelUsesSms,
  MAX_REVIEW_SITES,
  REVIEW_INVITE_MODE_OPTIONS,
  REVIEW_INVITE_MODES,
  SURVEY_CHANNEL_LABELS,
  SURVEY_CHANNEL_OPTIONS,
  SURVEY_CHANNELS,
  SURVEY_LANGUAGE_OPTIONS,
  SURVEY_LANGUAGES,
  SURVEY_REVIEW_SITE_OPTIONS,
  SURVEY_TYPE_LABELS,
  SURVEY_TYPE_OPTIONS,
  type SurveyChannel,
} from './survey-choices.ts';
import { REQUIRED_EMAIL_TOKENS } from './survey-invitations.ts';

export * from './survey-choices.ts';
export * from './survey-invitations.ts';

/**
 * Surveys (docs/screens.md, Surveys): the survey definition, and the records and enums of the
 * invitations it sends (`survey_processing_items`), shared by the builder, the public survey page
 * and Survey Manager. The closed lists and their labels are survey-choices.ts, the invitation
 * e-mail and Send test survey-invitations.ts; this file exports them too.
 */

const LOCATION_ID = /^[a-f0-9]{24}$/;
const whole = z.number().int().nullable().optional();

/**
 * A survey as the API answers it. The 30-day numbers count real invitations (test sends are left
 * out); the score needs responses, null until there are some.
 */
export const surveySchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  client_name: z.string().nullable(),
  name: z.string(),
  type: z.enum(SURVEY_TYPES),
  language: z.enum(SURVEY_LANGUAGES),
  channel: z.enum(SURVEY_CHANNELS),
  location_ids: z.array(z.string()),
  questions: z.array(storedQuestionSchema),
  email_subject: z.string().nullable(),
  email_body: z.string().nullable(),
  sms_template_id: z.number().int().nullable(),
  /** The template's name, whichever client's it is (the form's options name only the current client's and global ones). */
  sms_template_name: z.string().nullable(),
  sender_name: z.string(),
  reply_to: z.string().nullable(),
  send_delay_hours: z.number().int(),
  reminder_count: z.number().int(),
  reminder_interval_days: z.number().int(),
  link_expires_days: z.number().int(),
  over_survey_days: z.number().int().nullable(),
  review_invite_mode: z.enum(REVIEW_INVITE_MODES),
  review_invite_threshold: z.number().int().nullable(),
  review_sites: z.array(z.string()),
  testimonial_consent_text: z.string().nullable(),
  question_count: z.number().int(),
  location_count: z.number().int(),
  sent_30d: z.number().int(),
  responded_30d: z.number().int(),
  /** NPS (−100…100) or the average key score of the last 30 days; null without responses. */
  score_30d: z.number().nullable(),
  status: z.enum(STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Survey = z.infer<typeof surveySchema>;

const percent = (part: number, whole: number) => (whole === 0 ? '' : `${Math.round((part / whole) * 100)}%`);

export const surveyResource = defineResource({
  name: 'survey',
  path: '/api/surveys',
  screen: 'surveys',
  // The current client's by default, or the clients chosen in the filter (as Locations); a write
  // acts on the survey's own client.
  scope: 'filterable-clients',
  record: surveySchema,
  fields: {
    // General
    name: { label: 'Name', rules: 'required|max:120', placeholder: 'e.g. After-visit NPS' },
    type: {
      label: 'Type',
      input: 'select',
      options: SURVEY_TYPE_OPTIONS,
      rules: { required: true, included: [...SURVEY_TYPES] },
      default: 'nps',
    },
    language: {
      label: 'Language',
      input: 'select',
      options: SURVEY_LANGUAGE_OPTIONS,
      rules: { required: true, included: [...SURVEY_LANGUAGES] },
      default: 'en',
    },
    channel: {
      label: 'Channel',
      input: 'select',
      options: SURVEY_CHANNEL_OPTIONS,
      rules: { required: true, included: [...SURVEY_CHANNELS] },
      default: 'email',
    },
    location_ids: {
      label: 'Locations',
      rules: 'required',
      schema: z.array(z.string().regex(LOCATION_ID, 'must be a location id (24 hex characters)')).max(1000).optional(),
    },
    // Questions: the list is checked as a whole (`questionListProblems`), not by field rules.
    questions: { label: 'Questions', schema: z.array(surveyQuestionSchema).max(MAX_QUESTIONS).optional() },
    // Messaging; what the channel makes required is `checkSurvey`'s.
    email_subject: { label: 'Email subject', rules: 'max:150', placeholder: 'e.g. How was your visit to {location_name}?' },
    email_body: { label: 'Email body', input: 'textarea', rules: 'max:20000' },
    sms_template_id: { label: 'SMS template', input: 'select', schema: bodyId.nullable().optional() },
    sender_name: { label: 'Sender name', rules: 'required|max:60', placeholder: 'e.g. Acme Dental' },
    // Blank (null) = the client's Survey Admin value (docs/decisions/027-surveys-inherit-survey-admin.md).
    reply_to: { label: 'Reply-to', rules: 'email|max:254' },
    // Rules
    send_delay_hours: { label: 'Send delay (hours)', rules: 'required|integer|between:0,720', schema: whole, default: '24' },
    reminder_count: { label: 'Reminders', rules: 'required|integer|between:0,3', schema: whole, default: '1' },
    reminder_interval_days: { label: 'Days between reminders', rules: 'required|integer|between:1,30', schema: whole, default: '3' },
    link_expires_days: { label: 'Link expires after (days)', rules: 'required|integer|between:1,90', schema: whole, default: '30' },
    over_survey_days: { label: 'Over-survey protection (days)', rules: 'integer|between:0,365', schema: whole },
    review_invite_mode: {
      label: 'Review invitations',
      input: 'select',
      options: REVIEW_INVITE_MODE_OPTIONS,
      rules: { required: true, included: [...REVIEW_INVITE_MODES] },
      default: 'all_respondents',
    },
    review_invite_threshold: { label: 'Review-invite threshold', rules: 'integer|between:0,10', schema: whole },
    review_sites: {
      label: 'Review sites',
      options: SURVEY_REVIEW_SITE_OPTIONS,
      rules: { included: SURVEY_REVIEW_SITE_OPTIONS.map((o) => o.value) },
      schema: z.array(z.string().max(40)).max(10).optional(),
      default: ['google'],
    },
    testimonial_consent_text: { label: 'Testimonial consent text', input: 'textarea', rules: 'max:300' },
  },
  columns: {
    name: { label: 'Name', sortable: true },
    client_name: { label: 'Client' },
    type: { label: 'Type', sortable: true, format: (r) => SURVEY_TYPE_LABELS[r.type] },
    channel: { label: 'Channel', sortable: true, format: (r) => SURVEY_CHANNEL_LABELS[r.channel] },
    question_count: { label: '# Questions', sortable: true, defaultVisible: false },
    location_count: { label: '# Locations', defaultVisible: false },
    sent_30d: { label: 'Sent 30d' },
    response_rate_30d: { label: 'Response rate 30d', format: (r) => percent(r.responded_30d, r.sent_30d) },
    score_30d: { label: 'NPS or avg 30d', format: (r) => (r.score_30d === null ? '' : r.score_30d) },
    review_invite_threshold: {
      label: 'Review-invite threshold',
      format: (r) => (r.review_invite_mode === 'threshold' ? (r.review_invite_threshold ?? '') : 'All'),
      defaultVisible: false,
    },
    status: { label: 'Status', sortable: true, format: (r) => statusLabel(r.status) },
    updated_at: { label: 'Updated', sortable: true },
  },
  filters: {
    /** Client ids, or `all` for every client; absent = the current client: Locations' own filter (docs/decisions/018-locations-every-client.md). */
    client: locationResource.filters.client,
    type: { kind: 'multi', label: 'Type', options: SURVEY_TYPE_OPTIONS },
    channel: { kind: 'multi', label: 'Channel', options: SURVEY_CHANNEL_OPTIONS },
    status: statusFilter,
  },
  defaultSort: { sort: 'name', order: 'asc' },
  search: 'Survey name',
  card: { facts: ['client_name', 'channel', 'response_rate_30d'] },
  statusEffects: {
    paused: 'The survey sends no invitations until it is resumed.',
    inactive: 'The survey is archived: it sends nothing and is hidden by default. You can restore it later.',
  },
});

export type SurveyBody = z.infer<typeof surveyResource.createSchema>;
export type SurveyListQuery = z.infer<typeof surveyResource.listQuerySchema>;

const { labels } = surveyResource;
const blank = (v: string | null | undefined) => (v ?? '').trim() === '';

/**
 * The rules that look at more than one field or at the question list (form and server both run
 * them, on the survey as it will be saved): what the channel makes required, the links an e-mail
 * must carry, the threshold of threshold mode, at most four review sites, and the questions as a
 * whole (`questionListProblems`, one key metric for NPS/CSAT/star). Field → messages.
 */
export function checkSurvey(values: {
  type?: string | null | undefined;
  channel?: string | null | undefined;
  email_subject?: string | null | undefined;
  email_body?: string | null | undefined;
  sms_template_id?: number | string | null | undefined;
  review_invite_mode?: string | null | undefined;
  review_invite_threshold?: number | string | null | undefined;
  review_sites?: readonly string[] | null | undefined;
  questions?: readonly SurveyQuestion[] | null | undefined;
}): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  const channelName = values.channel ? SURVEY_CHANNEL_LABELS[values.channel as SurveyChannel] : '';
  if (channelUsesEmail(values.channel)) {
    if (blank(values.email_subject))
      add('email_subject', `The ${labels.email_subject} field is required when the channel is ${channelName}`);
    if (blank(values.email_body)) add('email_body', `The ${labels.email_body} field is required when the channel is ${channelName}`);
  }
  if (!blank(values.email_body)) {
    for (const token of REQUIRED_EMAIL_TOKENS) {
      if (!(values.email_body ?? '').includes(token)) add('email_body', `The ${labels.email_body} must contain ${token}`);
    }
  }
  if (
    channelUsesSms(values.channel) &&
    (values.sms_template_id === null || values.sms_template_id === undefined || values.sms_template_id === '')
  ) {
    add('sms_template_id', `The ${labels.sms_template_id} field is required when the channel is ${channelName}`);
  }
  const threshold = values.review_invite_threshold;
  if (values.review_invite_mode === 'threshold' && (threshold === null || threshold === undefined || threshold === '')) {
    add(
      'review_invite_threshold',
      `The ${labels.review_invite_threshold} field is required when only respondents at or above a score are invited`,
    );
  }
  if ((values.review_sites?.length ?? 0) > MAX_REVIEW_SITES) {
    add('review_sites', `The ${labels.review_sites} field may have at most ${MAX_REVIEW_SITES} sites`);
  }
  if (values.type && (SURVEY_TYPES as readonly string[]).includes(values.type) && values.questions) {
    for (const problem of questionListProblems(values.type as SurveyType, values.questions)) add('questions', problem);
  }
  return errors;
}

/** `GET /api/admin/surveys`: the current client's surveys as filter options (label, value). */
export const surveyOptionSchema = z.object({ label: z.string(), value: z.number().int() });
export const surveyOptionsAnswerSchema = z.object({ data: z.array(surveyOptionSchema) });

/** `POST /api/surveys/:id/duplicate`: the copy's client (the current client when absent). */
export const surveyDuplicateSchema = z.strictObject({ client_id: z.number().int().min(1).max(2_147_483_647).optional() });

/** Duplicate's one field as its Copy to another client dialog labels it. */
export const SURVEY_DUPLICATE_LABELS = { client_id: 'Client' } as const satisfies Record<string, string>;
