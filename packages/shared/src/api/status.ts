import { z } from 'zod';
import { STATUSES } from '../constants.ts';

/**
 * `PATCH <collection>/{id}/status` body. `updated_at` is the version the caller saw; when the
 * record changed since, the server answers 409 instead of overwriting someone else's change.
 */
/**
 * How messages name `updated_at`, the version stamp a write carries: no input shows it, so it is
 * named for what it is, the time the record was last updated when the editor loaded it.
 */
export const UPDATED_AT_LABEL = 'Last updated';

export const statusChangeSchema = z.strictObject({
  status: z.enum(STATUSES),
  updated_at: z.string().max(40).optional(),
});
export type StatusChange = z.infer<typeof statusChangeSchema>;
