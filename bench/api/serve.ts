import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { Statement } from './measure.ts';

// Child process 1 of bench/api (run.ts): the real server, recording the statements of a request when asked.

type QueryConfig = { text?: string; rowMode?: string; values?: unknown[]; name?: string };
type ServeMessage = { type: 'capture-start' } | { type: 'capture-stop' };

export async function serve(url: string): Promise<void> {
  let capturing: Statement[] | null = null;
  // Wrapped before the app opens its pool: every statement of the server goes through here.
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function recordingQuery(this: pg.Client, ...args: unknown[]) {
    const log = capturing;
    const [config, second] = args;
    const text = typeof config === 'string' ? config : ((config as QueryConfig | undefined)?.text ?? '');
    if (!log || text === '') return original.apply(this, args);
    const values = Array.isArray(second) ? second : ((config as QueryConfig | undefined)?.values ?? []);
    const entry: Statement = {
      text,
      values: values.map((v) => (v instanceof Date ? v.toISOString() : v)),
      ...((config as QueryConfig | undefined)?.rowMode === 'array' ? { rowMode: 'array' as const } : {}),
      // A prepared statement (the session check) is replayed prepared too, under its name.
      ...((config as QueryConfig | undefined)?.name ? { name: (config as QueryConfig).name } : {}),
      startedAt: performance.now(),
      endedAt: Number.POSITIVE_INFINITY, // set when it finishes
    };
    log.push(entry);
    const done = () => {
      entry.endedAt = performance.now();
    };
    // pg-pool passes a callback; a bare client returns a promise.
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      const callback = last as (...r: unknown[]) => void;
      args[args.length - 1] = (...r: unknown[]) => {
        done();
        callback(...r);
      };
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) void result.then(done, done);
    return result;
  } as typeof pg.Client.prototype.query;

  const { buildApp } = await import('../../apps/server/src/app.ts');
  const { loadConfig } = await import('../../apps/server/src/config.ts');
  // The production defaults (log level included), against the bench database, as an API process
  // (WORKERS=0, the workers in their own process): the send engine's polls would otherwise take
  // the server's CPU and could be captured as if the request had sent them.
  const config = loadConfig({ DATABASE_URL: url, DEMO_DATA: 'off', WORKERS: '0', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  // A clean exit, so a `--cpu-prof` profile (BENCH_CPU_PROF) gets written.
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
  process.on('message', (message: ServeMessage) => {
    if (message.type === 'capture-start') capturing = [];
    else {
      process.send?.({ type: 'captured', statements: capturing ?? [] });
      capturing = null;
    }
  });
  process.send?.({ type: 'listening', port: (app.server.address() as AddressInfo).port });
}
