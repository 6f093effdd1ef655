import { MATCH_REASONS, type MatchReason, type Person, type PersonCreate, type PersonnelListQuery } from '@admin/shared';
import { and, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { locations, personnel, personnelLocations } from '../../db/schema/index.ts';
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

export type PersonRow = typeof personnel.$inferSelect;

export function toPerson(row: PersonRow, links: { id: string; name: string }[] = []): Person {
  return {
    id: row.id,
    client_id: row.clientId,
    first_name: row.firstName,
    last_name: row.lastName,
    name: row.displayName ?? `${row.firstName} ${row.lastName}`,
    display_name: row.displayName,
    title: row.title,
    employee_code: row.employeeCode,
    aliases: row.aliases,
    email: row.email,
    phone: row.phone,
    photo_url: row.photoUrl,
    location_ids: links.map((l) => l.id),
    location_names: links.map((l) => l.name),
    status: row.status as Person['status'],
    merged_into_id: row.mergedIntoId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Locations of each person, by name. */
export async function linksOf(db: Db, ids: number[]): Promise<Map<number, { id: string; name: string }[]>> {
  const map = new Map<number, { id: string; name: string }[]>();
  if (ids.length === 0) return map;
  const rows = await db
    .select({ personId: personnelLocations.personnelId, id: locations.id, name: locations.locationname })
    .from(personnelLocations)
    .innerJoin(locations, eq(locations.id, personnelLocations.locationId))
    .where(inArray(personnelLocations.personnelId, ids))
    .orderBy(locations.locationname);
  for (const r of rows) map.set(r.personId, [...(map.get(r.personId) ?? []), { id: r.id, name: r.name }]);
  return map;
}

const byId = { expr: sql`${personnel.id}`, cast: 'integer' } as const;
const SORTS: Record<NonNullable<PersonnelListQuery['sort']>, SortSpec> = {
  name: [{ expr: sql`lower(${personnel.lastName} || ' ' || ${personnel.firstName})`, cast: 'text' }, byId],
  title: [{ expr: sql`coalesce(lower(${personnel.title}), '')`, cast: 'text' }, byId],
  employee_code: [{ expr: sql`coalesce(lower(${personnel.employeeCode}), '')`, cast: 'text' }, byId],
  status: [{ expr: sql`${personnel.status}`, cast: 'text' }, byId],
};

/**
 * The duplicate finder's match keys on table alias `t`, normalised the way the expression indexes
 * in db/schema/personnel.ts are: "Maria  O'Neil" = "maria oneil", "+1 (555) 010-2000" =
 * "5550102000", "T-104" = "t104".
 */
export function matchKey(reason: MatchReason, t: string): string {
  switch (reason) {
    case 'name':
      return `regexp_replace(lower(${t}.first_name || ${t}.last_name), '[^a-z]', '', 'g')`;
    case 'email':
      return `lower(${t}.email)`;
    case 'phone':
      // The last ten digits: a country code or punctuation does not make another number.
      return `right(regexp_replace(${t}.phone, '[^0-9]', '', 'g'), 10)`;
    case 'code':
      return `regexp_replace(lower(${t}.employee_code), '[^a-z0-9]', '', 'g')`;
  }
}

/**
 * Someone else of the client, not merged and not dismissed with this person as "not duplicates",
 * shares a match key with this person. One EXISTS per
 * key (not one with ORs) so each is a probe of that key's expression index.
 */
const possibleDuplicate = sql.raw(
  `personnel.merged_into_id is null and (${MATCH_REASONS.map(
    (r) =>
      `exists (select 1 from personnel o where o.client_id = personnel.client_id and ${matchKey(r, 'o')} = ${matchKey(r, 'personnel')} and ${matchKey(r, 'o')} <> '' and o.id <> personnel.id and o.merged_into_id is null and not exists (select 1 from personnel_merge_dismissals d where d.client_id = personnel.client_id and d.personnel_ids @> array[personnel.id, o.id]))`,
  ).join(' or ')})`,
);

type Filters = Omit<PersonnelListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;

function personnelWhere(q: Filters, clientId: number): SQL | undefined {
  const like = containsPattern(q.q);
  return allOf([
    sql`${personnel.clientId} = ${clientId}`,
    inList(sql`${personnel.status}`, q.status),
    inList(sql`${personnel.title}`, q.title),
    q.duplicates === 'yes' ? possibleDuplicate : undefined,
    q.location && q.location.length > 0
      ? sql`exists (select 1 from personnel_locations pl where pl.personnel_id = ${personnel.id} and ${inList(sql`pl.location_id`, q.location)})`
      : undefined,
    like
      ? sql`(${personnel.firstName} || ' ' || ${personnel.lastName} ilike ${like} or ${personnel.employeeCode} ilike ${like} or ${personnel.email} ilike ${like} or array_to_string(${personnel.aliases}, ' ') ilike ${like})`
      : undefined,
  ]);
}

export async function listPersonnel(
  db: Db,
  q: Filters & { sort?: PersonnelListQuery['sort']; order?: 'asc' | 'desc'; cursor?: string },
  clientId: number,
  limit: number,
): Promise<{ rows: Person[]; nextCursor: string | null }> {
  const keys = SORTS[q.sort ?? 'name'];
  const order = q.order ?? 'asc';
  const where = allOf([personnelWhere(q, clientId), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]);
  const rows = await db
    .select({ person: personnel, ...cursorFields(keys) })
    .from(personnel)
    .where(where)
    .orderBy(...orderBy(keys, order))
    .limit(limit + 1);
  const { page, nextCursor } = pageOf(rows, limit, keys);
  const links = await linksOf(
    db,
    page.map((r) => r.person.id),
  );
  return { rows: page.map((r) => toPerson(r.person, links.get(r.person.id))), nextCursor };
}

export async function countPersonnel(db: Db, q: Filters, clientId: number) {
  const where = personnelWhere(q, clientId);
  return countMatching(db, sql`from ${personnel}${where ? sql` where ${where}` : sql``}`);
}

export async function employeeCodeTaken(db: Db, clientId: number, code: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: personnel.id })
    .from(personnel)
    .where(
      and(
        eq(personnel.clientId, clientId),
        eq(sql`lower(${personnel.employeeCode})`, code.trim().toLowerCase()),
        exceptId ? ne(personnel.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The titles (roles) the client's personnel have, for the Role filter. */
export async function personnelTitles(db: Db, clientId: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ title: personnel.title })
    .from(personnel)
    .where(and(eq(personnel.clientId, clientId), sql`${personnel.title} is not null`))
    .orderBy(personnel.title)
    .limit(200);
  return rows.map((r) => r.title ?? '');
}

/** The location ids among `ids` that are not locations of the client. */
export async function foreignLocations(db: Db, clientId: number, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.clientId, clientId), inArray(locations.id, ids)));
  const own = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !own.has(id));
}

export function personValues(body: Partial<PersonCreate>): Partial<typeof personnel.$inferInsert> {
  const v: Partial<typeof personnel.$inferInsert> = {};
  const opt = (x: string | null | undefined) => (x === undefined ? undefined : x === null || x.trim() === '' ? null : x.trim());
  if (body.first_name !== undefined) v.firstName = (body.first_name ?? '').trim();
  if (body.last_name !== undefined) v.lastName = (body.last_name ?? '').trim();
  if (body.display_name !== undefined) v.displayName = opt(body.display_name);
  if (body.title !== undefined) v.title = opt(body.title);
  if (body.employee_code !== undefined) v.employeeCode = opt(body.employee_code);
  if (body.aliases !== undefined) v.aliases = [...new Set(body.aliases.map((a) => a.trim()).filter((a) => a !== ''))];
  if (body.email !== undefined) v.email = opt(body.email);
  if (body.phone !== undefined) v.phone = opt(body.phone);
  if (body.photo_url !== undefined) v.photoUrl = opt(body.photo_url);
  return v;
}
