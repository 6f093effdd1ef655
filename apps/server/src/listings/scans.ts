import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { listingScans, listings, locations } from '../db/schema/index.ts';
import { SCAN_JOB, type ScanRow } from '../modules/listings/start-scan.ts';
import { insertJob } from '../pipeline/queue.ts';
import { pendingLocations, scanLocation } from './scan-location.ts';
import type { ListingSource } from './sources.ts';

/** Locations read per query while scanning. */
const PAGE = 50;
/** How long one job run scans before it hands the rest to a new job, well inside the queue's 5-minute lease. */
const RUN_BUDGET_MS = 120_000;
const MAX_ERROR = 500;

export type ScanDeps = { db: Db; sources: readonly ListingSource[]; now(): Date; budgetMs?: number };

/**
 * Runs a scan location by location, counting `done` and `failed` as it goes. Resumable: a job run
 * again (its worker died, or the last run spent its budget) recounts what was checked since the
 * scan started and goes on with the rest; a location that failed is tried once more then.
 */
export async function runScan(deps: ScanDeps, scanId: number): Promise<void> {
  const { db } = deps;
  const [found] = await db.select().from(listingScans).where(eq(listingScans.id, scanId)).limit(1);
  if (!found || !['queued', 'running'].includes(found.status)) return;
  const startedAt = found.startedAt ?? deps.now();
  const done = await checkedSince(db, found, startedAt);
  await db
    .update(listingScans)
    .set({ status: 'running', startedAt, done, failed: 0, error: null, updatedAt: deps.now() })
    .where(eq(listingScans.id, scanId));
  const began = Date.now();
  let failed = 0;
  let error: string | null = null;
  let after = '';
  for (;;) {
    if (Date.now() - began > (deps.budgetMs ?? RUN_BUDGET_MS)) {
      // The rest goes to a new job: this one ends before its lease does.
      await db.update(listingScans).set({ failed, error, updatedAt: deps.now() }).where(eq(listingScans.id, scanId));
      await insertJob(db, deps.now(), SCAN_JOB, { scanId });
      return;
    }
    const page = await pendingLocations(db, found, startedAt, after, PAGE);
    if (page.length === 0) break;
    for (const location of page) {
      after = location.id;
      try {
        await scanLocation(db, deps.sources, location, scanId, deps.now());
      } catch (err) {
        failed++;
        error = `${location.locationname}: ${err instanceof Error ? err.message : String(err)}`.slice(0, MAX_ERROR);
        await db.update(listingScans).set({ failed, error, updatedAt: deps.now() }).where(eq(listingScans.id, scanId));
      }
    }
  }
  const [last] = await db.select({ done: listingScans.done }).from(listingScans).where(eq(listingScans.id, scanId));
  const status = failed === 0 ? 'succeeded' : (last?.done ?? 0) === 0 ? 'failed' : 'partial';
  const now = deps.now();
  await db.update(listingScans).set({ status, failed, error, finishedAt: now, updatedAt: now }).where(eq(listingScans.id, scanId));
}

/** How many of a scan's locations have been checked since it started. */
async function checkedSince(db: Db, scan: ScanRow, startedAt: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${listings.locationId})::int` })
    .from(listings)
    .innerJoin(locations, eq(locations.id, listings.locationId))
    .where(
      and(
        eq(listings.clientId, scan.clientId),
        scan.locationId ? eq(listings.locationId, scan.locationId) : eq(locations.status, 'active'),
        gte(listings.lastCheckedAt, startedAt),
      ),
    );
  return Number(row?.n ?? 0);
}
