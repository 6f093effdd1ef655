import { z } from 'zod';
import { REVIEW_SITES, type ReviewSite } from '../constants.ts';
import { LOCATION_ID } from './locations.ts';

/**
 * A public review coming in (issue 21, item 1): the Google Business Profile review shape
 * (domain.md A5: name, reviewId, reviewer.displayName, starRating ONE…FIVE, comment, createTime,
 * updateTime, reviewReply{comment, updateTime}) plus our `locationId`, `site` (default google),
 * `recommend` (Facebook) and `url`. Every door (the API, the CSV import, the Google pull, the demo)
 * reads items through `readReviewItem`, so one rule set answers for all of them.
 */

export const REVIEW_SOURCES = ['api', 'csv', 'google', 'demo'] as const;
export type ReviewSource = (typeof REVIEW_SOURCES)[number];

/** How messages name an item's fields (the CSV template's headers are these words too). */
export const REVIEW_FIELD_LABELS = {
  review: 'Review',
  reviewId: 'Review ID',
  locationId: 'Location',
  site: 'Site',
  reviewer: 'Reviewer',
  starRating: 'Star rating',
  recommend: 'Recommend',
  comment: 'Comment',
  createTime: 'Created',
  updateTime: 'Updated',
  reviewReply: 'Reply',
  url: 'URL',
  name: 'Name',
} as const;
type ReviewField = keyof typeof REVIEW_FIELD_LABELS;

export const STAR_RATINGS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'] as const;
/** A createTime may run this far ahead of our clock (the sender's clock drifts) before it counts as the future. */
export const REVIEW_CLOCK_SKEW_MS = 5 * 60_000;
// Google Business Profile takes comments and replies up to 4,096 characters.
const MAX_TEXT = 4096;

/** A review as stored (the reviews table's columns the ingest function writes). */
export type IncomingReview = {
  externalId: string;
  locationId: string;
  site: ReviewSite;
  authorName: string;
  rating: number | null;
  recommend: boolean | null;
  text: string | null;
  url: string | null;
  reviewCreatedAt: Date;
  reviewUpdatedAt: Date | null;
  replyText: string | null;
  repliedAt: Date | null;
};

export type ReviewErrors = Partial<Record<ReviewField, string[]>>;
export type ReadReview = { ok: true; review: IncomingReview } | { ok: false; errors: ReviewErrors };

const itemShape = z.object({
  name: z.unknown().optional(),
  reviewId: z.unknown().optional(),
  locationId: z.unknown().optional(),
  site: z.unknown().optional(),
  reviewer: z.object({ displayName: z.unknown().optional() }).loose().nullish(),
  starRating: z.unknown().optional(),
  recommend: z.unknown().optional(),
  comment: z.unknown().optional(),
  createTime: z.unknown().optional(),
  updateTime: z.unknown().optional(),
  reviewReply: z.object({ comment: z.unknown().optional(), updateTime: z.unknown().optional() }).loose().nullish(),
  url: z.unknown().optional(),
});

const label = (f: ReviewField) => REVIEW_FIELD_LABELS[f];

/** 1–5 from ONE…FIVE, a digit or a number; null when absent or unspecified; undefined when it is something else. */
export function starValue(v: unknown): number | null | undefined {
  if (v === undefined || v === null || v === '' || v === 'STAR_RATING_UNSPECIFIED') return null;
  const word = typeof v === 'string' ? STAR_RATINGS.indexOf(v.trim().toUpperCase() as (typeof STAR_RATINGS)[number]) : -1;
  if (word >= 0) return word + 1;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : Number.NaN;
  return Number.isInteger(n) && n >= 1 && n <= 5 ? n : undefined;
}

/** true / false from a boolean or the words people write (recommended, yes, no…); undefined when unreadable. */
export function recommendValue(v: unknown): boolean | null | undefined {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') return undefined;
  const w = v.trim().toLowerCase();
  if (['true', 'yes', 'y', '1', 'recommended', 'recommends'].includes(w)) return true;
  if (['false', 'no', 'n', '0', 'not recommended', 'not_recommended', 'does not recommend'].includes(w)) return false;
  return undefined;
}

