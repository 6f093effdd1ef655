import {
  type ApiToken,
  type ApiTokenListQuery,
  type ApiTokenScope,
  type ApiTokenState,
  type ApiTokenUser,
  tokenDisplay,
} from '@admin/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { Db } from '../../db/client.ts';
import { apiTokens, clients, users } from '../../db/schema/index.ts';
import {
  afterCursor,
  allOf,
  containsPattern,
  cursorFields,
  decodeCursor,
  inList,
  orderBy,
  pageOf,
  type SortSpec,
} from '../../kit/keyset.ts';
import { countMatching } from '../../kit/totals.ts';
import { HttpError } from '../../lib/http-error.ts';
import { ipAllowed, plainIp } from '../../lib/ip-allow.ts';
import { isWellFormedToken, storedParts } from './token.ts';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** Whether a token works at `now`: not revoked (a regenerate's grace ends at `revoked_at`), not expired. */
export function stateOf(row: Pick<ApiTokenRow, 'revokedAt' | 'expiresAt'>, now: Date): Exclude<ApiTokenState, 'none'> {
  if (row.revokedAt && row.revokedAt <= now) return 'revoked';
  if (row.expiresAt && row.expiresAt <= now) return 'expired';
  return 'active';
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

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
  };
}

type Sort = NonNullable<ApiTokenListQuery['sort']>;
type Filters = Omit<ApiTokenListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;

const SORTS: Record<Sort, SortSpec> = {
  name: [
    { expr: sql`lower(${users.name})`, cast: 'text' },
    { expr: sql`${users.id}`, cast: 'integer' },
  ],
  email: [
    { expr: sql`lower(${users.email})`, cast: 'text' },
    { expr: sql`${users.id}`, cast: 'integer' },
  ],
};

/** A user's newest token: the one the list shows (older ones are revoked, or in a regenerate's grace). */
const newestToken = sql`${apiTokens.id} = (select max(t2.id) from ${apiTokens} t2 where t2.user_id = ${users.id})`;
/** The client a row is shown under: the token's own, else the user's current client. */
const rowClient = sql`coalesce(${apiTokens.clientId}, ${users.currentClientId})`;

function filtersWhere(q: Filters): SQL | undefined {
  const like = containsPattern(q.q);
  const live = sql`(${apiTokens.id} is not null and ${apiTokens.revokedAt} is null)`;
  return allOf([
    inList(rowClient, q.client?.map(Number)),
    q.has_token === 'yes' ? live : q.has_token === 'no' ? sql`not ${live}` : undefined,
    q.expired === 'yes' ? sql`(${apiTokens.revokedAt} is null and ${apiTokens.expiresAt} <= now())` : undefined,
    like ? sql`(${users.name} ilike ${like} or ${users.email} ilike ${like} or coalesce(${apiTokens.name}, '') ilike ${like})` : undefined,
  ]);
}

const fields = {
  user: users,
  token: apiTokens,
  clientName: clients.name,
};

/** Users with their newest token, a keyset page in the chosen sort. */
export async function listUsers(db: Db, q: ApiTokenListQuery, limit: number, now = new Date()) {
  const keys = SORTS[q.sort ?? 'name'];
  const order = q.order ?? 'asc';
  const rows = await db
    .select({ ...fields, ...cursorFields(keys) })
    .from(users)
    .leftJoin(apiTokens, newestToken)
    .leftJoin(clients, sql`${clients.id} = ${rowClient}`)
    .where(allOf([filtersWhere(q), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]))
    .orderBy(...orderBy(keys, order))
    .limit(limit + 1);
  const { page, nextCursor } = pageOf(rows, limit, keys);
  return { rows: page.map((r) => toUserRow(r.user, r.token, r.clientName, now)), nextCursor };
}

export function countUsers(db: Db, q: Filters) {
  const where = filtersWhere(q);
  return countMatching(
    db,
    sql`from ${users} left join ${apiTokens} on ${newestToken} left join ${clients} on ${clients.id} = ${rowClient}${where ? sql` where ${where}` : sql``}`,
  );
}

/** One user's row, e.g. after a token of theirs changed. */
export async function findUserRow(db: Db, userId: number, now = new Date()): Promise<ApiTokenUser | undefined> {
  const [row] = await db
    .select(fields)
    .from(users)
    .leftJoin(apiTokens, newestToken)
    .leftJoin(clients, sql`${clients.id} = ${rowClient}`)
    .where(eq(users.id, userId))
    .limit(1);
  return row ? toUserRow(row.user, row.token, row.clientName, now) : undefined;
}

function toUserRow(user: typeof users.$inferSelect, token: ApiTokenRow | null, clientName: string | null, now: Date): ApiTokenUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    client_id: token?.clientId ?? user.currentClientId,
    client_name: clientName,
    is_superadmin: user.isSuperadmin,
    api_token: token ? tokenDisplay(token.prefix, token.last4) : null,
    token_id: token?.id ?? null,
    token_name: token?.name ?? null,
    scopes: token?.scopes ?? [],
    allowed_ips: token?.allowedIps ?? [],
    created_at: iso(token?.createdAt ?? null),
    expires_at: iso(token?.expiresAt ?? null),
    last_used_at: iso(token?.lastUsedAt ?? null),
    last_used_ip: token?.lastUsedIp ?? null,
    state: token ? stateOf(token, now) : 'none',
  };
}

/** How often a token's last use is written: at most once a minute per token (unless the IP changes). */
const TOUCH_EVERY_MS = 60_000;

export type TokenAuth = { token: ApiTokenRow; ip: string };

/**
 * The token of an `Authorization: Bearer rp_…` header, for a route that needs `scope`: the
 * checksum first (a typo or a session token never reaches the database), then the hash; revoked,
 * expired or unknown → 401, another scope or a caller outside the allowed IPs → 403.
 */
export async function authenticateToken(db: Db, plaintext: string | null, ip: string, scope: ApiTokenScope, now: Date): Promise<TokenAuth> {
  const invalid = () => new HttpError(401, 'An API token is required: Authorization: Bearer rp_…');
  if (!plaintext || !isWellFormedToken(plaintext)) throw invalid();
  const [token] = await db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, storedParts(plaintext).tokenHash))
    .limit(1);
  if (!token) throw invalid();
  const state = stateOf(token, now);
  if (state !== 'active') throw new HttpError(401, `This API token is ${state}.`);
  if (!token.scopes.includes(scope)) throw new HttpError(403, `This API token does not have the ${scope} scope.`);
  if (!ipAllowed(ip, token.allowedIps)) throw new HttpError(403, `This API token may not be used from ${plainIp(ip)}.`);
  if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() >= TOUCH_EVERY_MS || token.lastUsedIp !== plainIp(ip)) {
    await db
      .update(apiTokens)
      .set({ lastUsedAt: now, lastUsedIp: plainIp(ip) })
      .where(eq(apiTokens.id, token.id));
  }
  return { token, ip: plainIp(ip) };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** API tokens as the auth hook (plugins/auth.ts) reaches them (never by importing this file). */
    apiTokens: { authenticate(plaintext: string | null, ip: string, scope: ApiTokenScope, now: Date): Promise<TokenAuth> };
  }
}

export const apiTokensRepository = fp(
  async (app) => {
    app.decorate('apiTokens', {
      authenticate: (plaintext: string | null, ip: string, scope: ApiTokenScope, now: Date) =>
        authenticateToken(app.db, plaintext, ip, scope, now),
    });
  },
  { name: 'api-tokens-repository', dependencies: ['db'] },
);
