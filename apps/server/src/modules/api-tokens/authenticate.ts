import type { ApiTokenScope } from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
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

/** Tokens with what decides whether their user may still hold them. */
const withHolder = (db: Db) =>
  db
    .select({
      token: apiTokens,
      user: { isSuperadmin: users.isSuperadmin, status: users.status, email: users.email },
      soleClient: soleClientOf(apiTokens.userId),
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId));

/**
 * The lookup of a sent token by its hash, which every ingest call makes: built once per database
 * and run as a named prepared statement, so neither the query builder nor PostgreSQL's planner
 * works on it per call (bench/pipeline/endpoint.ts).
 */
const byHash = new WeakMap<Db, ReturnType<typeof prepareByHash>>();
const prepareByHash = (db: Db) =>
  withHolder(db)
    .where(eq(apiTokens.tokenHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('api_token_by_hash');

async function tokenByHash(db: Db, hash: string) {
  let prepared = byHash.get(db);
  if (!prepared) {
    prepared = prepareByHash(db);
    byHash.set(db, prepared);
  }
  const [row] = await prepared.execute({ hash });
  return row;
}

type Found = NonNullable<Awaited<ReturnType<typeof tokenByHash>>>;
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
  const found = await tokenByHash(db, storedParts(plaintext).tokenHash);
  if (!found) throw invalid();
  return admit(db, found, check);
}

/**
 * A token known by its id, as if it had been sent: the endpoint's bound token, for a call that
 * came with the endpoint's webhook secret (the secret speaks for that token, decision 032).
 */
export async function authorizeTokenId(db: Db, tokenId: number, check: Check): Promise<TokenAuth> {
  const [found] = await withHolder(db).where(eq(apiTokens.id, tokenId)).limit(1);
  if (!found) throw new HttpError(401, 'The API token this endpoint is bound to no longer exists.');
  return admit(db, found, check);
}
