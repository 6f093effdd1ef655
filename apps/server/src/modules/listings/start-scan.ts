import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { listingScans, locations } from '../../db/schema/index.ts';
import { insertJob } from '../../pipeline/queue.ts';

/** The job that runs a scan, payload `{ scanId }`. */
export const SCAN_JOB = 'scan-listings';
/**
 * A queued or running scan not moved on for this long has lost its job (its worker died, or the job
 * failed for good): a running scan writes its progress after every location, and a location's
 * provider calls are bounded well below this.
 */
export const SCAN_STALE_MS = 15 * 60_000;
/** The advisory-lock namespace of starting a client's scan (the second key is the client id). */
const SCAN_LOCK = 52_001;

export type ScanRow = typeof listingScans.$inferSelect;

/**
 * Starts a scan of one location or of every active location of a client, with its job, in one
 * transaction; answers the scan already queued or running for the client instead when there is
 * one (one scan per client at a time; the lock makes two requests agree).
 */
export async function startScan(
  db: Db,
  input: { clientId: number; locationId: string | null; requestedBy: number | null },
  now: Date,
  audit?: (tx: Db, scan: ScanRow) => Promise<void>,
): Promise<{ scan: ScanRow; started: boolean }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SCAN_LOCK}::int, ${input.clientId}::int)`);
    const [running] = await tx
      .select()
      .from(listingScans)
      .where(and(eq(listingScans.clientId, input.clientId), inArray(listingScans.status, ['queued', 'running'])))
      .limit(1);
    if (running && running.updatedAt.getTime() > now.getTime() - SCAN_STALE_MS) return { scan: running, started: false };
    if (running) {
      // Said on screen (the scan's status and error), so a lost scan never blocks the client's next one.
      await tx
        .update(listingScans)
        .set({
          status: 'failed',
          error: 'The scan stopped without finishing (its worker stopped or its job failed).',
          finishedAt: now,
          updatedAt: now,
        })
        .where(eq(listingScans.id, running.id));
    }
    const [{ total } = { total: 0 }] = await tx
      .select({ total: count() })
      .from(locations)
      .where(
        and(eq(locations.clientId, input.clientId), input.locationId ? eq(locations.id, input.locationId) : eq(locations.status, 'active')),
      );
    const [scan] = await tx
      .insert(listingScans)
      .values({ ...input, status: 'queued', total, createdAt: now, updatedAt: now })
      .returning();
    if (!scan) throw new Error('The scan was not written');
    await insertJob(tx, now, SCAN_JOB, { scanId: scan.id });
    await audit?.(tx, scan);
    return { scan, started: true };
  });
}
