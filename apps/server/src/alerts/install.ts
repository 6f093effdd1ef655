import type { Db } from '../db/client.ts';
import type { Messenger } from '../messaging/send.ts';
import type { Queue } from '../pipeline/queue.ts';
import { deliverDue } from './deliver.ts';
import { sendDigests } from './digest.ts';
import { escalateDue } from './escalate.ts';
import { evaluateResponses } from './evaluate.ts';
import { SWEEP_EVERY_MS, sweepNoResponse } from './no-response.ts';

/** Responses evaluated together per worker pass: one batch costs a handful of queries (bench/alerts). */
const EVALUATE_BATCH = 500;

function responseIdOf(payload: Record<string, unknown>): number {
  const responseId = Number(payload.responseId);
  if (!Number.isInteger(responseId)) throw new Error('evaluate-alerts: the payload names no response');
  return responseId;
}

/**
 * The alert engine on a worker (apps/server/src/pipeline/worker.ts calls it, in the server and in
 * `npm run worker` alike): the `evaluate-alerts` job each stored response enqueues
 * (apps/server/src/pipeline/response-stored.ts), and a loop that sweeps unanswered invitations
 * (at most hourly), delivers due events, sends digests at their hour and escalates.
 */
export function installAlerts(queue: Queue, db: Db, messenger: Messenger): void {
  registerEvaluation(queue, db);
  let lastSweep = Number.NEGATIVE_INFINITY;
  queue.addLoop({
    name: 'survey-alerts',
    async run(now) {
      let work = 0;
      if (now.getTime() - lastSweep >= SWEEP_EVERY_MS || now.getTime() < lastSweep) {
        lastSweep = now.getTime();
        work += await sweepNoResponse(db, now);
      }
      work += await deliverDue(db, messenger, now);
      work += await sendDigests(db, messenger, now);
      work += await escalateDue(db, messenger, now);
      return work;
    },
  });
}

/** The `evaluate-alerts` job each stored response enqueues, a claimed batch at a time (also bench/alerts). */
export function registerEvaluation(queue: Queue, db: Db): void {
  queue.register(
    'evaluate-alerts',
    async (payload, job) => {
      await evaluateResponses(db, [responseIdOf(payload)], job.now);
    },
    {
      batchSize: EVALUATE_BATCH,
      batch: async (payloads, now) => {
        await evaluateResponses(db, payloads.map(responseIdOf), now);
      },
    },
  );
}
