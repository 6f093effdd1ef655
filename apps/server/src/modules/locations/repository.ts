import { randomBytes } from 'node:crypto';
import {
  isIdText,
  type Location,
  type LocationCreate,
  type LocationListQuery,
  locationIdParamSchema,
  locationResource,
  type OptionsAnswer,
  type OptionsQuery,
} from '@admin/shared';
import { checkLocationExtras } from '@admin/shared/resources/location-extras';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, clientUsers, locations, users } from '../../db/schema/index.ts';
import { type ClientScope, clientScopeOf, inClientScope } from '../../kit/current-client.ts';
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
import { pagedOptions } from '../../kit/options.ts';
import type { ResourceStore } from '../../kit/resource-store.ts';
import { countMatching } from '../../kit/totals.ts';
import { fieldsRefused, notFound } from '../../lib/http-error.ts';

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

export function locationWhere(q: Filters, scope: ClientScope): SQL | undefined {
  const like = containsPattern(q.q);
  return allOf([
    inClientScope(locations.clientId, scope),
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
  q: Filters & { sort?: LocationListQuery['sort']; order?: 'asc' | 'desc'; cursor?: string | undefined },
  clientId: number | null,
  limit: number,
): Promise<{ rows: Location[]; nextCursor: string | null }> {
  const keys = SORTS[q.sort ?? 'locationname'];
  const order = q.order ?? 'asc';
  const where = allOf([
    locationWhere(q, clientScopeOf(q.client, clientId)),
    q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined,
  ]);
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

export async function countLocations(db: Db, q: Filters, clientId: number | null) {
  const where = locationWhere(q, clientScopeOf(q.client, clientId));
  return countMatching(db, sql`from ${locations}${where ? sql` where ${where}` : sql``}`);
}

/** One location as answered: with its client's name and its personnel count. */
export async function findLocation(db: Db, id: string): Promise<Location> {
  const [r] = await db
    .select({ row: locations, clientName: clients.name, personnelCount })
    .from(locations)
    .innerJoin(clients, eq(clients.id, locations.clientId))
    .where(eq(locations.id, id))
    .limit(1);
  if (!r) throw notFound('Location');
  return toLocation(r.row, r.clientName, r.personnelCount);
}

/**
 * Options of a picker that pages on the server (`optionsQuerySchema`): at most `perPage` rows of
 * `page` (what matches the search), then the chosen `values` not among them, whatever they are.
 */
async function optionsOf(
  q: OptionsQuery,
  page: (limit: number) => Promise<{ value: string; label: string }[]>,
  chosen: (values: string[]) => Promise<{ value: string; label: string }[]>,
): Promise<OptionsAnswer> {
  const rows = await page(q.perPage + 1);
  const found = rows.slice(0, q.perPage);
  const missing = (q.value ?? []).filter((v) => !found.some((r) => r.value === v));
  return { data: [...found, ...(missing.length > 0 ? await chosen(missing) : [])], more: rows.length > q.perPage };
}

/**
 * The client's locations as options (`GET /api/endpoints/options`): by name, at most `perPage`
 * matching `q` (archived ones left out), then the chosen ones whatever they are, so their labels show.
 */
export function locationOptions(db: Db, clientId: number, q: OptionsQuery): Promise<OptionsAnswer> {
  const like = containsPattern(q.q);
  const select = (where: SQL | undefined) =>
    db
      .select({ value: locations.id, label: locations.locationname })
      .from(locations)
      .where(allOf([sql`${locations.clientId} = ${clientId}`, where]))
      .orderBy(sql`lower(${locations.locationname})`, locations.id);
  return optionsOf(
    q,
    (limit) =>
      select(allOf([sql`${locations.status} <> 'inactive'`, like ? sql`${locations.locationname} ilike ${like}` : undefined])).limit(limit),
    (values) => select(inList(sql`${locations.id}`, values)),
  );
}

/** Clients as options of the Clients filter (`GET /api/endpoints/client-options`), paged like `locationOptions`. */
export function clientOptions(db: Db, q: OptionsQuery): Promise<OptionsAnswer> {
  const like = containsPattern(q.q);
  const select = (where: SQL | undefined) =>
    db
      .select({ value: sql<string>`${clients.id}::text`, label: clients.name })
      .from(clients)
      .where(where)
      .orderBy(sql`lower(${clients.name})`, clients.id);
  return optionsOf(
    q,
    (limit) => select(allOf([sql`${clients.status} <> 'inactive'`, like ? sql`${clients.name} ilike ${like}` : undefined])).limit(limit),
    (values) => {
      const ids = values.filter(isIdText).map(Number);
      return ids.length > 0 ? select(inList(sql`${clients.id}`, ids)) : Promise.resolve([]);
    },
  );
}

/**
 * The users of one client as the Manager's options (`GET /api/endpoints/options/manager`): by name,
 * at most `perPage` matching `q`, then the chosen ones that are the client's users — the same set
 * `assertClientUser` accepts.
 */
export function managerOptions(db: Db, clientId: number, q: OptionsQuery): Promise<OptionsAnswer> {
  return pagedOptions(
    db,
    q,
    {
      value: sql`${users.id}`,
      label: sql`${users.name}`,
      from: sql`${clientUsers} inner join ${users} on ${users.id} = ${clientUsers.userId}`,
      where: sql`${clientUsers.clientId} = ${clientId}`,
    },
    isIdText,
  );
}

/** 422 unless the manager (if any) is one of the client's users. */
async function assertClientUser(db: Db, clientId: number, userId: number | null | undefined): Promise<void> {
  if (!userId) return;
  const [row] = await db
    .select({ id: clientUsers.userId })
    .from(clientUsers)
    .where(and(eq(clientUsers.clientId, clientId), eq(clientUsers.userId, userId)))
    .limit(1);
  if (!row) throw fieldsRefused({ manager_user_id: ['Choose a user of this client'] }, locationResource.labels);
}

/** The review links after applying `changes` (a null or empty URL removes that site). */
function mergeLinks(current: Record<string, string>, changes: NonNullable<LocationCreate['review_links']>): Record<string, string> {
  const next = { ...current };
  for (const [site, url] of Object.entries(changes)) {
    if (url === null || url === undefined || url.trim() === '') delete next[site];
    else next[site] = url.trim();
  }
  return next;
}

/** Column values from a create/update body, trimmed; empty optional text becomes null. `before` = the row an update changes. */
export function locationValues(body: Partial<LocationCreate>, before?: LocationRow): Partial<typeof locations.$inferInsert> {
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
  if (body.review_links !== undefined) v.reviewLinks = mergeLinks(before?.reviewLinks ?? {}, body.review_links);
  return v;
}

/**
 * How locations read, write and page, for the kit's resource routes. A new location gets a
 * 24-hex id and its client's root team; hours and review links are checked by the form's rules
 * (location-extras.ts), and a manager must be a user of the location's client.
 */
export const locationStore: ResourceStore<Location, LocationRow, LocationCreate, LocationListQuery, number | null> = {
  table: locations,
  toRecord: toLocation,
  values: (body, at) =>
    at?.before
      ? locationValues(body, at.before)
      : {
          ...locationValues(body),
          id: newLocationId(),
          teamId: sql`(select ${clients.rootTeamId} from ${clients} where ${clients.id} = ${at?.clientId ?? null})`,
        },
  list: listLocations,
  count: countLocations,
  reload: findLocation,
  nameOf: (row) => row.locationname,
  idParams: locationIdParamSchema,
  ownerOf: (body) => body.client_id,
  uniqueColumn: locations.externalCode,
  optionColumns: { state: locations.state },
  async check(db, body, before, request) {
    const errors = await checkLocationExtras(body);
    if (Object.keys(errors).length > 0) throw fieldsRefused(errors, locationResource.labels);
    const clientId = before?.clientId ?? body.client_id ?? request.auth?.user.currentClientId;
    if (clientId) await assertClientUser(db, clientId, body.manager_user_id);
  },
};
