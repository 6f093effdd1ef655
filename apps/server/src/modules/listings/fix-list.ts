import {
  directoryLabel,
  exportMoment,
  FIX_LIST_COLUMNS,
  LISTING_FIELD_LABELS,
  LISTING_FIELDS,
  type ListingField,
  listingStatusLabel,
  NO_CONNECTION,
} from '@admin/shared';
import { eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, listings, locations } from '../../db/schema/index.ts';
import type { ExportPage } from '../../kit/csv-export.ts';
import type { ClientScope } from '../../kit/current-client.ts';
import { allOf } from '../../kit/keyset.ts';
import { canonicalOf } from './canonical.ts';
import { type ListingFilters, listingsWhere } from './repository.ts';

export { FIX_LIST_COLUMNS };

/** The Field cell of a listing not checked (its Directory value says why). */
export const NOT_CHECKED_FIELD = 'All fields';

type Hours = Record<string, { open: string; close: string } | null> | null;
const DAYS: [string, string][] = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
];

/** A week as a person reads it: "Mon 08:00–17:00; …; Sun closed". */
export function hoursText(hours: Hours): string {
  if (!hours) return '';
  return DAYS.map(([key, label]) => {
    const day = hours[key];
    return day ? `${label} ${day.open}–${day.close}` : `${label} closed`;
  }).join('; ');
}

/**
 * The fix list (domain.md §12, Export): one row per field of a listing that does not match, with
 * our value and the directory's (empty once the directory's was cleared after 30 days), and one
 * row per listing not checked (a directory without a connection), for the listings the screen's
 * filters choose, in id order (its keyset).
 */
export function fixListPages(db: Db, scope: ClientScope, q: ListingFilters): ExportPage {
  return async (cursor, limit) => {
    const after = cursor === undefined ? 0 : Number(cursor);
    const rows = await db
      .select({
        listing: listings,
        location: locations,
        zone: sql<string | null>`(select ${clients.timezone} from ${clients} where ${clients.id} = ${listings.clientId})`,
      })
      .from(listings)
      .innerJoin(locations, eq(locations.id, listings.locationId))
      .where(
        allOf([
          listingsWhere(scope, q),
          gt(listings.id, Number.isSafeInteger(after) ? after : 0),
          sql`(false in (${listings.nameMatch}, ${listings.addressMatch}, ${listings.phoneMatch}, ${listings.websiteMatch}, ${listings.hoursMatch}) or ${listings.status} = 'not_checked')`,
        ]),
      )
      .orderBy(listings.id)
      .limit(limit);
    const out = rows.flatMap(({ listing: l, location, zone }) => {
      const ours = canonicalOf(location);
      const verdict: Record<ListingField, boolean | null> = {
        name: l.nameMatch,
        address: l.addressMatch,
        phone: l.phoneMatch,
        website: l.websiteMatch,
        hours: l.hoursMatch,
      };
      const values: Record<ListingField, [string, string]> = {
        name: [ours.name, l.foundName ?? ''],
        address: [ours.address, l.foundAddress ?? ''],
        phone: [ours.phone, l.foundPhone ?? ''],
        website: [ours.website ?? '', l.foundWebsite ?? ''],
        hours: [hoursText(ours.hours), hoursText(l.foundHours)],
      };
      const row = {
        location: location.locationname,
        directory: directoryLabel(l.directory),
        listing_url: l.listingUrl ?? '',
        status: listingStatusLabel(l.status),
      };
      // A directory without a connection: one row saying so, as nothing in it could be compared.
      if (l.status === 'not_checked') return [{ ...row, field: NOT_CHECKED_FIELD, canonical: '', found: NO_CONNECTION, last_checked: '' }];
      const last_checked = exportMoment(l.lastCheckedAt?.toISOString() ?? null, zone);
      return LISTING_FIELDS.filter((f) => verdict[f] === false).map((field) => ({
        ...row,
        field: LISTING_FIELD_LABELS[field],
        canonical: values[field][0],
        found: values[field][1],
        last_checked,
      }));
    });
    const last = rows.at(-1);
    return { rows: out, nextCursor: rows.length === limit && last ? String(last.listing.id) : null };
  };
}
