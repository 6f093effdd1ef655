import type { Db } from '../db/client.ts';
import type { Messenger } from '../messaging/send.ts';
import type { Queue } from '../pipeline/queue.ts';
import { deliverDue } from './deliver.ts';
import { sendDigests } from './digest.ts';
import { escalateDue } from './escalate.ts';
import { evaluateResponse } from './evaluate.ts';
import { SWEEP_EVERY_MS, sweepNoResponse } from './no-response.ts';

/**
 * The alert engine on a worker (apps/server/src/pipeline/worker.ts calls it, in the server and in
 * `npm run worker` alike): the `evaluate-alerts` job each stored response enqueues
 * (apps/server/src/pipeline/response-stored.ts), and a loop that sweeps unanswered invitations
 * (at most hourly), delivers due events, sends digests at their hour and escalates.
 */
export function installAlerts(queue: Queue, db: Db, messenger: Messenger): void {
  queue.register('evaluate-alerts', async (payload, job) => {
    const responseId = Number(payload.responseId);
    if (!Number.isInteger(responseId)) throw new Error('evaluate-alerts: the payload names no response');
    await evaluateResponse(db, responseId, job.now);
  });
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
