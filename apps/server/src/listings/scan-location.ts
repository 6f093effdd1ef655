import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { listingScans, listings, locations } from '../db/schema/index.ts';
import { canonicalOf } from '../modules/listings/canonical.ts';
import { compareFields, napMatches, scoreOf } from './compare.ts';
import { emptyPlan, type Judged, type ListingRow, planDirectory, planNotChecked } from './scan-plan.ts';
import { applyPlan } from './scan-write.ts';
import type { ListingSource, ScanTarget } from './sources.ts';

type LocationRow = typeof locations.$inferSelect;

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
 * next one. A directory's error fails the location (nothing written); the scan counts it. A
 * directory without a connection is not read; its listings are written as not checked.
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
    // The listing itself first (not a duplicate of it): Google is read by the first id (Place Details).
    knownIds: existing
      .filter((e) => e.directory === directory && e.externalId && e.isMine !== false)
      .sort((a, b) => Number(a.duplicateOfId !== null) - Number(b.duplicateOfId !== null) || (b.score ?? -1) - (a.score ?? -1))
      .map((e) => e.externalId ?? ''),
  });
  const answers = await Promise.all(
    sources.map(async (source) => {
      if (!source.connected) return { directory: source.directory, judged: null };
      const found = await source.lookup(target(source.directory));
      const judged = found.map((f) => {
        const verdicts = compareFields(canonical, f, source.provides);
        return { found: f, verdicts, score: scoreOf(verdicts) };
      });
      return { directory: source.directory, judged };
    }),
  );
  await db.transaction(async (tx) => {
    // Planned from the rows as they are now, locked: what a person did while the directories were
    // being read (Not mine, Set listing URL, Flag duplicate, Mark updated) is kept, never overwritten.
    const current = await tx.select().from(listings).where(eq(listings.locationId, location.id)).for('update');
    const plan = emptyPlan();
    for (const { directory, judged } of answers) {
      const known = current.filter((e) => e.directory === directory);
      const key = { clientId: location.clientId, locationId: location.id, directory };
      if (judged === null) planNotChecked(plan, key, known, now);
      else planDirectory(plan, key, ours(judged, known), known, now);
    }
    await applyPlan(tx, plan);
    if (scanId !== null)
      await tx
        .update(listingScans)
        .set({ done: sql`${listingScans.done} + 1`, updatedAt: now })
        .where(eq(listingScans.id, scanId));
  });
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
