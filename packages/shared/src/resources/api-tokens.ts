import { z } from 'zod';
import { bodyId, idFilterItem } from '../api/ids.ts';
import { defineResource, type Option } from '../api/resource.ts';
import { versionStamp } from '../api/status.ts';
import { API_TOKEN_SCOPES, type ApiTokenScope } from '../pipeline/enums.ts';

/**
 * API Token Generation (`/admin/api-token-generation`): the original console's `GET /api/api-token` (docs/overview.md) answers
 * users, one row each, with their newest token's metadata (never a secret). A token is `rp_` + 40
 * base62 + a 6-character checksum; only its SHA-256, prefix and last 4 are stored, and the 201 of
 * `POST /api/api-token` (or of a regenerate) is the one place its plaintext appears.
 */

export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = {
  'feeds:write': 'Feeds: write (ingest endpoint)',
  'surveys:read': 'Surveys: read',
  'responses:read': 'Responses: read',
  'reviews:read': 'Reviews: read',
  'reviews:write': 'Reviews: write',
  'locations:read': 'Locations: read',
  'locations:write': 'Locations: write',
  'reports:read': 'Reports: read',
};
export const API_TOKEN_SCOPE_OPTIONS: Option[] = API_TOKEN_SCOPES.map((s) => ({ value: s, label: API_TOKEN_SCOPE_LABELS[s] }));

/** Days a new token lives unless the form says otherwise. */
export const API_TOKEN_DEFAULT_DAYS = 90;
/** The expiry value of a token that never expires (discouraged). */
export const NEVER = 'never';
/** Longest grace period of a regenerate, in hours (domain: `integer|between:0,72`). */
export const API_TOKEN_MAX_GRACE_HOURS = 72;

/** How the Client column names the clients a super-admin's token feeds. */
export const TOKEN_ALL_CLIENTS = 'All clients';

/** `suspended`: neither revoked nor expired, but refused because its user may no longer hold a token (see TOKEN_HOLDER_RULE). */
export const API_TOKEN_STATES = ['none', 'active', 'expired', 'revoked', 'suspended'] as const;
export type ApiTokenState = (typeof API_TOKEN_STATES)[number];
const STATE_LABELS: Record<ApiTokenState, string> = {
  none: 'No token',
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
  suspended: 'Suspended',
};

/**
 * Who may hold an API token (docs/decisions/032-api-access-one-winner.md), checked at Generate and
 * Regenerate and again on every call: an active super-admin other than the retired master, whose
 * token feeds any client, or an active user who belongs to exactly one client, whose token feeds
 * only that client (the one it was issued for).
 */
export const TOKEN_HOLDER_RULE =
  'Only a super-admin, or a user of exactly one client (whose token feeds only that client), may hold an API token';

/**
 * An allowed caller: an IPv4 or IPv6 address or a CIDR range of either. Host names are not taken:
 * a request carries an address, and resolving names on every call would let DNS decide access.
 */
export const allowedIpSchema = z
  .string()
  .trim()
  .max(50)
  .refine(
    (v) => [z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()].some((s) => s.safeParse(v).success),
    'The Allowed IPs field must hold IPv4 or IPv6 addresses or CIDR ranges, e.g. 203.0.113.7 or 203.0.113.0/24',
  );
export const allowedIpsSchema = z.array(allowedIpSchema).max(50);

