import type { Db } from '../db/client.ts';
import type { Messenger } from '../messaging/send.ts';
import type { Queue } from './queue.ts';
import { createSendEngine, type SendEngine } from './send.ts';
import type { Clock, SurveySettingsAccess } from './types.ts';

/**
 * What a worker runs, the same in the server process (`npm start`) and alone (`npm run worker`):
 * the send engine as a loop on each poll. Other parts register their queues' handlers on
 * `app.jobs` (the queue) themselves.
 */
export function installWorkers(
  queue: Queue,
  db: Db,
  messenger: Messenger,
  clock: Clock,
  surveySettings: SurveySettingsAccess,
  options: { sendBatchSize?: number } = {},
): SendEngine {
  const engine = createSendEngine(db, messenger, clock, surveySettings, { batchSize: options.sendBatchSize });
  queue.addLoop({ name: 'send', run: (now) => engine.run(now) });
  return engine;
}
