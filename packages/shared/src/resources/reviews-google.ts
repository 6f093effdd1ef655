import { z } from 'zod';

/**
 * The Google Business Profile connection of the review pull (issue 21, item 1): a client's account
 * and refresh token (stored encrypted, never read back: the answer says only that one is stored),
 * and which Google location each of its locations reads. Staff routes under GOOGLE_PULL_PATH.
 */
export const GOOGLE_PULL_PATH = '/api/reviews/google';

export const GOOGLE_FIELD_LABELS = { account: 'Account', refresh_token: 'Refresh token', google_location: 'Google location' } as const;

export const googleConnectionBodySchema = z.strictObject({
  account: z
    .string()
    .trim()
    .regex(/^accounts\/[A-Za-z0-9_-]{1,100}$/, 'must look like accounts/1234567890'),
  /** Required the first time; left out, the stored one is kept. */
  refresh_token: z.string().trim().min(1).max(2048).optional(),
});
export type GoogleConnectionBody = z.infer<typeof googleConnectionBodySchema>;

export const googleConnectionSchema = z.object({
  /** Whether the server has an OAuth client configured; without one the pull is off. */
  enabled: z.boolean(),
  connection: z
    .object({
      account: z.string(),
      refresh_token: z.literal('stored'),
      status: z.string(),
      last_error: z.string().nullable(),
      updated_at: z.string(),
    })
    .nullable(),
});
export type GoogleConnection = z.infer<typeof googleConnectionSchema>;

export const googleSourceBodySchema = z.strictObject({
  google_location: z
    .string()
    .trim()
    .regex(/^locations\/[A-Za-z0-9_-]{1,100}$/, 'must look like locations/1234567890'),
});

export const googleLocationsQuerySchema = z.object({
  q: z.string().max(200).optional(),
  cursor: z.string().max(500).optional(),
});

/** One of the client's locations with its mapping (null when it is not pulled). */
export const googleLocationRowSchema = z.object({
  location_id: z.string(),
  location_name: z.string(),
  google_location: z.string().nullable(),
  last_pulled_at: z.string().nullable(),
  next_pull_at: z.string().nullable(),
  last_error: z.string().nullable(),
  reviews_seen: z.number().int(),
});
export type GoogleLocationRow = z.infer<typeof googleLocationRowSchema>;
/** A page of the client's locations (keyset by id), with the client's zone for showing times. */
export const googleLocationsPageSchema = z.object({
  data: z.array(googleLocationRowSchema),
  nextCursor: z.string().nullable(),
  zone: z.string(),
});