function timeValue(v: unknown): Date | null | undefined {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || v.length > 40) return undefined;
  // A date needs its zone (or Z): a bare local time would be read in the server's zone.
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(v.trim())) return undefined;
  const d = new Date(v.trim());
  return Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1990 ? undefined : d;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textValue(v: unknown, field: ReviewField, errors: ReviewErrors, max = MAX_TEXT): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') {
    errors[field] = [`The ${label(field)} field must be text`];
    return null;
  }
  const t = v.trim();
  // A NUL or a lone surrogate cannot be stored in PostgreSQL text; the API's body guard refuses
  // them before here, a pulled review (Google's JSON) reaches here with them: refused alone.
  if (t.includes('\u0000') || LONE_SURROGATE.test(t)) {
    errors[field] = [`The ${label(field)} field holds a character that cannot be stored (a NUL or a broken surrogate pair)`];
    return null;
  }
  if (t.length > max) errors[field] = [`The ${label(field)} field may hold at most ${max} characters`];
  return t === '' ? null : t;
}

/**
 * One item read and checked (shape, site, rating kind for the site, times not in the future
 * beyond `REVIEW_CLOCK_SKEW_MS` of `now`): the review to store, or its messages by field. Whether
 * the location belongs to the caller's client is the server's check.
 */
export function readReviewItem(raw: unknown, now: Date): ReadReview {
  const parsed = itemShape.safeParse(raw);
  if (!parsed.success || typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, errors: { review: ['Each review must be an object in the Google Business Profile review shape'] } };
  }
  const item = parsed.data;
  const errors: ReviewErrors = {};
  const externalId = textValue(item.reviewId, 'reviewId', errors, 200);
  if (!externalId && !errors.reviewId) errors.reviewId = ['The Review ID field is required'];
  const locationId = typeof item.locationId === 'string' ? item.locationId.trim() : '';
  if (!LOCATION_ID.test(locationId)) {
    errors.locationId = [
      locationId === '' ? 'The Location field is required' : 'The Location field must be a location ID (24 lower-case hex characters)',
    ];
  }
  const siteCode = item.site === undefined || item.site === null || item.site === '' ? 'google' : item.site;
  const site = REVIEW_SITES.find((s) => s.value === siteCode);
  if (!site) errors.site = [`The Site field must be one of: ${REVIEW_SITES.map((s) => s.value).join(', ')}`];
  const authorName = textValue(item.reviewer?.displayName, 'reviewer', errors, 200) ?? '';
  const rating = starValue(item.starRating);
  const recommend = recommendValue(item.recommend);
  if (rating === undefined) errors.starRating = ['The Star rating field must be a whole number from 1 to 5 (ONE…FIVE)'];
  if (recommend === undefined) errors.recommend = ['The Recommend field must be true or false'];
  if (site?.ratingType === 'recommend') {
    if (rating !== undefined && rating !== null)
      errors.starRating = [`The Star rating field does not apply to ${site.label}: use Recommend`];
    else if (recommend === null) errors.recommend = [`The Recommend field is required for ${site.label} reviews`];
  } else if (site) {
    if (recommend !== undefined && recommend !== null)
      errors.recommend = [`The Recommend field applies to Facebook only, not to ${site.label}`];
    else if (rating === null) errors.starRating = [`The Star rating field is required for ${site.label} reviews`];
  }
  const text = textValue(item.comment, 'comment', errors);
  const url = textValue(item.url, 'url', errors, 2000);
  if (url && !/^https?:\/\/[^\s]+$/i.test(url)) errors.url = ['The URL field must be an http(s) address'];
  const latest = now.getTime() + REVIEW_CLOCK_SKEW_MS;
  const time = (v: unknown, field: ReviewField, required: boolean): Date | null => {
    const d = timeValue(v);
    if (d === undefined)
      errors[field] = [`The ${label(field)} field must be a date and time with its zone (RFC 3339, e.g. 2026-05-01T14:30:00Z)`];
    else if (d === null && required) errors[field] = [`The ${label(field)} field is required`];
    else if (d && d.getTime() > latest) errors[field] = [`The ${label(field)} field cannot be in the future`];
    return d ?? null;
  };
  const reviewCreatedAt = time(item.createTime, 'createTime', true);
  const reviewUpdatedAt = time(item.updateTime, 'updateTime', false);
  const replyText = textValue(item.reviewReply?.comment, 'reviewReply', errors);
  const repliedAt = time(item.reviewReply?.updateTime, 'reviewReply', false);
  if (Object.keys(errors).length > 0 || !externalId || !site || !reviewCreatedAt) return { ok: false, errors };
  return {
    ok: true,
    review: {
      externalId,
      locationId,
      site: site.value,
      authorName,
      rating: rating ?? null,
      recommend: recommend ?? null,
      text,
      url,
      reviewCreatedAt,
      reviewUpdatedAt,
      replyText,
      repliedAt: replyText ? (repliedAt ?? reviewUpdatedAt ?? reviewCreatedAt) : null,
    },
  };
}

