import { z } from 'zod';
import { bodyId, idText } from '../api/ids.ts';
import { versionStamp } from '../api/status.ts';
import { E164 } from './survey-alert-rules.ts';

/**
 * Client users (issue 20, item 2): the people of a client's own business whom alerts go to. A
 * user (`users`, no password: cannot sign in here) joined to one client by `client_users`, with a
 * role, the alert channels they accept and a status (docs/decisions/044-client-users.md).
 */
export const CLIENT_USER_ROLES = ['owner', 'manager', 'staff'] as const;
export type ClientUserRole = (typeof CLIENT_USER_ROLES)[number];
export const CLIENT_USER_ROLE_OPTIONS = [
  { value: 'owner', label: 'Owner' },
  { value: 'manager', label: 'Manager' },
  { value: 'staff', label: 'Staff' },
] as const;
export const CLIENT_USER_STATUSES = ['active', 'inactive'] as const;
export const CLIENT_USER_STATUS_LABELS = { active: 'Active', inactive: 'Deactivated' } as const;
export const CLIENT_USERS_PATH = '/api/client-users';

export const clientUserSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  role: z.enum(CLIENT_USER_ROLES),
  alert_channels: z.array(z.enum(['email', 'sms'])),
  status: z.enum(CLIENT_USER_STATUSES),
  created_at: z.string(),
  /** The time of the last change (its audit entry), the version an edit carries. */
  updated_at: z.string(),
});
export type ClientUser = z.infer<typeof clientUserSchema>;

/** How the form labels each field, and so how every message names it. */
export const CLIENT_USER_LABELS = {
  client_id: 'Client',
  name: 'Name',
  email: 'E-mail',
  phone: 'Mobile phone',
  role: 'Role',
  alert_channels: 'Alert channels',
  status: 'Status',
  updated_at: 'Last updated',
} as const;

/** The rules of each field, in the shared validation vocabulary (packages/shared/src/validation). */
export const CLIENT_USER_RULES = {
  name: 'required|max:120',
  email: 'required|email|max:254',
  phone: { regex: E164 },
  role: { required: true, included: [...CLIENT_USER_ROLES] },
  alert_channels: { included: ['email', 'sms'] },
} as const;

const text = z.string().max(5000).nullable().optional();
const fields = {
  name: text,
  email: text,
  phone: text,
  role: text,
  alert_channels: z.array(z.string().max(20)).max(10).optional(),
};
export const clientUserCreateSchema = z.strictObject({ client_id: bodyId.optional(), ...fields });
export const clientUserUpdateSchema = z.strictObject({ ...fields, updated_at: versionStamp });
export const clientUserStatusSchema = z.strictObject({ status: z.enum(CLIENT_USER_STATUSES), updated_at: versionStamp });
export const clientUserListQuerySchema = z.object({ client: idText.optional() });
export type ClientUserBody = z.infer<typeof clientUserCreateSchema>;

/** SMS needs a number to go to. */
export function clientUserProblems(v: { phone?: string | null | undefined; alert_channels?: readonly string[] | undefined }) {
  const errors: Record<string, string[]> = {};
  if ((v.alert_channels ?? []).includes('sms') && (v.phone ?? '').trim() === '') {
    errors.phone = [`The ${CLIENT_USER_LABELS.phone} field is required to accept SMS alerts`];
  }
  return errors;
}
