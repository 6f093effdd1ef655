import { z } from 'zod';
import { idText } from '../api/ids.ts';
import { LOGIN_LABELS, RESERVED_USER_ID } from '../constants.ts';

export const loginBodySchema = z.strictObject({
  email: z
    .string()
    .trim()
    .min(1, `The ${LOGIN_LABELS.email} field is required`)
    .max(254)
    .email(`The ${LOGIN_LABELS.email} field must be a valid email`),
  password: z.string().min(1, `The ${LOGIN_LABELS.password} field is required`).max(1024),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const loginResultSchema = z.object({ token: z.string() });

/** What the console may know about a user. Never a password hash or a token. */
export const userSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  is_superadmin: z.union([z.literal(0), z.literal(1)]),
  current_client_id: z.number().int().nullable(),
});
export type User = z.infer<typeof userSchema>;

/** An entry of the user list; the browser prepends `DEFAULT_USER_ENTRY`. */
export const userListEntrySchema = z.object({ id: z.number().int(), name: z.string() });
export type UserListEntry = z.infer<typeof userListEntrySchema>;

/** Path id of a real user (never the reserved 1000). */
export const userIdParamSchema = z.object({
  id: idText.refine((id) => id !== RESERVED_USER_ID, 'User 1000 is reserved for "Default for New User".'),
});
