import type { Db } from '../db/client.ts';
import { insertJob } from './queue.ts';

/**
 * What follows a stored response, each a job of its own so that one failing never holds the other
 * back: `evaluate-alerts` (the survey alert rules) and `make-testimonial` (a comment given with
 * consent). Enqueued in the transaction that stores the response (`recordResponse`), so a response
 * never exists without them; the singleton key makes a second enqueue of the same response a no-op
 * while the first waits. Handlers run at least once, so each is idempotent.
 */
export const RESPONSE_JOBS = ['evaluate-alerts', 'make-testimonial'] as const;
export type ResponseJob = (typeof RESPONSE_JOBS)[number];

export async function afterResponseStored(tx: Db, responseId: number, at: Date): Promise<void> {
  for (const queue of RESPONSE_JOBS) await insertJob(tx, at, queue, { responseId }, { singletonKey: `${queue}:${responseId}` });
}
