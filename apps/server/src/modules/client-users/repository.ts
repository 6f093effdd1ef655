import type { ClientUser } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';

/** The audit entity of a client user. */
export const ENTITY = 'client_user';

/** Users of clients, with their version (client_users.updated_at, set by every write of the Users panel). */
function select(where: ReturnType<typeof sql>) {
  return sql`
    select u.id, cu.client_id, u.name, u.email, u.phone, cu.role, cu.alert_channels, cu.status,
      to_char(cu.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
      to_char(cu.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at
    from client_users cu join users u on u.id = cu.user_id
    where ${where}
    order by lower(u.name), u.id`;
}

function toClientUser(r: Record<string, unknown>): ClientUser {
  const channels = Array.isArray(r.alert_channels) ? r.alert_channels : [];
  return {
    id: Number(r.id),
    client_id: Number(r.client_id),
    name: String(r.name),
    email: String(r.email),
    phone: r.phone === null ? null : String(r.phone),
    role: r.role === 'owner' || r.role === 'manager' ? r.role : 'staff',
    alert_channels: channels.filter((c): c is 'email' | 'sms' => c === 'email' || c === 'sms'),
    status: r.status === 'inactive' ? 'inactive' : 'active',
    created_at: String(r.created_at),
    updated_at: String(r.updated_at),
  };
}

/** Every user of one client, deactivated ones included, by name. */
export async function listClientUsers(db: Db, clientId: number): Promise<ClientUser[]> {
  return rowsOf(await db.execute(select(sql`cu.client_id = ${clientId}`))).map(toClientUser);
}

/** One client user by user id (a client user belongs to one client). */
export async function findClientUser(db: Db, userId: number): Promise<ClientUser | undefined> {
  const [row] = rowsOf(await db.execute(select(sql`cu.user_id = ${userId}`)));
  return row ? toClientUser(row) : undefined;
}
