import { z } from 'zod';
import { STATUSES } from '../constants.ts';

/**
 * How messages name `updated_at`, the version stamp a write carries: no input shows it, so it is
 * named for what it is, the time the record was last updated when the editor loaded it.
 */
export const UPDATED_AT_LABEL = 'Last updated';

/**
 * `updated_at` in an edit's body: the version of the record the caller read (its `updated_at` as
 * loaded). Every edit of a versioned record requires it; when the record changed since, the server
 * answers 409 instead of overwriting someone else's change (apps/server/src/kit/status.ts).
 * Optional here only so that leaving it out is answered like any required field the handler
 * checks: 422 naming it by its label, not a schema's 400 naming its key.
 */
export const versionStamp = z.string().max(40).optional();

/** `PATCH <collection>/{id}/status` body: the new status and the version it changes. */
export const statusChangeSchema = z.strictObject({
  status: z.enum(STATUSES),
  updated_at: versionStamp,
});
export type StatusChange = z.infer<typeof statusChangeSchema>;