/** A token's own metadata (the list's row holds the user's newest; regenerate and edit answer it). */
export const apiTokenSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  name: z.string(),
  /** `rp_` + the first 4 characters of the body, and the last 4: how the token is recognised. */
  prefix: z.string(),
  last4: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  allowed_ips: z.array(z.string()),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  last_used_ip: z.string().nullable(),
  revoked_at: z.string().nullable(),
  state: z.enum(API_TOKEN_STATES),
  /** The token's version stamp: Edit sends it back. */
  updated_at: z.string(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** `POST /api/api-token` and regenerate answer the token with its plaintext, once. */
export const apiTokenCreatedSchema = apiTokenSchema.extend({ token: z.string() });
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;

/** A row of the list: a user and their newest token (token fields null when they never had one). */
export const apiTokenUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  /** The client the row's token is bound to (it feeds only that one); without a token, the one a token would be. */
  client_id: z.number().int().nullable(),
  client_name: z.string().nullable(),
  /** The token (or, without one, a token the user would be given) feeds any client: a super-admin's. */
  all_clients: z.boolean(),
  is_superadmin: z.number().int(),
  /** Whether the user may hold a token now (TOKEN_HOLDER_RULE): Generate is offered only then. */
  may_hold_token: z.boolean(),
  /** The original console's user field: the token as shown (`rp_ab12…wxyz`), never the secret; null without one. */
  api_token: z.string().nullable(),
  token_id: z.number().int().nullable(),
  token_name: z.string().nullable(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  allowed_ips: z.array(z.string()),
  created_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  last_used_ip: z.string().nullable(),
  state: z.enum(API_TOKEN_STATES),
  /** The newest token's version stamp (Edit sends it back); absent without a token. */
  updated_at: z.string().optional(),
});
export type ApiTokenUser = z.infer<typeof apiTokenUserSchema>;

/** `rp_ab12…wxyz`: how a token is shown once its plaintext is gone. */
export const tokenDisplay = (prefix: string, last4: string) => `${prefix}…${last4}`;

const date = (iso: string | null) => (iso ? iso.slice(0, 10) : null);

export const apiTokenResource = defineResource({
  name: 'api_token',
  noun: 'API token',
  path: '/api/api-token',
  screen: 'api-token-generation',
  scope: 'global',
  record: apiTokenUserSchema,
  fields: {
    user_id: { label: 'User', rules: 'required', createOnly: true, schema: bodyId.optional() },
    name: { label: 'Token name', rules: 'required|max:60', placeholder: 'e.g. DMS nightly export' },
    scopes: {
      label: 'Scopes',
      default: ['feeds:write'],
      schema: z
        .array(z.enum(API_TOKEN_SCOPES, 'The Scopes field must be one of the listed scopes'))
        .min(1, 'The Scopes field is required')
        .max(API_TOKEN_SCOPES.length)
        .optional(),
    },
    /** `yyyy-MM-dd` after today, or `never`; 90 days from today when left out. */
    expires_at: { label: 'Expires', placeholder: 'yyyy-MM-dd or never', schema: z.string().trim().max(20).nullable().optional() },
    allowed_ips: { label: 'Allowed IPs', default: [], schema: allowedIpsSchema.optional() },
  },
  columns: {
    name: { label: 'Name', sortable: true },
    email: { label: 'Email', sortable: true },
    // The client a token feeds (TOKEN_HOLDER_RULE): a client user's token only its own; a super-admin's any.
    client_name: { label: 'Client', format: (r) => (r.all_clients ? TOKEN_ALL_CLIENTS : r.client_name) },
    is_superadmin: { label: 'Superadmin', format: (r) => (r.is_superadmin === 1 ? 'Yes' : 'No') },
    api_token: { label: 'Token', format: (r) => r.api_token ?? '—' },
    token_name: { label: 'Token name' },
    scopes: { label: 'Scopes', format: (r) => r.scopes.join(', ') },
    allowed_ips: { label: 'Allowed IPs', format: (r) => r.allowed_ips.join(', '), defaultVisible: false },
    created_at: { label: 'Created', format: (r) => date(r.created_at) },
    expires_at: { label: 'Expires', format: (r) => (r.token_id === null ? null : (date(r.expires_at) ?? 'Never')) },
    last_used_at: { label: 'Last used', format: (r) => (r.token_id === null ? null : (r.last_used_at ?? 'Never')) },
    last_used_ip: { label: 'Last IP', defaultVisible: false },
    state: { label: 'Status', format: (r) => STATE_LABELS[r.state] },
  },
  filters: {
    client: {
      kind: 'multi',
      label: 'Clients',
      item: idFilterItem,
      optionsPath: '/api/endpoints/client-options',
    },
    has_token: {
      kind: 'choice',
      label: 'Has token',
      options: [
        { value: 'yes', label: 'With a token' },
        { value: 'no', label: 'Without a token' },
      ],
    },
    expired: { kind: 'choice', label: 'Expired only', checkbox: true, options: [{ value: 'yes', label: 'Expired only' }] },
  },
  defaultSort: { sort: 'name', order: 'asc' },
  search: 'User name, email or token name',
});

