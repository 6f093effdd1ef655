import type { User } from '@admin/shared';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { newToken, sha256Hex } from '../../lib/crypto.ts';

type UserRow = typeof users.$inferSelect;

/** The public shape of a user; never the hash or token columns. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    is_superadmin: row.isSuperadmin === 1 ? 1 : 0,
    current_client_id: row.currentClientId,
  };
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  return row;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Whether this account may use the console: an active super-admin who is not the retired master. */
export function isAllowed(user: Pick<UserRow, 'isSuperadmin' | 'email' | 'status'>, retiredMasterEmail: string): boolean {
  return user.isSuperadmin === 1 && user.status === 'active' && user.email.toLowerCase() !== retiredMasterEmail;
}

export async function createSession(
  db: Db,
  userId: number,
  ip: string,
  limits: Config['session'],
  now = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + limits.absoluteHours * 3_600_000);
  await db.insert(sessions).values({
    tokenHash: sha256Hex(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt: new Date(now.getTime() + limits.idleMinutes * 60_000),
    expiresAt,
    ip,
  });
  return { token, expiresAt };
}

export type ActiveSession = { sessionId: number; user: UserRow; lastSeenAt: Date };

/** The session check, built once per database: it runs before every console request. */
const sessionQueries = new WeakMap<Db, ReturnType<typeof sessionQuery>>();

function sessionQuery(db: Db) {
  const now = sql.placeholder('now');
  return db
    .select({ sessionId: sessions.id, lastSeenAt: sessions.lastSeenAt, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        gt(sessions.idleExpiresAt, now),
      ),
    )
    .limit(1)
    .prepare('find_session');
}

/**
 * Finds the live session for a token: not revoked, within both the idle and the absolute expiry.
 * A prepared statement: the query is not rebuilt per request, and PostgreSQL plans it once per
 * connection (bench/api measures the session check as part of every list).
 */
export async function findSession(db: Db, token: string, now = new Date()): Promise<ActiveSession | undefined> {
  let query = sessionQueries.get(db);
  if (!query) {
    query = sessionQuery(db);
    sessionQueries.set(db, query);
  }
  const [row] = await query.execute({ tokenHash: sha256Hex(token), now });
  return row;
}

/** How often a session's idle expiry slides forward: at most one write a minute per session. */
export const TOUCH_INTERVAL_MS = 60_000;

/** Whether a session last seen then is due to slide forward (no query at all when it is not). */
export const touchDue = (lastSeenAt: Date, now = new Date()) => now.getTime() - lastSeenAt.getTime() >= TOUCH_INTERVAL_MS;

/**
 * Slides the idle expiry forward. Written at most once a minute per session so a busy console
 * does not turn every read into a write; the condition holds when two requests race.
 */
export async function touchSession(db: Db, sessionId: number, limits: Config['session'], now = new Date()): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: now, idleExpiresAt: new Date(now.getTime() + limits.idleMinutes * 60_000) })
    .where(and(eq(sessions.id, sessionId), sql`${sessions.lastSeenAt} < ${new Date(now.getTime() - TOUCH_INTERVAL_MS)}`));
}

export async function revokeSession(db: Db, token: string): Promise<number | undefined> {
  const [row] = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.tokenHash, sha256Hex(token)), isNull(sessions.revokedAt)))
    .returning({ userId: sessions.userId });
  return row?.userId;
}

export async function markLoggedIn(db: Db, userId: number): Promise<void> {
  await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, userId));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Accounts and sessions as other modules and the auth hook (plugins/auth.ts) reach them (never by importing this file). */
    identity: {
      findUser(id: number): Promise<User | undefined>;
      toUser(row: UserRow): User;
      findSession(token: string): Promise<ActiveSession | undefined>;
      isAllowed: typeof isAllowed;
      touchDue: typeof touchDue;
      touchSession(sessionId: number, limits: Config['session']): Promise<void>;
    };
  }
}

export const identityRepository = fp(
  async (app) => {
    app.decorate('identity', {
      findUser: async (id: number) => {
        const row = await findUserById(app.db, id);
        return row ? toUser(row) : undefined;
      },
      toUser,
      findSession: (token: string) => findSession(app.db, token),
      isAllowed,
      touchDue,
      touchSession: (sessionId: number, limits: Config['session']) => touchSession(app.db, sessionId, limits),
    });
  },
  { name: 'identity-repository', dependencies: ['db'] },
);
