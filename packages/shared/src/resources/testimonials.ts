import { z } from 'zod';
import { bodyId, idFilterItem, queryInt } from '../api/ids.ts';
import { versionStamp } from '../api/status.ts';

/**
 * Testimonials Tool (domain.md §9, pipeline.md "Testimonials"): a response's comment given with
 * consent becomes a `pending` testimonial; pending → approved → published, rejected kept and
 * restorable. The screen's query is the spec's `POST /api/survey-comments-testimonials`.
 */
export const TESTIMONIAL_STATUSES = ['pending', 'approved', 'published', 'rejected'] as const;
export type TestimonialStatus = (typeof TESTIMONIAL_STATUSES)[number];
export const TESTIMONIAL_STATUS_LABELS: Record<TestimonialStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  published: 'Published',
  rejected: 'Rejected',
};

/** How forms and messages name the fields a person edits or filters by. */
export const TESTIMONIAL_LABELS = {
  display_text: 'Display text',
  display_name: 'Display name',
  location: 'Location',
  survey: 'Survey',
  startDate: 'Start date',
  endDate: 'End date',
  ids: 'Testimonials',
  updated_at: 'Last updated',
} as const;

export const DISPLAY_TEXT_MAX = 1000;
export const DISPLAY_NAME_MAX = 60;
/** The most testimonials one query answers (newest first); the export has no such limit. */
export const TESTIMONIAL_QUERY_LIMIT = 500;

export const testimonialSchema = z.object({
  id: z.number().int(),
  response_id: z.number().int(),
  client_id: z.number().int(),
  submitted_at: z.string(),
  location_id: z.string().nullable(),
  location_name: z.string().nullable(),
  survey_id: z.number().int(),
  survey_name: z.string(),
  personnel_name: z.string().nullable(),
  display_name: z.string(),
  display_text: z.string(),
  original_text: z.string(),
  rating: z.number().int().nullable(),
  /** The survey's key metric's scale, so the score reads "9/10" or "4/5". */
  rating_max: z.number().int().nullable(),
  consent: z.boolean(),
  status: z.enum(TESTIMONIAL_STATUSES),
  featured: z.boolean(),
  words: z.number().int(),
  updated_at: z.string(),
});
export type Testimonial = z.infer<typeof testimonialSchema>;

/** `YYYY-MM-DD`, a day in the client's zone; the message names the field as the filter labels it. */
const dayOf = (label: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `The ${label} field must be a date written YYYY-MM-DD`, abort: true })
    // A real calendar day (not 2026-04-50), as the list kit's isoDate checks (packages/shared/src/api/list.ts).
    .refine((s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
    }, `The ${label} field must be a real date`);
const startDate = dayOf('Start date');
const endDate = dayOf('End date');
/** A location id (text, like `/api/endpoints`' `_id`). */
const locationId = z.string().min(1).max(64);

/**
 * The spec's query body `{ location[], survey[], startDate, endDate }`: empty values are left out
 * by the screen (original-spec.md §5), so every key is optional; both dates or neither.
 */
export const testimonialQuerySchema = z.strictObject({
  location: z.array(locationId).max(1000).optional(),
  survey: z.array(bodyId).max(1000).optional(),
  startDate: startDate.optional(),
  endDate: endDate.optional(),
});
export type TestimonialQuery = z.infer<typeof testimonialQuerySchema>;

/** The same filters in the export's query string (`?location=…&survey=…&startDate=…`). */
export const testimonialExportQuerySchema = z.strictObject({
  location: z.union([locationId, z.array(locationId).max(1000)]).optional(),
  survey: z.union([idFilterItem, z.array(idFilterItem).max(1000)]).optional(),
  startDate: startDate.optional(),
  endDate: endDate.optional(),
});

/** An action on one testimonial: the version the caller read. */
export const testimonialActionSchema = z.strictObject({ updated_at: versionStamp });
export const TESTIMONIAL_ACTIONS = ['approve', 'reject', 'restore', 'publish', 'unpublish', 'feature', 'unfeature'] as const;
export type TestimonialAction = (typeof TESTIMONIAL_ACTIONS)[number];

/** `PATCH /api/testimonials/{id}`: the display text or name (the original text is kept). */
export const testimonialEditSchema = z.strictObject({
  display_text: z.string().max(20_000).optional(),
  display_name: z.string().max(20_000).optional(),
  updated_at: versionStamp,
});
export type TestimonialEdit = z.infer<typeof testimonialEditSchema>;

/** `POST /api/testimonials/bulk-approve`: the pending ones chosen. */
export const testimonialBulkApproveSchema = z.strictObject({ ids: z.array(bodyId).min(1).max(TESTIMONIAL_QUERY_LIMIT) });

/** `GET /api/testimonials/embed`: the snippet a client's (or a location's) site pastes. */
export const testimonialEmbedQuerySchema = z.strictObject({ location: locationId.optional() });
export const testimonialEmbedSchema = z.object({ script: z.string(), iframe: z.string() });

/** `GET /api/public/testimonials?client=…&location=…&limit=…` (decision 046: `client` is the client's id). */
export const publicTestimonialsQuerySchema = z.strictObject({
  client: idFilterItem,
  location: locationId.optional(),
  limit: queryInt(1, 50).optional(),
});
export const publicTestimonialSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  text: z.string(),
  rating: z.number().int().nullable(),
  rating_max: z.number().int().nullable(),
  date: z.string(),
  featured: z.boolean(),
  location: z.string().nullable(),
});
export type PublicTestimonial = z.infer<typeof publicTestimonialSchema>;

/** Words in a display text, as the Words column counts them. */
export const wordCount = (text: string): number => text.split(/\s+/).filter((w) => w !== '').length;
