import { randomBytes } from 'node:crypto';
import {
  ALL_CLIENTS,
  type Location,
  type LocationCreate,
  type LocationListQuery,
  type OptionsAnswer,
  type OptionsQuery,
} from '@admin/shared';
import { and, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, clientUsers, locations } from '../../db/schema/index.ts';
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
import { HttpError } from '../../lib/http-error.ts';

export type LocationRow = typeof locations.$inferSelect;

/** A new endpoint id: 24 lower-case hex characters (12 random bytes). */
export const newLocationId = () => randomBytes(12).toString('hex');

/** People (not archived) linked to the location. */
const personnelCount = sql<number>`(select count(*)::int from personnel_locations pl join personnel p on p.id = pl.personnel_id where pl.location_id = ${locations.id} and p.status <> 'inactive')`;

export function toLocation(row: LocationRow, clientName: string | null = null, personnelCount: number | null = null): Location {
  return {
    _id: row.id,
    client_id: row.clientId,
    client_name: clientName,
    locationname: row.locationname,
    external_code: row.externalCode,
    address1: row.address1,
    address2: row.address2,
    city: row.city,
    state: row.state,
    postal_code: row.postalCode,
    country: row.country,
    phone: row.phone,
    website: row.website,
    timezone: row.timezone,
    google_place_id: row.googlePlaceId,
    manager_user_id: row.managerUserId,
    team_id: row.teamId,
    hours: row.hours ?? null,
    review_links: row.reviewLinks,
    personnel_count: personnelCount,
    status: row.status as Location['status'],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const SORTS: Record<NonNullable<LocationListQuery['sort']>, SortSpec> = {
  locationname: [
    { expr: sql`lower(${locations.locationname})`, cast: 'text' },
    { expr: sql`${locations.id}`, cast: 'text' },
  ],
  external_code: [
    { expr: sql`coalesce(lower(${locations.externalCode}), '')`, cast: 'text' },
    { expr: sql`${locations.id}`, cast: 'text' },
  ],
  city_state: [
    { expr: sql`lower(${locations.city} || ', ' || ${locations.state})`, cast: 'text' },
    { expr: sql`${locations.id}`, cast: 'text' },
  ],
  status: [
    { expr: sql`${locations.status}`, cast: 'text' },
    { expr: sql`${locations.id}`, cast: 'text' },
  ],
};

type Filters = Omit<LocationListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;

/** The clients whose locations are listed: the filter's ids (or the current client's), or `all`. */
export type ClientScope = number[] | typeof ALL_CLIENTS;

export function locationWhere(q: Filters, scope: ClientScope): SQL | undefined {
  const like = containsPattern(q.q);
  return allOf([
    scope === ALL_CLIENTS ? undefined : inList(sql`${locations.clientId}`, scope.length > 0 ? scope : [-1]),
    inList(sql`${locations.status}`, q.status),
    inList(sql`${locations.state}`, q.state),
    q.hasGoogle === 'yes' ? sql`${locations.googlePlaceId} is not null` : undefined,
    q.hasGoogle === 'no' ? sql`${locations.googlePlaceId} is null` : undefined,
    like
      ? sql`(${locations.locationname} ilike ${like} or ${locations.externalCode} ilike ${like} or ${locations.city} ilike ${like} or ${locations.id} = ${q.q})`
      : undefined,
  ]);
}

export async function listLocations(
  db: Db,
  q: Filters & { sort?: LocationListQuery['sort']; order?: 'asc' | 'desc'; cursor?: string },
  scope: ClientScope,
  limit: number,
): Promise<{ rows: Location[]; nextCursor: string | null }> {
  const keys = SORTS[q.sort ?? 'locationname'];
  const order = q.order ?? 'asc';
  const where = allOf([locationWhere(q, scope), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]);
  const rows = await db
    .select({ location: locations, clientName: clients.name, personnelCount, ...cursorFields(keys) })
    .from(locations)
    .innerJoin(clients, eq(clients.id, locations.clientId))
    .where(where)
    .orderBy(...orderBy(keys, order))
    .limit(limit + 1);
  const { page, nextCursor } = pageOf(rows, limit, keys);
  return { rows: page.map((r) => toLocation(r.location, r.clientName, r.personnelCount)), nextCursor };
}

export async function countLocations(db: Db, q: Filters, scope: ClientScope) {
  const where = locationWhere(q, scope);
  return countMatching(db, sql`from ${locations}${where ? sql` where ${where}` : sql``}`);
}

export async function findLocation(
  db: Db,
  id: string,
): Promise<{ row: LocationRow; clientName: string; personnelCount: number } | undefined> {
  const [r] = await db
    .select({ row: locations, clientName: clients.name, personnelCount })
    .from(locations)
    .innerJoin(clients, eq(clients.id, locations.clientId))
    .where(eq(locations.id, id))
    .limit(1);
  return r;
}

/**
 * The client's locations as options of a picker that pages on the server (`optionsQuerySchema`):
 * by name, at most `perPage` matching `q` (archived ones left out), then the chosen ones whatever
 * they are, so their labels show.
 */
export async function locationOptions(db: Db, clientId: number, q: OptionsQuery): Promise<OptionsAnswer> {
  const like = containsPattern(q.q);
  const rows = await db
    .select({ value: locations.id, label: locations.locationname })
    .from(locations)
    .where(
      allOf([
        sql`${locations.clientId} = ${clientId}`,
        sql`${locations.status} <> 'inactive'`,
        like ? sql`${locations.locationname} ilike ${like}` : undefined,
      ]),
    )
    .orderBy(sql`lower(${locations.locationname})`, locations.id)
    .limit(q.perPage + 1);
  const found = rows.slice(0, q.perPage);
  const missing = (q.value ?? []).filter((v) => !found.some((r) => r.value === v));
  const chosen =
    missing.length === 0
      ? []
      : await db
          .select({ value: locations.id, label: locations.locationname })
          .from(locations)
          .where(allOf([sql`${locations.clientId} = ${clientId}`, inList(sql`${locations.id}`, missing)]))
          .orderBy(sql`lower(${locations.locationname})`, locations.id);
  return { data: [...found, ...chosen], more: rows.length > q.perPage };
}

/** 422 unless the manager (if any) is one of the client's users. */
export async function assertClientUser(db: Db, clientId: number, userId: number | null | undefined): Promise<void> {
  if (!userId) return;
  const [row] = await db
    .select({ id: clientUsers.userId })
    .from(clientUsers)
    .where(and(eq(clientUsers.clientId, clientId), eq(clientUsers.userId, userId)))
    .limit(1);
  if (!row) throw new HttpError(422, 'Please correct: manager_user_id.', { manager_user_id: ['Choose a user of this client'] });
}

/** Store codes already used in this client (case-insensitive), except by `exceptId`. */
export async function usedExternalCodes(db: Db, clientId: number, codes: string[], exceptId?: string): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const rows = await db
    .select({ code: sql<string>`lower(${locations.externalCode})` })
    .from(locations)
    .where(
      and(
        eq(locations.clientId, clientId),
        sql`lower(${locations.externalCode}) in (${sql.join(
          codes.map((c) => sql`${c.toLowerCase()}`),
          sql`, `,
        )})`,
        exceptId ? ne(locations.id, exceptId) : undefined,
      ),
    );
  return new Set(rows.map((r) => r.code));
}

/** Column values from a create/update body; empty optional text becomes null. */
/** The review links after applying `changes` (a null or empty URL removes that site). */
function mergeLinks(current: Record<string, string>, changes: NonNullable<LocationCreate['review_links']>): Record<string, string> {
  const next = { ...current };
  for (const [site, url] of Object.entries(changes)) {
    if (url === null || url === undefined || url.trim() === '') delete next[site];
    else next[site] = url.trim();
  }
  return next;
}

/** Column values for a create or an update; `current` = the review links stored now. */
export function locationValues(
  body: Partial<LocationCreate>,
  current: Record<string, string> = {},
): Partial<typeof locations.$inferInsert> {
  const v: Partial<typeof locations.$inferInsert> = {};
  const opt = (x: string | null | undefined) => (x === undefined ? undefined : x === null || x.trim() === '' ? null : x.trim());
  const req = (x: string | null | undefined) => (x === undefined ? undefined : (x ?? '').trim());
  if (body.locationname !== undefined) v.locationname = req(body.locationname);
  if (body.external_code !== undefined) v.externalCode = opt(body.external_code);
  if (body.address1 !== undefined) v.address1 = req(body.address1);
  if (body.address2 !== undefined) v.address2 = opt(body.address2);
  if (body.city !== undefined) v.city = req(body.city);
  if (body.state !== undefined) v.state = req(body.state);
  if (body.postal_code !== undefined) v.postalCode = req(body.postal_code);
  if (body.country !== undefined) v.country = opt(body.country) ?? 'US';
  if (body.phone !== undefined) v.phone = req(body.phone);
  if (body.website !== undefined) v.website = opt(body.website);
  if (body.timezone !== undefined) v.timezone = req(body.timezone);
  if (body.google_place_id !== undefined) v.googlePlaceId = opt(body.google_place_id);
  if (body.manager_user_id !== undefined) v.managerUserId = body.manager_user_id;
  if (body.hours !== undefined) v.hours = body.hours;
  if (body.review_links !== undefined) v.reviewLinks = mergeLinks(current, body.review_links);
  return v;
}
