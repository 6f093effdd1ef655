import type { ListingStatus } from '@admin/shared';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { listingScans, listings, locations } from '../db/schema/index.ts';
import { canonicalOf } from '../modules/listings/canonical.ts';
import { compareFields, type Found, napMatches, scoreOf, statusOf, type Verdicts } from './compare.ts';
import type { ListingSource, ScanTarget } from './sources.ts';

type LocationRow = typeof locations.$inferSelect;
type ListingRow = typeof listings.$inferSelect;

/** A candidate compared: what it holds and how it fares. */
type Judged = { found: Found; verdicts: Verdicts; score: number | null };

/**
 * Which of a directory's candidates are this business: those matching two of name, address and
 * phone, or carrying an id marked as mine; best score first. The first is the listing, the others
 * its duplicates.
 */
function ours(candidates: Judged[], known: ListingRow[]): Judged[] {
  const mine = new Set(known.filter((k) => k.isMine === true && k.externalId).map((k) => k.externalId));
  return candidates
    .filter((c) => napMatches(c.verdicts) >= 2 || (c.found.externalId !== null && mine.has(c.found.externalId)))
    .sort((a, b) => (b.score ?? -1) - (a.score ?? -1));
}

/**
 * Reads every directory for one location and writes what each holds, with the scan's progress,
 * in one transaction: a location is scanned wholly or not at all, so a resumed scan starts at the
 * next one. A directory's error fails the location (nothing written); the scan counts it.
 */
export async function scanLocation(db: Db, sources: readonly ListingSource[], location: LocationRow, scanId: number | null, now: Date) {
  const existing = await db.select().from(listings).where(eq(listings.locationId, location.id));
  const canonical = canonicalOf(location);
  const target = (directory: string): ScanTarget => ({
    locationId: location.id,
    canonical,
    parts: {
      address1: location.address1,
      city: location.city,
      state: location.state,
      postalCode: location.postalCode,
      country: location.country,
    },
    googlePlaceId: location.googlePlaceId,
    knownIds: existing.filter((e) => e.directory === directory && e.externalId && e.isMine !== false).map((e) => e.externalId ?? ''),
  });
  const answers = await Promise.all(
    sources.map(async (source) => {
      const found = await source.lookup(target(source.directory));
      const judged = found.map((f) => {
        const verdicts = compareFields(canonical, f, source.provides);
        return { found: f, verdicts, score: scoreOf(verdicts) };
      });
      return { directory: source.directory, judged };
    }),
  );
  await db.transaction(async (tx) => {
    for (const { directory, judged } of answers) {
      const known = existing.filter((e) => e.directory === directory);
      await writeDirectory(tx, { clientId: location.clientId, locationId: location.id, directory }, ours(judged, known), known, now);
    }
    if (scanId !== null)
      await tx
        .update(listingScans)
        .set({ done: sql`${listingScans.done} + 1`, updatedAt: now })
        .where(eq(listingScans.id, scanId));
  });
}

type Key = { clientId: number; locationId: string; directory: string };

/** The verdicts and found values of a listing as columns. */
const valuesOf = (j: Judged, now: Date) => ({
  foundName: j.found.name,
  foundAddress: j.found.address,
  foundPhone: j.found.phone,
  foundWebsite: j.found.website,
  foundHours: j.found.hours,
  foundAt: now,
  nameMatch: j.verdicts.name,
  addressMatch: j.verdicts.address,
  phoneMatch: j.verdicts.phone,
  websiteMatch: j.verdicts.website,
  hoursMatch: j.verdicts.hours,
  score: j.score,
  lastCheckedAt: now,
  updatedAt: now,
});

async function writeDirectory(tx: Db, key: Key, found: Judged[], known: ListingRow[], now: Date) {
  const [primary, ...duplicates] = found;
  const missingRow = known.find((k) => k.externalId === null);
  if (!primary) {
    // Nothing there: the one not-found row, rewritten by each scan (the schema's partial unique index).
    const gone = known.filter((k) => k.externalId !== null && k.isMine !== false && k.duplicateOfId === null);
    if (gone.length > 0) {
      await tx
        .update(listings)
        .set({ status: 'not_found', score: 0, lastCheckedAt: now, updatedAt: now })
        .where(
          inArray(
            listings.id,
            gone.map((g) => g.id),
          ),
        );
      return;
    }
    const notFound = { status: 'not_found', score: 0, lastCheckedAt: now, updatedAt: now } as const;
    await tx
      .insert(listings)
      .values({ ...key, externalId: null, ...notFound })
      .onConflictDoUpdate({ target: [listings.locationId, listings.directory], targetWhere: isNull(listings.externalId), set: notFound });
    return;
  }
  if (missingRow) await tx.delete(listings).where(eq(listings.id, missingRow.id));
  const primaryId = await upsert(tx, key, primary, known, null, now);
  for (const dup of duplicates) await upsert(tx, key, dup, known, primaryId, now);
}

/** Writes one found listing, keeping what people said of it (mine, duplicate, URL, pending update). */
async function upsert(tx: Db, key: Key, j: Judged, known: ListingRow[], duplicateOf: number | null, now: Date): Promise<number> {
  const before = known.find((k) => k.externalId === j.found.externalId);
  const kept = {
    isMine: before?.isMine ?? null,
    duplicateOfId: before?.duplicateOfId ?? duplicateOf,
    status: (before?.status ?? null) as ListingStatus | null,
  };
  const status = statusOf(j.verdicts, j.found, kept);
  const values = {
    ...valuesOf(j, now),
    status,
    duplicateOfId: kept.duplicateOfId,
    listingUrl: before?.listingUrl ?? j.found.url,
  };
  if (before) {
    await tx.update(listings).set(values).where(eq(listings.id, before.id));
    return before.id;
  }
  const [row] = await tx
    .insert(listings)
    .values({ ...key, externalId: j.found.externalId, ...values })
    .onConflictDoUpdate({
      target: [listings.locationId, listings.directory, listings.externalId],
      targetWhere: sql`${listings.externalId} is not null`,
      set: values,
    })
    .returning({ id: listings.id });
  if (!row) throw new Error('The listing was not written');
  return row.id;
}

/**
 * Locations of a scan still to do, in id order after `after`: the one asked, or the client's
 * active ones, not yet checked since the scan started (so a resumed scan skips what is done).
 */
export function pendingLocations(db: Db, scan: typeof listingScans.$inferSelect, startedAt: Date, after: string, limit: number) {
  const checked = sql`exists (select 1 from ${listings} where ${listings.locationId} = ${locations.id} and ${listings.lastCheckedAt} >= ${startedAt.toISOString()}::timestamptz)`;
  return db
    .select()
    .from(locations)
    .where(
      and(
        eq(locations.clientId, scan.clientId),
        scan.locationId ? eq(locations.id, scan.locationId) : eq(locations.status, 'active'),
        sql`not ${checked}`,
        gt(locations.id, after),
      ),
    )
    .orderBy(locations.id)
    .limit(limit);
}
