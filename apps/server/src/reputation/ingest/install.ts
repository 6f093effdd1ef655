import type { ProvidersConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { SecretBox } from '../../pipeline/ingest/secret.ts';
import type { Queue } from '../../pipeline/queue.ts';
import type { Clock } from '../../pipeline/types.ts';

/** The scheduled Google Business Profile review pull on a worker (issue 21, item 1). */
export function installReviewPulls(
  _queue: Queue,
  _db: Db,
  _clock: Clock,
  _options: { secrets: SecretBox; providers: ProvidersConfig },
): void {}
