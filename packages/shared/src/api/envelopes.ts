import { z } from 'zod';

/**
 * The one error body every endpoint answers with, e.g.
 * `{ message: "Invalid body", statusCode: 400, errors: { email: ["The email field must be a valid email."] } }`.
 */
export const errorEnvelopeSchema = z.object({
  message: z.string(),
  statusCode: z.number().int(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** `{ data: T }` for a single record or value. */
export function dataEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

/** `{ data: T[], total, nextCursor }` for every list. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    total: z.number().int().nonnegative(),
    nextCursor: z.string().nullable().optional(),
  });
}
