import { installAlerts } from '../alerts/install.ts';
import type { ProvidersConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { installHousekeeping } from '../housekeeping/job.ts';
import type { RetentionConfig } from '../housekeeping/retention.ts';
import { installListings } from '../listings/install.ts';
import type { Messenger } from '../messaging/send.ts';
import { reportScheduleLoop } from '../report-schedules/loop.ts';
import { reportCompaction } from '../reports/rollups/compaction.ts';
import { installAmplification } from '../reputation/amplify/install.ts';
import { installReviewPulls } from '../reputation/ingest/install.ts';
import { kpiCompaction } from '../reputation/kpi-compaction.ts';
import { installReviewAlerts } from '../review-alerts/install.ts';
import { feedRunLoop } from './ingest/runs-loop.ts';
import type { SecretBox } from './ingest/secret.ts';
import { registerFeedPulls } from './ingest/sftp.ts';
import type { Queue } from './queue.ts';
import { createSendEngine, type SendEngine } from './send.ts';
import type { Clock, SurveySettingsAccess } from './types.ts';

/**
 * What the feed runs, SFTP pulls, review pulls and listing scans need: the key of stored secrets,
 * the outbound rule, the batch size, the review and listing providers.
 */
export type IngestOptions = {
  secrets: SecretBox;
  allowPrivateHosts: boolean;
  providers: ProvidersConfig;
  batchSize: number;
  /** Awaited between two batches of a feed run: on the embedded database, until the requests being answered are done. */
  pause?: () => Promise<void>;
};

/**
 * What a worker runs, the same in the server process (`npm start`) and alone (`npm run worker`):
 * the feed-run loop (admits received files, resumes runs whose worker stopped), the send engine as
 * a loop on each poll, the SFTP pull jobs and the daily housekeeping job. Other parts register
 * their queues' handlers on `app.jobs` (the queue) themselves.
 */
export function installWorkers(
  queue: Queue,
  db: Db,
  messenger: Messenger,
  clock: Clock,
  surveySettings: SurveySettingsAccess,
  ingest: IngestOptions,
  options: { sendBatchSize?: number; retention: RetentionConfig },
): SendEngine {
  const runDeps = { db, clock, batchSize: ingest.batchSize, ...(ingest.pause ? { pause: ingest.pause } : {}) };
  queue.addLoop(feedRunLoop(runDeps));
  const engine = createSendEngine(db, messenger, clock, surveySettings, { batchSize: options.sendBatchSize });
  queue.addLoop({ name: 'send', run: (now) => engine.run(now) });
  registerFeedPulls(queue, { ...runDeps, secrets: ingest.secrets, allowPrivateHosts: ingest.allowPrivateHosts });
  installAlerts(queue, db, messenger);
  installReviewPulls(queue, db, clock, { secrets: ingest.secrets, providers: ingest.providers });
  installAmplification(queue, db, messenger);
  installReviewAlerts(queue, db, messenger);
  installListings(queue, db, clock, ingest.providers);
  queue.addLoop(kpiCompaction(db));
  queue.addLoop(reportCompaction(db));
  queue.addLoop(reportScheduleLoop(db, messenger));
  installHousekeeping(queue, db, options.retention, ingest.pause ? { pause: ingest.pause } : {});
  return engine;
}
