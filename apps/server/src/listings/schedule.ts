import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { clients, listingScans, listings, locations } from '../db/schema/index.ts';
import { startScan } from '../modules/listings/start-scan.ts';
import type { WorkerLoop } from '../pipeline/queue.ts';
import type { Clock } from '../pipeline/types.ts';

const DAY_MS = 86_400_000;
/** Each client's locations are scanned once a week. */
export const SCAN_EVERY_MS = 7 * DAY_MS;
/** Found values are kept this long after they were read (Google's terms: place ids only, for good). */
export const FOUND_KEPT_MS = 30 * DAY_MS;
/** The loops look at most this often (clock time): each pass is a query over every client. */
const LOOK_EVERY_MS = 10 * 60_000;
const CLIENTS_PER_PASS = 50;
const CLEARED_PER_PASS = 5000;

/**
 * The weekly schedule: every active client with active locations whose last scan is a week old
 * gets a scheduled scan. A client never scanned is left until someone scans it once (Scan now, or
 * the demo data): provider calls cost money per request (docs/decisions/052). Few clients per
 * pass; the next pass takes the rest.
 */
export async function scheduleWeeklyScans(db: Db, now: Date): Promise<number> {
  const due = new Date(now.getTime() - SCAN_EVERY_MS).toISOString();
  const last = sql`(select max(${listingScans.createdAt}) from ${listingScans} where ${listingScans.clientId} = ${clients.id})`;
  const rows = await db
    .select({ id: clients.id })
    .from(clients)
    .where(
      and(
        eq(clients.status, 'active'),
        sql`${last} < ${due}::timestamptz`,
        sql`exists (select 1 from ${locations} where ${locations.clientId} = ${clients.id} and ${locations.status} = 'active')`,
      ),
    )
    .orderBy(clients.id)
    .limit(CLIENTS_PER_PASS);
  let started = 0;
  for (const { id } of rows) {
    const { started: isNew } = await startScan(db, { clientId: id, locationId: null, requestedBy: null }, now);
    if (isNew) started++;
  }
  return started;
}

/** Clears found values read more than 30 days ago; verdicts, score, status and external ids stay. */
export async function clearOldFoundValues(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - FOUND_KEPT_MS);
  const old = db
    .select({ id: listings.id })
    .from(listings)
    .where(and(isNotNull(listings.foundAt), lt(listings.foundAt, before)))
    .limit(CLEARED_PER_PASS);
  const cleared = await db
    .update(listings)
    .set({ foundName: null, foundAddress: null, foundPhone: null, foundWebsite: null, foundHours: null, foundAt: null })
    .where(sql`${listings.id} in (${old})`)
    .returning({ id: listings.id });
  return cleared.length;
}

/** Both as one worker loop, looking at most every 10 minutes of clock time. */
export function listingLoop(db: Db, clock: Clock): WorkerLoop {
  let lookedAt = Number.NEGATIVE_INFINITY;
  return {
    name: 'listings-schedule',
    async run(now) {
      const t = clock.now().getTime();
      if (t - lookedAt < LOOK_EVERY_MS) return 0;
      lookedAt = t;
      const cleared = await clearOldFoundValues(db, now);
      await scheduleWeeklyScans(db, now);
      // Cleared rows are work done; a started scan is a job the queue finds on its next pass.
      return cleared === CLEARED_PER_PASS ? 1 : 0;
    },
  };
}
