import { z } from 'zod';
import { bodyId, idFilterItem } from '../api/ids.ts';
import { defineResource } from '../api/resource.ts';
import { exportMoment } from '../api/zoned-time.ts';
import { type AnswerValue, answerValueSchema, NPS_CLASSES, type NpsClass, QUESTION_TYPES } from '../surveys/questions.ts';
import { LOCATION_ID } from './locations.ts';

/**
 * Survey Manager (docs/screens.md, Survey Manager): the responses respondents recorded on the public
 * survey page (`/s/{token}`), one per processing item. Read-mostly: Exclude / Include in reporting
 * with a reason, and Reassign personnel / location (within the response's client). Alerts,
 * testimonials and review invites add their columns when they exist.
 */
export const NPS_CLASS_LABELS: Record<NpsClass, string> = { promoter: 'Promoter', passive: 'Passive', detractor: 'Detractor' };

export const surveyResponseSchema = z.object({
  id: z.number().int(),
  processing_item_id: z.number().int(),
  survey_id: z.number().int(),
  survey_name: z.string().nullable(),
  client_id: z.number().int(),
  client_name: z.string().nullable(),
  /** The client's time zone (IANA): the response's times are shown in it (formatMoment). */
  client_timezone: z.string().nullable(),
  location_id: z.string().nullable(),
  location_name: z.string().nullable(),
  personnel_id: z.number().int().nullable(),
  personnel_name: z.string().nullable(),
  /** The respondent's name as the feed row gave it. */
  customer: z.string(),
  /** The key metric's answer (0–10 or 1–5); null for a custom survey, which has no key metric. */
  key_score: z.number().int().nullable(),
  nps_class: z.enum(NPS_CLASSES).nullable(),
  comment: z.string().nullable(),
  testimonial_consent: z.boolean(),
  excluded: z.boolean(),
  excluded_reason: z.string().nullable(),
  /** An answer to a Send test invitation: listed and marked, never counted in a figure. */
  test: z.boolean(),
  submitted_at: z.string(),
});
export type SurveyResponse = z.infer<typeof surveyResponseSchema>;

/** One answered question, with the text the respondent read (kept with the response). */
export const responseAnswerSchema = z.object({
  question_id: z.number().int(),
  type: z.enum(QUESTION_TYPES),
  text: z.string(),
  is_key_metric: z.boolean(),
  value: answerValueSchema.nullable(),
});
export type ResponseAnswer = z.infer<typeof responseAnswerSchema>;

export const surveyResponseDetailSchema = surveyResponseSchema.extend({ answers: z.array(responseAnswerSchema) });
export type SurveyResponseDetail = z.infer<typeof surveyResponseDetailSchema>;

