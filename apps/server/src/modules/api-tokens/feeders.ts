import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apiTokens, users } from '../../db/schema/index.ts';
import { holderOf, soleClientOf, tokenRight } from './holder.ts';

export type Feeder = { id: number; name: string; prefix: string; last4: string; userName: string };

/**
 * The tokens that may feed a client's ingest endpoints now (API Managers' Token choices, and the
 * check of a save's Token): working, with `feeds:write`, and held by a super-admin or by a user of
 * that client it was issued for (TOKEN_HOLDER_RULE). `onlyId` narrows to one token.
 */
export async function feedersOf(db: Db, clientId: number, now: Date, retiredMasterEmail: string, onlyId?: number): Promise<Feeder[]> {
  const rows = await db
    .select({
      token: apiTokens,
      user: { name: users.name, isSuperadmin: users.isSuperadmin, status: users.status, email: users.email },
      soleClient: soleClientOf(users.id),
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(
      and(
        onlyId === undefined ? undefined : eq(apiTokens.id, onlyId),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)),
        sql`'feeds:write' = any(${apiTokens.scopes})`,
        // The candidates; the holder's rule below decides.
        or(eq(users.isSuperadmin, 1), eq(apiTokens.clientId, clientId)),
      ),
    )
    .orderBy(sql`lower(${apiTokens.name})`, apiTokens.id)
    .limit(500);
  return rows
    .filter((r) => {
      const right = tokenRight(holderOf(r.user, r.soleClient, retiredMasterEmail), r.token.clientId);
      return right !== null && (right.clientId === null || right.clientId === clientId);
    })
    .map((r) => ({ id: r.token.id, name: r.token.name, prefix: r.token.prefix, last4: r.token.last4, userName: r.user.name }));
}
