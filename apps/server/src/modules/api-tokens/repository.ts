import { type ApiTokenListQuery, type ApiTokenScope, type ApiTokenUser, tokenDisplay } from '@admin/shared';
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
import { authenticateToken, authorizeTokenId, type TokenAuth } from './authenticate.ts';
import { type Feeder, feedersOf } from './feeders.ts';
import { holderOf, soleClientOf, tokenRight } from './holder.ts';
import { type ApiTokenRow, iso, stateOf } from './record.ts';

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
const soleClient = soleClientOf(users.id);
/** The client a row is shown under: the token's own, else the one the user belongs to, else the user's current client. */
const rowClient = sql`coalesce(${apiTokens.clientId}, ${soleClient}, ${users.currentClientId})`;

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
  soleClient,
};
type Row = { user: typeof users.$inferSelect; token: ApiTokenRow | null; clientName: string | null; soleClient: number | null };

/** Users with their newest token, a keyset page in the chosen sort. */
export async function listUsers(db: Db, q: ApiTokenListQuery, limit: number, now: Date, retiredMasterEmail: string) {
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
  return { rows: page.map((r) => toUserRow(r, now, retiredMasterEmail)), nextCursor };
}

export function countUsers(db: Db, q: Filters) {
  const where = filtersWhere(q);
  return countMatching(
    db,
    sql`from ${users} left join ${apiTokens} on ${newestToken} left join ${clients} on ${clients.id} = ${rowClient}${where ? sql` where ${where}` : sql``}`,
  );
}

/** One user's row, e.g. after a token of theirs changed. */
export async function findUserRow(db: Db, userId: number, now: Date, retiredMasterEmail: string): Promise<ApiTokenUser | undefined> {
  const [row] = await db
    .select(fields)
    .from(users)
    .leftJoin(apiTokens, newestToken)
    .leftJoin(clients, sql`${clients.id} = ${rowClient}`)
    .where(eq(users.id, userId))
    .limit(1);
  return row ? toUserRow(row, now, retiredMasterEmail) : undefined;
}

function toUserRow({ user, token, clientName, soleClient }: Row, now: Date, retiredMasterEmail: string): ApiTokenUser {
  const holder = holderOf(user, soleClient, retiredMasterEmail);
  const state = token ? stateOf(token, now) : 'none';
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    client_id: token?.clientId ?? soleClient ?? user.currentClientId,
    client_name: clientName,
    // A token issued with no client is a super-admin's: it feeds every client, whatever client its user is in.
    all_clients: token ? token.clientId === null : holder.allowed && holder.clientId === null,
    is_superadmin: user.isSuperadmin,
    may_hold_token: holder.allowed,
    api_token: token ? tokenDisplay(token.prefix, token.last4) : null,
    token_id: token?.id ?? null,
    token_name: token?.name ?? null,
    scopes: token?.scopes ?? [],
    allowed_ips: token?.allowedIps ?? [],
    created_at: iso(token?.createdAt ?? null),
    expires_at: iso(token?.expiresAt ?? null),
    last_used_at: iso(token?.lastUsedAt ?? null),
    last_used_ip: token?.lastUsedIp ?? null,
    // A working token whose user may no longer hold it is refused on every call: shown so.
    state: token && state === 'active' && !tokenRight(holder, token.clientId) ? 'suspended' : state,
    ...(token ? { updated_at: token.updatedAt.toISOString() } : {}),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** API tokens as the auth hook (plugins/auth.ts) and the ingest endpoint reach them (never by importing this module). */
    apiTokens: {
      authenticate(plaintext: string | null, ip: string, scope: ApiTokenScope, now: Date): Promise<TokenAuth>;
      /** The endpoint's bound token, for a call that came with the endpoint's webhook secret. */
      authorize(tokenId: number, ip: string, scope: ApiTokenScope, now: Date): Promise<TokenAuth>;
      /** The tokens that may feed this client's endpoints now (`onlyId`: that token, if it may). */
      feeders(clientId: number, now: Date, onlyId?: number): Promise<Feeder[]>;
      /** The retired master's e-mail (lower-case): never a token holder (TOKEN_HOLDER_RULE). */
      retiredMasterEmail: string;
    };
  }
}

export const apiTokensRepository = fp<{ retiredMasterEmail: string }>(
  async (app, { retiredMasterEmail }) => {
    app.decorate('apiTokens', {
      authenticate: (plaintext: string | null, ip: string, scope: ApiTokenScope, now: Date) =>
        authenticateToken(app.db, plaintext, { ip, scope, now, retiredMasterEmail }),
      authorize: (tokenId: number, ip: string, scope: ApiTokenScope, now: Date) =>
        authorizeTokenId(app.db, tokenId, { ip, scope, now, retiredMasterEmail }),
      feeders: (clientId: number, now: Date, onlyId?: number) => feedersOf(app.db, clientId, now, retiredMasterEmail, onlyId),
      retiredMasterEmail,
    });
  },
  { name: 'api-tokens-repository', dependencies: ['db'] },
);
