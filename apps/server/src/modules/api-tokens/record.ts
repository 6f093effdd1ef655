import type { ApiToken } from '@admin/shared';
import type { apiTokens } from '../../db/schema/index.ts';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/**
 * Whether a token works at `now` by its own dates: not revoked (a regenerate's grace ends at
 * `revoked_at`), not expired. Whether its user may still hold it is the holder's check (holder.ts).
 */
export function stateOf(row: Pick<ApiTokenRow, 'revokedAt' | 'expiresAt'>, now: Date): 'active' | 'expired' | 'revoked' {
  if (row.revokedAt && row.revokedAt <= now) return 'revoked';
  if (row.expiresAt && row.expiresAt <= now) return 'expired';
  return 'active';
}

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toApiToken(row: ApiTokenRow, now: Date): ApiToken {
  return {
    id: row.id,
    user_id: row.userId,
    name: row.name,
    prefix: row.prefix,
    last4: row.last4,
    scopes: row.scopes,
    allowed_ips: row.allowedIps,
    expires_at: iso(row.expiresAt),
    created_at: row.createdAt.toISOString(),
    last_used_at: iso(row.lastUsedAt),
    last_used_ip: row.lastUsedIp,
    revoked_at: iso(row.revokedAt),
    state: stateOf(row, now),
    updated_at: row.updatedAt.toISOString(),
  };
}
