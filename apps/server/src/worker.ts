import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { createMessenger } from './messaging/send.ts';
import { surveySettingsOn } from './modules/survey-settings/repository.ts';
import { registerMakeTestimonial } from './modules/testimonials/make.ts';
import { systemClock } from './pipeline/clock.ts';
import { batchSizeFor } from './pipeline/ingest/run-store.ts';
import { secretBox } from './pipeline/ingest/secret.ts';
import { createQueue } from './pipeline/queue.ts';
import { installWorkers } from './pipeline/worker.ts';

/**
 * `npm run worker`: the pipeline's workers alone, without the HTTP server, against the database
 * the configuration names (`DATABASE_URL`), so API and worker processes scale apart
 * (docs/decisions/028-job-queue.md). Stops at SIGTERM/SIGINT after the current poll.
 */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const database = await openDatabase(config.database, (err) => console.error('database pool error', err));
  await database.migrate();
  const messenger = createMessenger(database.db, config.messaging, { now: () => systemClock.now() });
  const queue = createQueue(database.db, systemClock, { onError: (err, what) => console.error(`pipeline: ${what} failed`, err) });
  installWorkers(
    queue,
    database.db,
    messenger,
    systemClock,
    surveySettingsOn(database.db),
    {
      secrets: secretBox(config),
      allowPrivateHosts: config.sftpAllowPrivate,
      providers: config.providers,
      batchSize: batchSizeFor(database.kind),
    },
    { retention: config.retention },
  );
  registerMakeTestimonial(queue, database.db);
  queue.start();
  console.log(`Pipeline worker started (${config.database.kind === 'pg' ? 'PostgreSQL server' : 'embedded database'})`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: stopping the worker`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    queue
      .stop()
      .then(async () => {
        messenger.close();
        await database.close();
        process.exit(0);
      })
      .catch((err: unknown) => {
        console.error(err);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
