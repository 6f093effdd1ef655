import type { Listing, ListingListQuery } from '@admin/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, listings, locations } from '../../db/schema/index.ts';
import { type ClientScope, inClientScope } from '../../kit/current-client.ts';
import { allOf, inList, prefixPattern, type SortSpec } from '../../kit/keyset.ts';
import { keysetPage, resourceSort, whereClause } from '../../kit/keyset-page.ts';
import { countMatching } from '../../kit/totals.ts';

/**
 * The Listings Tool's list: a client's listings (the listings_client_idx index leads with the
 * client), with the location's name joined and the client's name and zone looked up by key.
 */

const id = { expr: sql`${listings.id}`, cast: 'integer' } as const;
const SORTS = {
  location_name: { expr: sql`${locations.locationname}`, cast: 'text' },
  directory: { expr: sql`${listings.directory}`, cast: 'text' },
  score: { expr: sql`coalesce(${listings.score}, -1)`, cast: 'integer' },
  status: { expr: sql`${listings.status}`, cast: 'text' },
  // A directory not checked shows no Last checked (toListing), and sorts as never checked.
  last_checked_at: {
    expr: sql`case when ${listings.status} = 'not_checked' then 'epoch'::timestamptz else coalesce(${listings.lastCheckedAt}, 'epoch'::timestamptz) end`,
    cast: 'timestamptz',
  },
} as const;

export type ListingFilters = Omit<ListingListQuery, 'perPage' | 'cursor' | 'sort' | 'order'>;

/** The conditions of a list, count or export, within the clients in scope. */
export function listingsWhere(scope: ClientScope, q: ListingFilters): SQL | undefined {
  const term = q.q?.trim().toLowerCase();
  return allOf([
    inClientScope(listings.clientId, scope),
    inList(sql`${listings.locationId}`, q.location),
    inList(sql`${listings.directory}`, q.directory),
    inList(sql`${listings.status}`, q.status),
    q.score_below === undefined ? undefined : sql`${listings.score} < ${q.score_below}`,
    term ? sql`lower(${locations.locationname}) like ${prefixPattern(term)}` : undefined,
  ]);
}

const fields = {
  listing: listings,
  locationName: locations.locationname,
  clientName: sql<string | null>`(select ${clients.name} from ${clients} where ${clients.id} = ${listings.clientId})`,
  clientTimezone: sql<string | null>`(select ${clients.timezone} from ${clients} where ${clients.id} = ${listings.clientId})`,
};

type Selected = { listing: typeof listings.$inferSelect; locationName: string; clientName: string | null; clientTimezone: string | null };

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function toListing(r: Selected): Listing {
  const l = r.listing;
  return {
    id: l.id,
    client_id: l.clientId,
    client_name: r.clientName,
    client_timezone: r.clientTimezone,
    location_id: l.locationId,
    location_name: r.locationName,
    directory: l.directory as Listing['directory'],
    listing_url: l.listingUrl,
    external_id: l.externalId,
    name_match: l.nameMatch,
    address_match: l.addressMatch,
    phone_match: l.phoneMatch,
    website_match: l.websiteMatch,
    hours_match: l.hoursMatch,
    score: l.score,
    listing_status: l.status as Listing['listing_status'],
    is_mine: l.isMine,
    duplicate_of_id: l.duplicateOfId,
    note: l.note,
    found_name: l.foundName,
    found_address: l.foundAddress,
    found_phone: l.foundPhone,
    found_website: l.foundWebsite,
    // A scan writes the time it found no connection (its progress counts by it); nothing was checked then.
    last_checked_at: l.status === 'not_checked' ? null : iso(l.lastCheckedAt),
    updated_at: l.updatedAt.toISOString(),
  };
}

/** One keyset page in the chosen sort (then id); Location A–Z by default. */
export async function listingPage(db: Db, scope: ClientScope, q: ListingListQuery, limit: number) {
  const { keys, order } = resourceSort(SORTS as Record<keyof typeof SORTS, SortSpec[number]>, id, q, {
    sort: 'location_name',
    order: 'asc',
  });
  const { page, nextCursor } = await keysetPage({ keys, order, where: listingsWhere(scope, q), cursor: q.cursor, limit }, (parts) =>
    db
      .select({ ...fields, ...parts.fields })
      .from(listings)
      .innerJoin(locations, eq(locations.id, listings.locationId))
      .where(parts.where)
      .orderBy(...parts.orderBy)
      .limit(parts.limit),
  );
  return { rows: page.map(toListing), nextCursor };
}

export function countListings(db: Db, scope: ClientScope, q: ListingFilters) {
  return countMatching(
    db,
    sql`from ${listings} inner join ${locations} on ${locations.id} = ${listings.locationId}${whereClause(listingsWhere(scope, q))}`,
  );
}

/** One listing of the clients in scope, with its names. */
export async function findListing(db: Db, clientId: number, listingId: number): Promise<Listing | undefined> {
  const [row] = await db
    .select(fields)
    .from(listings)
    .innerJoin(locations, eq(locations.id, listings.locationId))
    .where(allOf([eq(listings.clientId, clientId), eq(listings.id, listingId)]))
    .limit(1);
  return row ? toListing(row) : undefined;
}
