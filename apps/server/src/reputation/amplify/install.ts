import type { Db } from '../../db/client.ts';
import type { Messenger } from '../../messaging/send.ts';
import type { Queue } from '../../pipeline/queue.ts';
import { matchReviews } from './match.ts';
import { sweepNotPosted } from './sweep.ts';

/** Reviews matched together per worker pass: one batch costs a few statements (bench/reputation/match.ts). */
export const MATCH_BATCH = 500;

function reviewIdOf(payload: Record<string, unknown>): number {
  const reviewId = Number(payload.reviewId);
  if (!Number.isInteger(reviewId)) throw new Error('match-review: the payload names no review');
  return reviewId;
}

/**
 * Review invitations on a worker (apps/server/src/pipeline/worker.ts calls it): the `match-review`
 * job the review ingest enqueues for each review it writes (reputation/ingest/ingest.ts), and a
 * loop closing invitations left unmatched past the window as `not_posted`.
 */
export function installAmplification(queue: Queue, db: Db, _messenger: Messenger): void {
  registerMatching(queue, db);
  queue.addLoop({ name: 'amplification-not-posted', run: (now) => sweepNotPosted(db, now) });
}

/** The `match-review` job, a claimed batch at a time (also bench/reputation/match.ts). */
export function registerMatching(queue: Queue, db: Db): void {
  queue.register(
    'match-review',
    async (payload, job) => {
      await matchReviews(db, [reviewIdOf(payload)], job.now);
    },
    {
      batchSize: MATCH_BATCH,
      batch: async (payloads, now) => {
        await matchReviews(db, payloads.map(reviewIdOf), now);
      },
    },
  );
}
