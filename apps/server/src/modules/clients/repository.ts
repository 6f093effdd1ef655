import type { Client, RootTeam } from '@admin/shared';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, teams } from '../../db/schema/index.ts';

type ClientRow = typeof clients.$inferSelect;

export function toClient(row: ClientRow): Client {
  return {
    id: row.id,
    name: row.name,
    industry: row.industry as Client['industry'],
    website: row.website,
    phone: row.phone,
    address1: row.address1,
    city: row.city,
    state: row.state,
    postal_code: row.postalCode,
    country: row.country,
    timezone: row.timezone,
    root_team_id: row.rootTeamId,
    account_coordinator_id: row.accountCoordinatorId,
    primary_contact_name: row.primaryContactName,
    primary_contact_email: row.primaryContactEmail,
    modules: row.modules as Client['modules'],
    default_review_site: row.defaultReviewSite,
    status: row.status as Client['status'],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function findClient(db: Db, id: number): Promise<ClientRow | undefined> {
  const [row] = await db.select().from(clients).where(eq(clients.id, id)).limit(1);
  return row;
}

/** Root team of every client that is not archived, by client name: the switcher's options. */
export async function listRootTeams(db: Db): Promise<RootTeam[]> {
  return db
    .select({ id: teams.id, name: teams.name, clientId: clients.id, clientName: clients.name })
    .from(clients)
    .innerJoin(teams, eq(teams.id, clients.rootTeamId))
    .where(eq(clients.status, 'active'))
    .orderBy(asc(clients.name), asc(clients.id));
}
