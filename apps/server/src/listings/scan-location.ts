import type { ListingStatus } from '@admin/shared';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
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
    // The listing itself first (not a duplicate of it): Google is read by the first id (Place Details).
    knownIds: existing
      .filter((e) => e.directory === directory && e.externalId && e.isMine !== false)
      .sort((a, b) => Number(a.duplicateOfId !== null) - Number(b.duplicateOfId !== null) || (b.score ?? -1) - (a.score ?? -1))
      .map((e) => e.externalId ?? ''),
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
    // Planned from the rows as they are now, locked: what a person did while the directories were
    // being read (Not mine, Set listing URL, Flag duplicate, Mark updated) is kept, never overwritten.
    const current = await tx.select().from(listings).where(eq(listings.locationId, location.id)).for('update');
    const plan: Plan = { inserts: [], duplicates: [], updates: [], deletes: [] };
    for (const { directory, judged } of answers) {
      const known = current.filter((e) => e.directory === directory);
      planDirectory(plan, { clientId: location.clientId, locationId: location.id, directory }, ours(judged, known), known, now);
    }
    await apply(tx, plan);
    if (scanId !== null)
      await tx
        .update(listingScans)
        .set({ done: sql`${listingScans.done} + 1`, updatedAt: now })
        .where(eq(listingScans.id, scanId));
  });
}

type Key = { clientId: number; locationId: string; directory: string };
type Insert = typeof listings.$inferInsert;

/**
 * A location's writes, gathered before any is made, so a first scan is two inserts (listings,
 * then their duplicates, which need the listings' ids) rather than one per directory; a rescan
 * updates the rows it read.
 */
type Plan = {
  inserts: Insert[];
  /** New duplicates, and the listing each duplicates: an existing id, or a new listing's external id. */
  duplicates: { row: Insert; of: number | string }[];
  updates: { id: number; values: Partial<Insert> }[];
  deletes: number[];
};

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

function planDirectory(plan: Plan, key: Key, found: Judged[], known: ListingRow[], now: Date): void {
  const [primary, ...duplicates] = found;
  const missingRow = known.find((k) => k.externalId === null);
  if (!primary) {
    // Nothing there: the listings it had are gone, or the one not-found row (rewritten by each scan).
    const gone = known.filter((k) => k.externalId !== null && k.isMine !== false && k.duplicateOfId === null);
    const notFound = { status: 'not_found', score: 0, lastCheckedAt: now, updatedAt: now } as const;
    for (const g of gone) plan.updates.push({ id: g.id, values: notFound });
    if (gone.length > 0) return;
    if (missingRow) plan.updates.push({ id: missingRow.id, values: notFound });
    else plan.inserts.push({ ...key, externalId: null, ...notFound });
    return;
  }
  if (missingRow) plan.deletes.push(missingRow.id);
  const primaryOf = planListing(plan, key, primary, known, null, now);
  for (const dup of duplicates) planListing(plan, key, dup, known, primaryOf, now);
}

/**
 * One found listing's write, keeping what people said of it (mine, duplicate, URL, pending
 * update); answers how a duplicate of it names it (its id, or its external id until inserted).
 */
function planListing(
  plan: Plan,
  key: Key,
  j: Judged,
  known: ListingRow[],
  duplicateOf: number | string | null,
  now: Date,
): number | string {
  const before = known.find((k) => k.externalId === j.found.externalId);
  const flagged = before?.duplicateOfId ?? null;
  // A duplicate's status is duplicate whatever its fields say; which listing it duplicates is set below.
  const kept = {
    isMine: before?.isMine ?? null,
    duplicateOfId: flagged ?? (duplicateOf === null ? null : 0),
    status: (before?.status ?? null) as ListingStatus | null,
  };
  const values = { ...valuesOf(j, now), status: statusOf(j.verdicts, j.found, kept), listingUrl: before?.listingUrl ?? j.found.url };
  if (before) {
    const of = flagged ?? (typeof duplicateOf === 'number' ? duplicateOf : null);
    plan.updates.push({ id: before.id, values: { ...values, duplicateOfId: of } });
    return before.id;
  }
  const row = { ...key, externalId: j.found.externalId, ...values };
  if (duplicateOf === null) plan.inserts.push(row);
  else plan.duplicates.push({ row, of: duplicateOf });
  return j.found.externalId ?? '';
}

async function apply(tx: Db, plan: Plan): Promise<void> {
  if (plan.deletes.length > 0) await tx.delete(listings).where(inArray(listings.id, plan.deletes));
  for (const u of plan.updates) await tx.update(listings).set(u.values).where(eq(listings.id, u.id));
  // One scan per client at a time (modules/listings/start-scan.ts), and the rows were read first: a
  // conflict here is a row another writer made meanwhile, left as it is.
  const inserted =
    plan.inserts.length === 0
      ? []
      : await tx
          .insert(listings)
          .values(plan.inserts)
          .onConflictDoNothing()
          .returning({ id: listings.id, externalId: listings.externalId });
  const idOf = new Map(inserted.map((r) => [r.externalId, r.id]));
  const duplicates = plan.duplicates.map(({ row, of }) => ({
    ...row,
    duplicateOfId: typeof of === 'number' ? of : (idOf.get(of) ?? null),
  }));
  if (duplicates.length > 0) await tx.insert(listings).values(duplicates).onConflictDoNothing();
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
