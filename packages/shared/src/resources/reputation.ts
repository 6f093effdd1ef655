import { z } from 'zod';
import { idFilterItem, idText } from '../api/ids.ts';
import { exportColumnsSchema, isoDate, listQuerySchema, multiValue } from '../api/list.ts';
import { defineResource } from '../api/resource.ts';
import { exportMoment } from '../api/zoned-time.ts';
import { REVIEW_SITE_CODES, REVIEW_SITES, reviewSiteLabel } from '../constants.ts';
import { AMPLIFICATION_STATUSES, type AmplificationStatus } from '../reputation/vocabulary.ts';

/**
 * Reputation Panel (domain.md §10): one row per amplification (a review site offered to one
 * respondent), with the review it matched. The spec's calls, on the reputation host:
 * `GET /api/v1/reputation/filters?site&clientId` and `GET /api/v1/reputation?site&clientId`; the
 * site defaults to Google and `clientId` must be the tab's current client (decision 043).
 */
export const REPUTATION_PATH = '/api/v1/reputation';
export const DEFAULT_REVIEW_SITE = 'google';

const STATUS_CODES = AMPLIFICATION_STATUSES.map((s) => s.value) as [AmplificationStatus, ...AmplificationStatus[]];
export const amplificationStatusLabel = (status: string): string => AMPLIFICATION_STATUSES.find((s) => s.value === status)?.label ?? status;

export const CHANNEL_LABELS: Record<string, string> = { email: 'E-mail', sms: 'SMS' };
export const channelLabel = (channel: string): string => CHANNEL_LABELS[channel] ?? channel;

/** How long the Review excerpt column's text is at most (the whole review is behind its link). */
export const REVIEW_EXCERPT_MAX = 160;

export const reputationItemSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  /** The client's zone (IANA): every time is shown in it. */
  client_timezone: z.string().nullable(),
  invited_at: z.string(),
  location_id: z.string(),
  location_name: z.string().nullable(),
  personnel_id: z.number().int().nullable(),
  personnel_name: z.string().nullable(),
  customer_name: z.string(),
  survey_score: z.number().int().nullable(),
  site: z.string(),
  channel: z.string(),
  clicked_at: z.string().nullable(),
  reminder_sent_at: z.string().nullable(),
  review_id: z.number().int().nullable(),
  /** When the matched review was first stored here. */
  review_detected_at: z.string().nullable(),
  review_rating: z.number().int().nullable(),
  review_recommend: z.boolean().nullable(),
  review_excerpt: z.string().nullable(),
  review_url: z.string().nullable(),
  match_confidence: z.number().int().nullable(),
  /** A 40–69 candidate waiting for a person (MATCH_THRESHOLDS). */
  suggested_review_id: z.number().int().nullable(),
  suggested_confidence: z.number().int().nullable(),
  status: z.enum(STATUS_CODES),
  status_reason: z.string().nullable(),
});
export type ReputationItem = z.infer<typeof reputationItemSchema>;

/** `4/5`, `Recommended`, `Not recommended`, or empty without a review. */
export function reviewRatingText(r: Pick<ReputationItem, 'review_rating' | 'review_recommend'>): string | null {
  if (r.review_rating !== null) return `${r.review_rating}/5`;
  if (r.review_recommend !== null) return r.review_recommend ? 'Recommended' : 'Not recommended';
  return null;
}

/** `85%` for a match, `Suggested: 55%` while a person has to confirm one, else empty. */
export function matchConfidenceText(r: Pick<ReputationItem, 'match_confidence' | 'review_id' | 'suggested_confidence'>): string | null {
  if (r.review_id !== null) return r.match_confidence === null ? 'Manual' : `${r.match_confidence}%`;
  if (r.suggested_confidence !== null) return `Suggested: ${r.suggested_confidence}%`;
  return null;
}

/** A location id as the locations table keeps it (text, `/api/endpoints`' `_id`). */
const locationItem = z.string().trim().min(1, 'must not be empty').max(64);

