import type { User } from '@admin/shared';
import { and, eq, gt, gte, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { loginAttempts, sessions, users } from '../../db/schema/index.ts';
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

export type ActiveSession = { sessionId: number; user: UserRow };

/** Finds the live session for a token: not revoked, within both the idle and the absolute expiry. */
export async function findSession(db: Db, token: string, now = new Date()): Promise<ActiveSession | undefined> {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sha256Hex(token)),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        gt(sessions.idleExpiresAt, now),
      ),
    )
    .limit(1);
  if (!row) return undefined;
  return { sessionId: row.session.id, user: row.user };
}

/**
 * Slides the idle expiry forward. Written at most once a minute per session so a busy console
 * does not turn every read into a write.
 */
export async function touchSession(db: Db, sessionId: number, limits: Config['session'], now = new Date()): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: now, idleExpiresAt: new Date(now.getTime() + limits.idleMinutes * 60_000) })
    .where(and(eq(sessions.id, sessionId), sql`${sessions.lastSeenAt} < ${new Date(now.getTime() - 60_000)}`));
}

export async function revokeSession(db: Db, token: string): Promise<number | undefined> {
  const [row] = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.tokenHash, sha256Hex(token)), isNull(sessions.revokedAt)))
    .returning({ userId: sessions.userId });
  return row?.userId;
}

export async function recordLoginAttempt(db: Db, email: string, ip: string, succeeded: boolean): Promise<void> {
  await db.insert(loginAttempts).values({ email: email.toLowerCase(), ip, succeeded });
}

/** Counts recent failed sign-ins for the account and for the address. */
export async function recentFailures(
  db: Db,
  email: string,
  ip: string,
  windowMinutes: number,
  now = new Date(),
): Promise<{ account: number; ip: number }> {
  const since = new Date(now.getTime() - windowMinutes * 60_000);
  const [row] = await db
    .select({
      account: sql<number>`count(*) filter (where ${loginAttempts.email} = ${email.toLowerCase()})::int`,
      ip: sql<number>`count(*) filter (where ${loginAttempts.ip} = ${ip})::int`,
    })
    .from(loginAttempts)
    .where(
      and(
        gte(loginAttempts.at, since),
        eq(loginAttempts.succeeded, false),
        sql`(${loginAttempts.email} = ${email.toLowerCase()} or ${loginAttempts.ip} = ${ip})`,
      ),
    );
  return { account: row?.account ?? 0, ip: row?.ip ?? 0 };
}

export async function markLoggedIn(db: Db, userId: number): Promise<void> {
  await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, userId));
}
