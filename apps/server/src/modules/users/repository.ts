import { isIdText, type OptionsAnswer, type OptionsQuery, type UserListEntry } from '@admin/shared';
import { and, asc, eq, ilike, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clientUsers, users } from '../../db/schema/index.ts';
import { containsPattern } from '../../kit/keyset.ts';

/** Active users of one client, by name, for the user list (the browser adds the id-1000 entry); deactivated ones drop out. */
export async function listClientUsers(db: Db, clientId: number): Promise<UserListEntry[]> {
  return db
    .select({ id: users.id, name: users.name })
    .from(clientUsers)
    .innerJoin(users, eq(users.id, clientUsers.userId))
    .where(and(eq(clientUsers.clientId, clientId), eq(clientUsers.status, 'active')))
    .orderBy(asc(users.name), asc(users.id));
}

export async function setCurrentClient(db: Db, userId: number, clientId: number) {
  const [row] = await db.update(users).set({ currentClientId: clientId }).where(eq(users.id, userId)).returning();
  return row;
}

/** Accounts that can sign in to the console, by name. */
export async function listStaffUsers(db: Db): Promise<UserListEntry[]> {
  return db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(isNotNull(users.passwordHash))
    .orderBy(asc(users.name), asc(users.id));
}

/**
 * A page of staff accounts matching what was typed, by name, plus the chosen ones with their names
 * (packages/shared `optionsQuerySchema`): the Account Coordinator picker and filter.
 */
export async function staffOptions(db: Db, q: OptionsQuery): Promise<OptionsAnswer> {
  const like = containsPattern(q.q);
  const staff = isNotNull(users.passwordHash);
  const rows = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(staff, like ? ilike(users.name, like) : undefined))
    .orderBy(asc(users.name), asc(users.id))
    .limit(q.perPage + 1);
  const found = rows.slice(0, q.perPage);
  const missing = (q.value ?? [])
    .filter(isIdText)
    .map(Number)
    .filter((id) => !found.some((f) => f.id === id));
  const chosen =
    missing.length > 0 ? await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, missing)) : [];
  return { data: [...found, ...chosen].map((u) => ({ value: String(u.id), label: u.name })), more: rows.length > q.perPage };
}
