import type { Db } from '../db/client.ts';
import type { Messenger } from '../messaging/send.ts';
import type { Queue } from '../pipeline/queue.ts';

/** The review alert engine on a worker: `evaluate-review-alerts` jobs, instant sends and digests (issue 21, item 5). */
export function installReviewAlerts(_queue: Queue, _db: Db, _messenger: Messenger): void {}
