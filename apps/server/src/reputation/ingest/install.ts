import type { ProvidersConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { SecretBox } from '../../pipeline/ingest/secret.ts';
import type { Queue } from '../../pipeline/queue.ts';
import type { Clock } from '../../pipeline/types.ts';
import { claimDueSources, pullAndRecord, pullEnabled } from './google-pull.ts';

/** Locations one poll pulls at most: a pull waits on the network, and the worker's other work waits on the poll. */
const PER_POLL = 2;

/**
 * The scheduled Google Business Profile review pull on a worker (issue 21, item 1): each poll
 * claims due locations (google-pull.ts `claimDueSources`, skip locked) and pulls them. Off
 * without an OAuth client configured.
 */
export function installReviewPulls(
  queue: Queue,
  db: Db,
  _clock: Clock,
  options: { secrets: SecretBox; providers: ProvidersConfig; backoffMs?: number },
): void {
  if (!pullEnabled(options.providers)) return;
  const ctx = { db, ...options };
  queue.addLoop({
    name: 'review-pulls',
    async run(now) {
      const due = await claimDueSources(db, now, PER_POLL);
      for (const source of due) await pullAndRecord(ctx, source, now);
      return due.length;
    },
  });
}
