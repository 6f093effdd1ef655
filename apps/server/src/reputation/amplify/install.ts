import type { Db } from '../../db/client.ts';
import type { Messenger } from '../../messaging/send.ts';
import type { Queue } from '../../pipeline/queue.ts';

/** Matching (`match-review` jobs) and the not_posted sweep on a worker (issue 21, items 2–3). */
export function installAmplification(_queue: Queue, _db: Db, _messenger: Messenger): void {}
