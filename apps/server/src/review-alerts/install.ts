import type { Db } from '../db/client.ts';
import type { Messenger } from '../messaging/send.ts';
import type { Queue } from '../pipeline/queue.ts';
import { deliverDue } from './deliver.ts';
import { sendReviewDigests } from './digest.ts';
import { evaluateReviews } from './evaluate.ts';

/** Reviews evaluated together per worker pass: a batch costs a handful of queries per client. */
const EVALUATE_BATCH = 500;

function reviewIdOf(payload: Record<string, unknown>): number {
  const reviewId = Number(payload.reviewId);
  if (!Number.isInteger(reviewId)) throw new Error('evaluate-review-alerts: the payload names no review');
  return reviewId;
}

/**
 * The review alert engine on a worker (apps/server/src/pipeline/worker.ts calls it): the
 * `evaluate-review-alerts` job the ingest function enqueues for every review it stores or changes,
 * a claimed batch at a time, and a loop that sends due instant deliveries and digests at their time.
 */
export function installReviewAlerts(queue: Queue, db: Db, messenger: Messenger): void {
  registerReviewEvaluation(queue, db);
  queue.addLoop({
    name: 'review-alerts',
    async run(now) {
      return (await deliverDue(db, messenger, now)) + (await sendReviewDigests(db, messenger, now));
    },
  });
}

/** The `evaluate-review-alerts` job, a claimed batch at a time (also bench/reputation/review-alerts.ts). */
export function registerReviewEvaluation(queue: Queue, db: Db): void {
  queue.register(
    'evaluate-review-alerts',
    async (payload, job) => {
      await evaluateReviews(db, [reviewIdOf(payload)], job.now);
    },
    {
      batchSize: EVALUATE_BATCH,
      batch: async (payloads, now) => {
        await evaluateReviews(db, payloads.map(reviewIdOf), now);
      },
    },
  );
}
