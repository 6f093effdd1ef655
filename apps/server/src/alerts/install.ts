import type { Db } from '../db/client.ts';
import type { Messenger } from '../messaging/send.ts';
import type { Queue } from '../pipeline/queue.ts';
import { deliverDue } from './deliver.ts';
import { evaluateResponse } from './evaluate.ts';

/**
 * The alert engine on a worker (apps/server/src/pipeline/worker.ts calls it, in the server and in
 * `npm run worker` alike): the `evaluate-alerts` job each stored response enqueues
 * (apps/server/src/pipeline/response-stored.ts) and the loop that delivers due events.
 */
export function installAlerts(queue: Queue, db: Db, messenger: Messenger): void {
  queue.register('evaluate-alerts', async (payload, job) => {
    const responseId = Number(payload.responseId);
    if (!Number.isInteger(responseId)) throw new Error('evaluate-alerts: the payload names no response');
    await evaluateResponse(db, responseId, job.now);
  });
  queue.addLoop({ name: 'survey-alerts', run: (now) => deliverDue(db, messenger, now) });
}
