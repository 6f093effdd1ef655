import type { ProvidersConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Queue } from '../pipeline/queue.ts';
import type { Clock } from '../pipeline/types.ts';

/** Listing scans (`scan-listings` jobs) and the weekly schedule on a worker (issue 21, item 6). */
export function installListings(_queue: Queue, _db: Db, _clock: Clock, _providers: ProvidersConfig): void {}