export type ApiTokenCreate = z.infer<typeof apiTokenResource.createSchema>;
export type ApiTokenListQuery = z.infer<typeof apiTokenResource.listQuerySchema>;

/** `PATCH /api/api-token/:id` (a token's id): name, scopes, expiry, allowed IPs, and the version edited (`updated_at`, required). */
export const apiTokenUpdateSchema = z.strictObject({
  name: z.string().max(200).optional(),
  scopes: apiTokenResource.fields.scopes.schema,
  expires_at: apiTokenResource.fields.expires_at.schema,
  allowed_ips: allowedIpsSchema.optional(),
  updated_at: versionStamp,
});
export type ApiTokenUpdate = z.infer<typeof apiTokenUpdateSchema>;

/** Regenerate's fields as its dialog labels them; the schema's messages and the server's 422s name them so. */
export const API_TOKEN_REGENERATE_LABELS = {
  expires_at: apiTokenResource.fields.expires_at.label,
  grace_hours: 'Grace period (hours)',
} as const satisfies Record<string, string>;
const grace = API_TOKEN_REGENERATE_LABELS.grace_hours;

/**
 * `POST /api/api-token/:id/regenerate`: how long the old token keeps working (0 = revoked at once),
 * and the new one's expiry (`yyyy-MM-dd` or `never`). Left out or blank, the old token's expiry is
 * kept; when that has passed, the expiry must be given (422 naming Expires).
 */
export const apiTokenRegenerateSchema = z.strictObject({
  expires_at: apiTokenResource.fields.expires_at.schema,
  grace_hours: z
    .number({ error: (issue) => (issue.input == null ? `The ${grace} field is required` : `The ${grace} field must be a whole number`) })
    .int(`The ${grace} field must be a whole number`)
    .min(0, `The ${grace} field must be between 0 and ${API_TOKEN_MAX_GRACE_HOURS}`)
    .max(API_TOKEN_MAX_GRACE_HOURS, `The ${grace} field must be between 0 and ${API_TOKEN_MAX_GRACE_HOURS}`),
});

/**
 * The expiry as stored: null for `never`, the end of the given day (UTC), or `defaultDays` from
 * `today` when absent. `today` is `yyyy-MM-dd`; a date on or before it is refused with a message
 * naming the field as the form labels it.
 */
export function parseExpiry(
  value: string | null | undefined,
  today: string,
  label = apiTokenResource.labels.expires_at ?? 'Expires',
): { ok: true; at: Date | null } | { ok: false; message: string } {
  if (value === NEVER) return { ok: true, at: null };
  if (value === undefined || value === null || value === '') {
    const at = new Date(`${today}T23:59:59.999Z`);
    at.setUTCDate(at.getUTCDate() + API_TOKEN_DEFAULT_DAYS);
    return { ok: true, at };
  }
  const at = new Date(`${value}T23:59:59.999Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(at.getTime()) || !at.toISOString().startsWith(value)) {
    return { ok: false, message: `The ${label} field must be in the format yyyy-MM-dd or be "never"` };
  }
  if (value <= today) return { ok: false, message: `The ${label} must be after today` };
  return { ok: true, at };
}
