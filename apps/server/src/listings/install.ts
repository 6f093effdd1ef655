import { LISTING_DIRECTORIES } from '@admin/shared';
import type { ProvidersConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { SCAN_JOB } from '../modules/listings/start-scan.ts';
import type { Queue } from '../pipeline/queue.ts';
import type { Clock } from '../pipeline/types.ts';
import { demoSource } from './demo-directory.ts';
import { googlePlacesSource, yelpSource } from './providers.ts';
import { runScan } from './scans.ts';
import { listingLoop } from './schedule.ts';
import { type ListingSource, notConnected } from './sources.ts';

/**
 * The directories a scan reads: Google through Places and Yelp through Fusion when their keys are
 * set; every other directory (and those two without a key) from the built-in demo directory when
 * configuration says so (the demo), else not checked — never invented data shown as real
 * (docs/decisions/052-listings-scan-and-score.md).
 */
export function listingSources(providers: ProvidersConfig): ListingSource[] {
  const { googlePlaces, yelp, allowPrivateHosts, demoDirectory } = providers;
  return LISTING_DIRECTORIES.map(({ value }) => {
    if (value === 'google' && googlePlaces.apiKey)
      return googlePlacesSource({ ...googlePlaces, apiKey: googlePlaces.apiKey }, allowPrivateHosts);
    if (value === 'yelp' && yelp.apiKey) return yelpSource({ ...yelp, apiKey: yelp.apiKey }, allowPrivateHosts);
    return demoDirectory ? demoSource(value) : notConnected(value);
  });
}

/** Listing scans (`scan-listings` jobs) and the weekly schedule on a worker (issue 21, item 6). */
export function installListings(queue: Queue, db: Db, clock: Clock, providers: ProvidersConfig): void {
  const sources = listingSources(providers);
  queue.register(
    SCAN_JOB,
    async (payload) => {
      const scanId = Number(payload.scanId);
      if (Number.isSafeInteger(scanId)) await runScan({ db, sources, now: () => clock.now() }, scanId);
    },
    { batchSize: 1 },
  );
  queue.addLoop(listingLoop(db, clock));
}