/** An answer as the detail and the thank-you page show it: `9`, `Yes`, `Fast, Friendly`, or `—`. */
export function answerText(value: AnswerValue | null): string {
  if (value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.join(', ');
  return String(value);
}

/** Exclude / Include's one input as the response's detail labels it; its messages name it so. */
export const RESPONSE_EXCLUSION_LABELS = { reason: 'Reason' } as const satisfies Record<string, string>;

/** Exclude from (or include again in) reporting; the reason is kept and audited either way. */
export const responseExclusionSchema = z.strictObject({
  excluded: z.boolean(),
  reason: z
    .string()
    .trim()
    .min(1, `The ${RESPONSE_EXCLUSION_LABELS.reason} field is required`)
    .max(500, `The ${RESPONSE_EXCLUSION_LABELS.reason} field may not be greater than 500 characters`),
});
export type ResponseExclusion = z.infer<typeof responseExclusionSchema>;

/**
 * Reassign personnel / location as the response's detail labels the two choices (each input says
 * what the response gets, its button "Reassign personnel" / "Reassign location"); the server's 422s
 * name the fields so too.
 */
export const RESPONSE_REASSIGN_LABELS = {
  personnel_id: 'New personnel',
  location_id: 'New location',
} as const satisfies Record<string, string>;

/** Reassign personnel: a person of the response's client (checked by the server, 422 on `personnel_id`). */
export const responsePersonnelSchema = z.strictObject({
  personnel_id: bodyId,
});
export type ResponsePersonnel = z.infer<typeof responsePersonnelSchema>;

/** Reassign location: a location of the response's client (checked by the server, 422 on `location_id`). */
export const responseLocationSchema = z.strictObject({
  location_id: z.string().regex(LOCATION_ID, `The ${RESPONSE_REASSIGN_LABELS.location_id} field must be a location id`),
});
export type ResponseLocation = z.infer<typeof responseLocationSchema>;

/** `POST /api/survey-responses/items/:id/resend`: the NotificationLog row the resend wrote and how it ended. */
export const resendResultSchema = z.object({
  item_id: z.number().int(),
  notification_id: z.number().int(),
  notification_status: z.string(),
  error: z.string().nullable(),
});
export type ResendResult = z.infer<typeof resendResultSchema>;

const SCORES = Array.from({ length: 11 }, (_, i) => ({ value: String(i), label: String(i) }));

export const surveyResponseResource = defineResource({
  name: 'survey_response',
  noun: 'response',
  plural: 'responses',
  path: '/api/survey-responses',
  screen: 'survey-manager',
  // Every client's responses unless the Clients filter narrows them (as Tracking Logs).
  scope: 'filterable-clients',
  record: surveyResponseSchema,
  fields: {},
  columns: {
    submitted_at: { label: 'Submitted at', sortable: true, format: (r) => exportMoment(r.submitted_at, r.client_timezone) },
    client_name: { label: 'Client' },
    location_name: { label: 'Location', defaultVisible: false },
    survey_name: { label: 'Survey' },
    // A Send test's answer says so in the CSV (the screen shows a badge beside the name).
    customer: { label: 'Customer', format: (r) => (r.test ? `Test response · ${r.customer}` : r.customer) },
    personnel_name: { label: 'Personnel' },
    key_score: { label: 'Key score', sortable: true },
    nps_class: { label: 'Class', format: (r) => (r.nps_class ? NPS_CLASS_LABELS[r.nps_class] : null) },
    comment: { label: 'Comment' },
    testimonial_consent: { label: 'Testimonial consent', format: (r) => (r.testimonial_consent ? 'Yes' : 'No'), defaultVisible: false },
    excluded: { label: 'Excluded from reports', format: (r) => (r.excluded ? 'Yes' : 'No'), defaultVisible: false },
    excluded_reason: { label: 'Exclusion reason', defaultVisible: false },
  },
  filters: {
    // Their options are paged on the server: `GET /api/survey-responses/options/<filter>`.
    client: { kind: 'multi', label: 'Clients', item: idFilterItem },
    location: { kind: 'multi', label: 'Locations', item: z.string().regex(LOCATION_ID) },
    survey: { kind: 'multi', label: 'Surveys', item: idFilterItem },
    personnel: { kind: 'multi', label: 'Personnel', item: idFilterItem },
    score_min: { kind: 'choice', label: 'Score from', options: SCORES },
    score_max: { kind: 'choice', label: 'Score to', options: SCORES },
    class: { kind: 'multi', label: 'Class', options: NPS_CLASSES.map((c) => ({ value: c, label: NPS_CLASS_LABELS[c] })) },
    has_comment: { kind: 'choice', label: 'Has comment', options: [{ value: 'yes', label: 'Has a comment' }], checkbox: true },
    excluded: {
      kind: 'choice',
      label: 'Excluded',
      options: [
        { value: 'no', label: 'Included' },
        { value: 'yes', label: 'Excluded' },
      ],
    },
    test: {
      kind: 'choice',
      label: 'Test responses',
      options: [
        { value: 'no', label: 'Real responses only' },
        { value: 'yes', label: 'Test responses only' },
      ],
    },
    date: { kind: 'dateRange', label: 'Submitted' },
  },
  defaultSort: { sort: 'submitted_at', order: 'desc' },
  search: 'Customer or comment',
  card: { title: 'customer', facts: ['personnel_name', 'nps_class', 'comment'] },
});

export type SurveyResponseListQuery = z.infer<typeof surveyResponseResource.listQuerySchema>;
