import { LISTING_DIRECTORIES } from '@admin/shared';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { clients } from '../db/schema/index.ts';
import { demoSource } from '../listings/demo-directory.ts';
import { runScan } from '../listings/scans.ts';
import { startScan } from '../modules/listings/start-scan.ts';

const HOUR = 3_600_000;

/**
 * The demo's listings (issue 21, item 7): every active client's locations scanned from the
 * built-in demo directory through the product's own scan (a Scan now's scan row and job, run to
 * its end), one client an hour apart over the day before the anchor, so Last checked varies and
 * the weekly schedule takes over a week later. The demo directory gives each location one
 * directory with an old phone, and among the others missing hours, other websites, duplicates,
 * unclaimed and not-found listings (listings/demo-directory.ts).
 */
export async function seedListings(tx: Db, anchor: Date): Promise<void> {
  const sources = LISTING_DIRECTORIES.map((d) => demoSource(d.value));
  const rows = await tx.select({ id: clients.id }).from(clients).where(eq(clients.status, 'active')).orderBy(asc(clients.id));
  for (const [index, { id: clientId }] of rows.entries()) {
    const at = new Date(anchor.getTime() - (rows.length - index) * HOUR);
    const { scan } = await startScan(tx, { clientId, locationId: null, requestedBy: null }, at);
    await runScan({ db: tx, sources, now: () => at }, scan.id);
  }
}