export const REVIEW_OUTCOMES = ['created', 'updated', 'unchanged', 'refused'] as const;
export type ReviewOutcome = (typeof REVIEW_OUTCOMES)[number];
export const REVIEW_OUTCOME_LABELS: Record<ReviewOutcome, string> = {
  created: 'New',
  updated: 'Updated',
  unchanged: 'Unchanged',
  refused: 'Refused',
};

/** The answer about one item: its place in the batch, its id, what happened, and the messages of a refusal. */
export const reviewAnswerSchema = z.object({
  index: z.number().int(),
  externalId: z.string().nullable(),
  outcome: z.enum(REVIEW_OUTCOMES),
  id: z.number().int().nullable(),
  errors: z.record(z.string(), z.array(z.string())),
});
export type ReviewAnswer = z.infer<typeof reviewAnswerSchema>;

export const reviewCountsSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  refused: z.number().int(),
});
export type ReviewCounts = z.infer<typeof reviewCountsSchema>;

/** `POST /api/v1/reviews`: the items are checked one by one (a bad one is refused alone), the count as a whole. */
export const reviewBatchSchema = z.strictObject({ reviews: z.array(z.unknown()) });
export const reviewBatchAnswerSchema = z.object({ counts: reviewCountsSchema, reviews: z.array(reviewAnswerSchema) });

/**
 * The Reputation Panel's review import (CSV): one column per item field, headers as the template
 * writes them; `location` takes a location ID, its name or its external code.
 */
export const REVIEW_CSV_COLUMNS = [
  'review_id',
  'site',
  'location',
  'reviewer',
  'rating',
  'recommend',
  'comment',
  'created',
  'updated',
  'reply',
  'replied',
  'url',
] as const;
export type ReviewCsvColumn = (typeof REVIEW_CSV_COLUMNS)[number];
/** Most lines one import file may hold. */
export const MAX_REVIEW_IMPORT_LINES = 5000;
/** An example line of the template (Download template). */
export const REVIEW_CSV_EXAMPLE: Record<ReviewCsvColumn, string> = {
  review_id: 'AbFvOqn2Example',
  site: 'google',
  location: 'Main Street',
  reviewer: 'Dana Whitfield',
  rating: '5',
  recommend: '',
  comment: 'Quick and friendly service.',
  created: '2026-05-01T14:30:00Z',
  updated: '',
  reply: 'Thank you, Dana!',
  replied: '2026-05-02T09:00:00Z',
  url: '',
};

export const reviewImportSchema = z.strictObject({ csv: z.string().min(1).max(5_000_000), dry_run: z.boolean() });
export const reviewImportAnswerSchema = z.object({
  dryRun: z.boolean(),
  counts: reviewCountsSchema,
  /** One per line of the file (the header is line 1), in file order. */
  lines: z.array(
    z.object({
      line: z.number().int(),
      externalId: z.string().nullable(),
      outcome: z.enum(REVIEW_OUTCOMES),
      errors: z.record(z.string(), z.array(z.string())),
    }),
  ),
});
export type ReviewImportAnswer = z.infer<typeof reviewImportAnswerSchema>;
