import {
  LIST_SEPARATOR,
  MATCH_REASONS,
  type MatchReason,
  type Person,
  type PersonCreate,
  type PersonnelListQuery,
  personnelResource,
} from '@admin/shared';
import { and, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { type Db, isoText } from '../../db/client.ts';
import { namedRows } from '../../db/prepared.ts';
import { locations, personnel, personnelLocations } from '../../db/schema/index.ts';
import { requireCurrentClientId } from '../../kit/current-client.ts';
import { afterCursor, allOf, containsPattern, decodeCursor, inList, orderBy, pageOf, type SortSpec } from '../../kit/keyset.ts';
import type { ResourceStore } from '../../kit/resource-store.ts';
import { countMatching } from '../../kit/totals.ts';
import { conflict, fieldsRefused, notFound } from '../../lib/http-error.ts';

export type PersonRow = typeof personnel.$inferSelect;
type Link = { id: string; name: string };

const nameOf = (row: PersonRow) => row.displayName ?? `${row.firstName} ${row.lastName}`;

export function toPerson(row: PersonRow, links: Link[] = []): Person {
  return {
    id: row.id,
    client_id: row.clientId,
    first_name: row.firstName,
    last_name: row.lastName,
    name: nameOf(row),
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

/**
 * Locations of each person, by name. Plain SQL with the ids as one array parameter: a list page
 * calls it for its 50 rows, and a statement whose text does not change with the number of ids.
 */
export async function linksOf(db: Db, ids: number[]): Promise<Map<number, Link[]>> {
  const map = new Map<number, Link[]>();
  if (ids.length === 0) return map;
  const rows = await namedRows(
    db,
    sql`
      select ${personnelLocations.personnelId} as person_id, ${locations.id} as id, ${locations.locationname} as name
      from ${personnelLocations} join ${locations} on ${locations.id} = ${personnelLocations.locationId}
      where ${personnelLocations.personnelId} = any(${sql.param(ids)}::integer[])
      order by ${locations.locationname}, ${locations.id}`,
  );
  for (const r of rows) {
    const personId = Number(r.person_id);
    const list = map.get(personId) ?? [];
    list.push({ id: String(r.id), name: String(r.name) });
    map.set(personId, list);
  }
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

function personnelWhere(q: PersonnelListQuery, clientId: number): SQL | undefined {
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

/**
 * The page's columns as the API's fields but the locations. Plain SQL rather than the query
 * builder and a row mapping, which were most of the server's CPU for this list (bench/api); the
 * answer is what `toPerson` gives for the same rows.
 */
const listColumns = sql`
  ${personnel.id} as id, ${personnel.clientId} as client_id, ${personnel.firstName} as first_name,
  ${personnel.lastName} as last_name, coalesce(${personnel.displayName}, ${personnel.firstName} || ' ' || ${personnel.lastName}) as name,
  ${personnel.displayName} as display_name, ${personnel.title} as title, ${personnel.employeeCode} as employee_code,
  ${personnel.aliases} as aliases, ${personnel.email} as email, ${personnel.phone} as phone, ${personnel.photoUrl} as photo_url,
  ${personnel.status} as status, ${personnel.mergedIntoId} as merged_into_id,
  ${isoText(personnel.createdAt)} as created_at, ${isoText(personnel.updatedAt)} as updated_at`;

async function listPersonnel(db: Db, q: PersonnelListQuery, clientId: number, limit: number) {
  const keys = SORTS[q.sort ?? 'name'];
  const order = q.order ?? 'asc';
  const where = allOf([personnelWhere(q, clientId), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]);
  const found = await namedRows(
    db,
    sql`
    select ${listColumns}, ${sql.join(
      keys.map((k, i) => sql`(${k.expr})::text as ${sql.raw(`__k${i}`)}`),
      sql`, `,
    )}
    from ${personnel} ${where ? sql`where ${where}` : sql``}
    order by ${sql.join(orderBy(keys, order), sql`, `)} limit ${limit + 1}`,
  );
  const { page, nextCursor } = pageOf(found, limit, keys);
  // The page's locations in a second statement: folding them into the page (an array_agg per row)
  // cost the database two to three times the page and the lookup together (bench/api).
  const links = await linksOf(
    db,
    page.map((r) => Number(r.id)),
  );
  const rows = page.map((r) => {
    const personLinks = links.get(Number(r.id)) ?? [];
    // The columns are the person's fields (listColumns); the row type is the database driver's.
    return { ...r, location_ids: personLinks.map((l) => l.id), location_names: personLinks.map((l) => l.name) } as Person;
  });
  return { rows, nextCursor };
}

function personValues(body: Partial<PersonCreate>): Partial<typeof personnel.$inferInsert> {
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

async function setLinks(tx: Db, personId: number, ids: string[]) {
  await tx.delete(personnelLocations).where(eq(personnelLocations.personnelId, personId));
  const unique = [...new Set(ids)];
  if (unique.length > 0) await tx.insert(personnelLocations).values(unique.map((locationId) => ({ personnelId: personId, locationId })));
}

/** A CSV cell holding several values (`locations`, `aliases`). */
const listOf = (cell: string | undefined) =>
  (cell ?? '')
    .split(LIST_SEPARATOR)
    .map((v) => v.trim())
    .filter((v) => v !== '');

/** How personnel read, write and page for the kit's resource routes; locations are links of their own. */
export const personnelStore: ResourceStore<Person, PersonRow, PersonCreate, PersonnelListQuery> = {
  table: personnel,
  toRecord: (row) => toPerson(row),
  values: personValues,
  list: listPersonnel,
  count(db, q, clientId) {
    const where = personnelWhere(q, clientId);
    return countMatching(db, sql`from ${personnel}${where ? sql` where ${where}` : sql``}`);
  },
  nameOf,
  uniqueColumn: personnel.employeeCode,
  optionColumns: { title: personnel.title },

  /** Every location is one of the client's. */
  async check(db, body, before, request) {
    const ids = body.location_ids;
    if (!ids || ids.length === 0) return;
    const clientId = before?.clientId ?? requireCurrentClientId(request);
    const own = await db
      .select({ id: locations.id })
      .from(locations)
      .where(and(eq(locations.clientId, clientId), inArray(locations.id, ids)));
    if (own.length < new Set(ids).size) {
      throw fieldsRefused({ location_ids: ['Choose locations of the current client'] }, personnelResource.labels);
    }
  },
  async afterWrite(tx, row, body) {
    if (body.location_ids) await setLinks(tx, row.id, body.location_ids);
  },
  async reload(db, id) {
    const [row] = await db.select().from(personnel).where(eq(personnel.id, id));
    if (!row) throw notFound('Person');
    return toPerson(row, (await linksOf(db, [id])).get(id));
  },
  async beforeStatus(_tx, row) {
    if (row.mergedIntoId !== null) {
      throw conflict(`${nameOf(row)} was merged into person #${row.mergedIntoId}; a merge cannot be undone.`);
    }
  },

  /** `locations` by id, external code or exact name (case-insensitive, archived ones not); `aliases` split. */
  async importer(db, clientId) {
    const own = await db
      .select({ id: locations.id, code: locations.externalCode, name: locations.locationname })
      .from(locations)
      .where(and(eq(locations.clientId, clientId), ne(locations.status, 'inactive')));
    const byKey = new Map<string, string>();
    for (const l of own) for (const k of [l.id, l.code, l.name]) if (k) byKey.set(k.toLowerCase(), l.id);
    return {
      checkRow(line) {
        const messages: string[] = [];
        const named = listOf(line.locations);
        if (named.length === 0) messages.push('The Locations field is required');
        const unknown = named.filter((n) => !byKey.has(n.toLowerCase()));
        if (unknown.length > 0) messages.push(`Unknown locations: ${unknown.join(', ')}`);
        const aliases = listOf(line.aliases);
        if (aliases.length > 20) messages.push('At most 20 aliases');
        if (aliases.some((a) => a.length > 120)) messages.push('The Aliases field may not be greater than 120 characters');
        return messages;
      },
      body: ({ locations: _l, aliases, ...fields }) => ({ ...fields, aliases: listOf(aliases) }),
      async afterInsert(tx, rows) {
        const links = rows.flatMap(({ id, line }) =>
          [...new Set(listOf(line.locations).map((n) => byKey.get(n.toLowerCase()) ?? ''))].map((locationId) => ({
            personnelId: id,
            locationId,
          })),
        );
        if (links.length > 0) await tx.insert(personnelLocations).values(links);
      },
    };
  },
};

/** What other modules (Merge Personnel Data) use of personnel, reached as `app.personnel`. */
export type PersonnelAccess = {
  toPerson(row: PersonRow, links?: Link[]): Person;
  linksOf(db: Db, ids: number[]): Promise<Map<number, Link[]>>;
  matchKey(reason: MatchReason, alias: string): string;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Personnel as other modules reach them (never by importing this file). */
    personnel: PersonnelAccess;
  }
}

export const personnelRepository = fp(
  async (app) => {
    app.decorate('personnel', { toPerson, linksOf, matchKey } satisfies PersonnelAccess);
  },
  { name: 'personnel-repository', dependencies: ['db'] },
);
