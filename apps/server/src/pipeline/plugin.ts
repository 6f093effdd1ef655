import fp from 'fastify-plugin';
import type { RetentionConfig } from '../housekeeping/retention.ts';
import { createForeground } from './foreground.ts';
import { batchSizeFor, releaseStaleLeases } from './ingest/run-store.ts';
import { createQueue, type Queue } from './queue.ts';
import type { SendEngine } from './send.ts';
import type { Clock } from './types.ts';
import { type IngestOptions, installWorkers } from './worker.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where "now" comes from (docs/decisions/028-job-queue.md): the system clock, or the one a test moves. */
    clock: Clock;
    /** The job queue (apps/server/src/pipeline/queue.ts); tests drain it with `runDue`. */
    jobs: Queue;
    /** The send engine: `sendItemsNow(ids)` is Survey Processing's Send now and Retry failed. */
    sendEngine: SendEngine;
  }
}

/** The longest a background batch waits for requests before it goes anyway. */
const FOREGROUND_WAIT_MS = 250;

/**
 * The pipeline in the app: `app.clock`, `app.jobs`, and the workers, started when the server is
 * ready unless the configuration says `WORKERS=0` (then `npm run worker` runs them alone).
 */
export const pipelinePlugin = fp<{ clock: Clock; workers: boolean; ingest: Omit<IngestOptions, 'batchSize'>; retention: RetentionConfig }>(
  async (app, { clock, workers, ingest, retention }) => {
    app.decorate('clock', clock);
    const queue = createQueue(app.db, clock, { onError: (err, what) => app.log.error({ err }, `pipeline: ${what} failed`) });
    app.decorate('jobs', queue);
    // On the embedded database the workers share the server's thread and its one connection: their
    // batches wait for the requests being answered (a PostgreSQL server serves both at once).
    let pause: (() => Promise<void>) | undefined;
    if (app.database.kind === 'pglite') {
      const foreground = createForeground();
      app.addHook('onRequest', async (_request, reply) => foreground.track(reply.raw));
      pause = () => foreground.quiet(FOREGROUND_WAIT_MS);
    }
    app.decorate(
      'sendEngine',
      installWorkers(
        queue,
        app.db,
        app.messenger,
        clock,
        app.surveySettings,
        {
          ...ingest,
          batchSize: batchSizeFor(app.database.kind),
          ...(pause ? { pause } : {}),
        },
        { retention },
      ),
    );
    // A lone process on the embedded database: the runs it finds held were its own before it stopped.
    if (app.database.kind === 'pglite') app.addHook('onReady', () => releaseStaleLeases(app.db));
    if (workers) app.addHook('onReady', async () => queue.start());
    app.addHook('onClose', async () => queue.stop());
  },
  { name: 'pipeline', dependencies: ['db', 'messaging', 'survey-settings-repository'] },
);
