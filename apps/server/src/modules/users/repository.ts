import type { UserListEntry } from '@admin/shared';
import { asc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clientUsers, users } from '../../db/schema/index.ts';

/** Users of one client, by name, for the user list (the browser adds the id-1000 entry). */
export async function listClientUsers(db: Db, clientId: number): Promise<UserListEntry[]> {
  return db
    .select({ id: users.id, name: users.name })
    .from(clientUsers)
    .innerJoin(users, eq(users.id, clientUsers.userId))
    .where(eq(clientUsers.clientId, clientId))
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
