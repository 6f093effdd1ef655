import { MERGE_REQUEST_LABELS, type MergePerson, mergePersonOf } from '@admin/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { personnel, personnelMergeDismissals } from '../../db/schema/index.ts';
import { fieldsRefused } from '../../lib/http-error.ts';

/** Personnel as the personnel module decorates the app with them (`app.personnel`). */
export type People = FastifyInstance['personnel'];
/** A person's row as the table holds it. */
export type PersonRow = typeof personnel.$inferSelect;

export function toMergePerson(people: People, row: PersonRow, locations: { name: string }[] = []): MergePerson {
  return mergePersonOf(
    people.toPerson(row),
    locations.map((l) => l.name),
  );
}

/** The people with these ids as the merge screens show them, with their locations. */
export async function mergePeople(db: Db, people: People, ids: number[]): Promise<Map<number, MergePerson>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(personnel).where(inArray(personnel.id, ids));
  const links = await people.linksOf(
    db,
    rows.map((r) => r.id),
  );
  return new Map(rows.map((r) => [r.id, toMergePerson(people, r, links.get(r.id))]));
}

/** 422 unless every id is a person of the client. */
export async function assertClientPeople(db: Db, clientId: number, ids: number[]): Promise<void> {
  const rows = await db
    .select({ id: personnel.id })
    .from(personnel)
    .where(and(eq(personnel.clientId, clientId), inArray(personnel.id, ids)));
  if (rows.length !== new Set(ids).size) {
    throw fieldsRefused({ personnel_ids: ['Choose people of the current client'] }, MERGE_REQUEST_LABELS);
  }
}

export async function dismissGroup(db: Db, clientId: number, ids: number[], userId: number): Promise<void> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  await db.insert(personnelMergeDismissals).values({ clientId, personnelIds: sorted, dismissedBy: userId }).onConflictDoNothing();
}
