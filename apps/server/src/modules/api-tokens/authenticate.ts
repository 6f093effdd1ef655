import type { ApiTokenScope } from '@admin/shared';
import { eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apiTokens, users } from '../../db/schema/index.ts';
import { HttpError } from '../../lib/http-error.ts';
import { ipAllowed, plainIp } from '../../lib/ip-allow.ts';
import { holderOf, soleClientOf, tokenRight } from './holder.ts';
import { type ApiTokenRow, stateOf } from './record.ts';
import { isWellFormedToken, storedParts } from './token.ts';

/** How often a token's last use is written: at most once a minute per token (unless the IP changes). */
const TOUCH_EVERY_MS = 60_000;

export type TokenAuth = {
  token: ApiTokenRow;
  ip: string;
  /** The one client the token may feed; null for a super-admin's token, which feeds any. */
  clientId: number | null;
};

/** A token with what decides whether its user may still hold it. */
async function tokenWithHolder(db: Db, where: SQL) {
  const [row] = await db
    .select({
      token: apiTokens,
      user: { isSuperadmin: users.isSuperadmin, status: users.status, email: users.email },
      soleClient: soleClientOf(apiTokens.userId),
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(where)
    .limit(1);
  return row;
}

type Found = NonNullable<Awaited<ReturnType<typeof tokenWithHolder>>>;
type Check = { ip: string; scope: ApiTokenScope; now: Date; retiredMasterEmail: string };

/**
 * Every check of a known token, on every call: revoked or expired → 401; a user who may no longer
 * hold it (TOKEN_HOLDER_RULE), another scope, or a caller outside its allowed IPs → 403.
 */
async function admit(db: Db, found: Found, check: Check): Promise<TokenAuth> {
  const { token } = found;
  const state = stateOf(token, check.now);
  if (state !== 'active') throw new HttpError(401, `This API token is ${state}.`);
  const right = tokenRight(holderOf(found.user, found.soleClient, check.retiredMasterEmail), token.clientId);
  if (!right) throw new HttpError(403, 'This API token’s user may no longer hold a token.');
  if (!token.scopes.includes(check.scope)) throw new HttpError(403, `This API token does not have the ${check.scope} scope.`);
  const ip = plainIp(check.ip);
  if (!ipAllowed(check.ip, token.allowedIps)) throw new HttpError(403, `This API token may not be used from ${ip}.`);
  if (!token.lastUsedAt || check.now.getTime() - token.lastUsedAt.getTime() >= TOUCH_EVERY_MS || token.lastUsedIp !== ip) {
    await db.update(apiTokens).set({ lastUsedAt: check.now, lastUsedIp: ip }).where(eq(apiTokens.id, token.id));
  }
  return { token, ip, clientId: right.clientId };
}

/**
 * The token of an `Authorization: Bearer rp_…` header, for a route that needs `check.scope`: the
 * checksum first (a typo or a session token never reaches the database), then the hash, then
 * every check of `admit`. Unknown → 401.
 */
export async function authenticateToken(db: Db, plaintext: string | null, check: Check): Promise<TokenAuth> {
  const invalid = () => new HttpError(401, 'An API token is required: Authorization: Bearer rp_…');
  if (!plaintext || !isWellFormedToken(plaintext)) throw invalid();
  const found = await tokenWithHolder(db, eq(apiTokens.tokenHash, storedParts(plaintext).tokenHash));
  if (!found) throw invalid();
  return admit(db, found, check);
}

/**
 * A token known by its id, as if it had been sent: the endpoint's bound token, for a call that
 * came with the endpoint's webhook secret (the secret speaks for that token, decision 032).
 */
export async function authorizeTokenId(db: Db, tokenId: number, check: Check): Promise<TokenAuth> {
  const found = await tokenWithHolder(db, eq(apiTokens.id, tokenId));
  if (!found) throw new HttpError(401, 'The API token this endpoint is bound to no longer exists.');
  return admit(db, found, check);
}
