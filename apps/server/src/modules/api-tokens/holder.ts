import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { users } from '../../db/schema/index.ts';

/**
 * Who may hold an API token (TOKEN_HOLDER_RULE in packages/shared, decision 032): decided from
 * the user's row and the one client they belong to, at Generate and on every call.
 */

/** The client a user belongs to when they belong to exactly one (`client_users`), else null. */
export const soleClientOf = (userId: AnyPgColumn | SQL) =>
  sql<number | null>`(select min(cu.client_id) from client_users cu where cu.user_id = ${userId} having count(*) = 1)`;

export type Holder =
  /** `clientId` null: a super-admin, whose token feeds any client. */
  { allowed: true; clientId: number | null } | { allowed: false };

type HolderUser = Pick<typeof users.$inferSelect, 'isSuperadmin' | 'status' | 'email'>;

/** Whether the user may hold a token now, and which client it may feed (`soleClient` from `soleClientOf`). */
export function holderOf(user: HolderUser, soleClient: number | null, retiredMasterEmail: string): Holder {
  if (user.status !== 'active') return { allowed: false };
  if (user.isSuperadmin === 1)
    return user.email.toLowerCase() === retiredMasterEmail ? { allowed: false } : { allowed: true, clientId: null };
  return soleClient === null ? { allowed: false } : { allowed: true, clientId: soleClient };
}

/**
 * Whether a token issued for `tokenClientId` (null: issued to a super-admin) still works for its
 * user: a super-admin's token whoever it was issued as; a client user's only for the client it was
 * issued for (a user moved to another client, or demoted from super-admin, needs a new token).
 */
export function tokenRight(holder: Holder, tokenClientId: number | null): { clientId: number | null } | null {
  if (!holder.allowed) return null;
  if (holder.clientId === null) return { clientId: null };
  return holder.clientId === tokenClientId ? { clientId: holder.clientId } : null;
}