const base = defineResource({
  name: 'amplification',
  noun: 'reputation item',
  plural: 'reputation items',
  path: REPUTATION_PATH,
  screen: 'reputation-panel',
  scope: 'current-client',
  record: reputationItemSchema,
  fields: {},
  columns: {
    invited_at: { label: 'Invited at', sortable: true, format: (r) => exportMoment(r.invited_at, r.client_timezone) },
    location_name: { label: 'API endpoint/Location' },
    personnel_name: { label: 'Personnel' },
    customer_name: { label: 'Customer' },
    survey_score: { label: 'Survey score' },
    // The Site filter picks one site, so every row shows the same one: hidden unless chosen, which
    // leaves the review's own columns in view at 1440 px. Columns shows them (and the export follows it).
    site: { label: 'Site', format: (r) => reviewSiteLabel(r.site), defaultVisible: false },
    channel: { label: 'Channel', format: (r) => channelLabel(r.channel), defaultVisible: false },
    clicked_at: { label: 'Clicked at', format: (r) => exportMoment(r.clicked_at, r.client_timezone) },
    review_detected_at: { label: 'Review detected at', format: (r) => exportMoment(r.review_detected_at, r.client_timezone) },
    review_rating: { label: 'Review rating', format: reviewRatingText },
    review_excerpt: { label: 'Review excerpt' },
    review_url: { label: 'Review link', defaultVisible: false },
    match_confidence: { label: 'Match confidence', format: matchConfidenceText },
    status: { label: 'Status', format: (r) => amplificationStatusLabel(r.status) },
  },
  filters: {
    site: { kind: 'choice', label: 'Site', options: REVIEW_SITES.map((s) => ({ value: s.value, label: s.label })) },
    endpoint: { kind: 'multi', label: 'API endpoints', item: locationItem },
    location: { kind: 'multi', label: 'Locations', item: locationItem },
    personnel: { kind: 'multi', label: 'Personnel', item: idFilterItem },
    status: { kind: 'multi', label: 'Status', options: AMPLIFICATION_STATUSES.map((s) => ({ value: s.value, label: s.label })) },
    date: { kind: 'dateRange', label: 'Invited at' },
  },
  defaultSort: { sort: 'invited_at', order: 'desc' },
  search: 'Customer name',
  card: { title: 'customer_name', facts: ['invited_at', 'location_name', 'review_rating'] },
});

/**
 * The filters, as the kit reads them (`multiValue`, `isoDate`), plus the spec's `clientId`: the tab's
 * current client, which the server checks (left out, the current client is meant).
 */
const queryShape = {
  site: z.enum(REVIEW_SITE_CODES).optional(),
  endpoint: multiValue(locationItem).optional(),
  location: multiValue(locationItem).optional(),
  personnel: multiValue(idFilterItem).optional(),
  status: multiValue(z.enum(STATUS_CODES)).optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  clientId: idText.optional(),
};
export const reputationListQuerySchema = listQuerySchema(['invited_at'], queryShape);
export type ReputationListQuery = z.infer<typeof reputationListQuerySchema>;
const columnKeys = base.columnKeys as [(typeof base.columnKeys)[number], ...(typeof base.columnKeys)[number][]];
export const reputationExportQuerySchema = listQuerySchema(['invited_at'], {
  ...queryShape,
  columns: exportColumnsSchema(columnKeys).optional(),
});

/** The definition, its queries taking `clientId` beside the filters. */
export const reputationResource = {
  ...base,
  listQuerySchema: reputationListQuerySchema,
  exportQuerySchema: reputationExportQuerySchema,
};

/** `GET /api/v1/reputation/filters?site&clientId`: the spec's answer, the options of the screen's filters. */
export const reputationFiltersQuerySchema = z.strictObject({ site: queryShape.site, clientId: queryShape.clientId });
const option = z.object({ value: z.string(), label: z.string() });
export const reputationFiltersSchema = z.object({
  /** The client's locations with an API endpoint set up, shaped as `GET /api/endpoints` answers them. */
  apiEndpoints: z.array(z.object({ _id: z.string(), locationname: z.string() })),
  locations: z.array(option),
  personnels: z.array(option),
});
export type ReputationFilters = z.infer<typeof reputationFiltersSchema>;

/** The KPI cards, for the list's filters (`GET /api/v1/reputation/kpis`). */
export const reputationKpisSchema = z.object({
  invited: z.number().int(),
  clicked: z.number().int(),
  posted: z.number().int(),
  /** Mean star rating of the posted reviews (null when none has a star rating). */
  average_rating: z.number().nullable(),
  /** Every review of the client on the site (and the location filters) in the date range, amplified or not. */
  new_reviews: z.number().int(),
});
export type ReputationKpis = z.infer<typeof reputationKpisSchema>;

/** `12.5%`, or `—` with nothing to divide by. */
export const percentOf = (part: number, whole: number): string => (whole === 0 ? '—' : `${Math.round((part / whole) * 1000) / 10}%`);

/** What a row action on one amplification answers (the amplification module's routes). */
export const reputationActionAnswerSchema = z.object({ data: z.object({ id: z.number().int() }) });
/** `GET /api/v1/reputation/:id/candidates`: the location's unmatched reviews on that site, best first. */
export const matchCandidateSchema = z.object({
  id: z.number().int(),
  authorName: z.string(),
  rating: z.number().int().nullable(),
  recommend: z.boolean().nullable(),
  excerpt: z.string().nullable(),
  url: z.string().nullable(),
  reviewCreatedAt: z.string(),
  score: z.number(),
});
export type MatchCandidate = z.infer<typeof matchCandidateSchema>;
