/**
 * bench/pipeline/endpoint: the ingest endpoint `POST /api/v1/endpoints/:_id/transactions` with
 * 10-row JSON payloads, over HTTP to the real server listening in this process, on PGlite and,
 * with BENCH_DATABASE_URL, PostgreSQL. In the same run, two ceilings at the same concurrency:
 * `GET /healthz` (the HTTP stack and one `select 1`) and bare SQL (the 10 rows inserted with one
 * multi-row INSERT into a scratch table, no HTTP).
 *
 *   npx tsx bench/pipeline/endpoint.ts
 *   BENCH_REQUESTS=2000 BENCH_CONCURRENCY=10 BENCH_DATABASE_URL=postgres://… npx tsx bench/pipeline/endpoint.ts
 *
 * BENCH_DATABASE_NAME names the PostgreSQL database it drops and makes (default bench_endpoint), so
 * two runs on one server do not drop each other's. The load average is recorded beside the numbers:
 * the machines this runs on are shared, and a busy one slows every column alike.
 *
 * Each call is a full ingest: token check (hash lookup), endpoint settings, a feed run row,
 * normalize, admitRows (every rule, scheduling), items written, the call logged. The endpoint's
 * rate limit is raised in the database past the form's 6,000/min so the handler is what is measured.
 * Results: bench/results/endpoint-<db>.json; table: bench/README.md ("Pipeline: ingest API").
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { dataEnvelope } from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { z } from 'zod';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { endpointConfigs, locations, surveys, users } from '../../apps/server/src/db/schema/index.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';
import { findPostmaster, perRequest, postgresCpuMs } from '../api/measure.ts';
import { type CallersResult, type CallersTask, concurrently, type Run, runCallers } from './endpoint-callers.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const DATABASE_NAME = process.env.BENCH_DATABASE_NAME ?? 'bench_endpoint';
/** BENCH_LABEL=before writes endpoint-<db>-before.json, keeping a comparison run beside the current one. */
const LABEL = process.env.BENCH_LABEL ? `-${process.env.BENCH_LABEL.replace(/[^a-z0-9-]/gi, '')}` : '';
const ROWS_PER_CALL = 10;
/** Where the HTTP callers run: a worker thread of their own (default), or `inline` in the server's thread as before 2026-11-28. */
const CALLERS = process.env.BENCH_CALLERS === 'inline' ? 'inline' : 'thread';

async function freshPg(): Promise<string> {
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await admin.connect();
  if (!/^[a-z_][a-z0-9_]*$/.test(DATABASE_NAME)) throw new Error(`BENCH_DATABASE_NAME must be a plain name: ${DATABASE_NAME}`);
  await admin.query(`drop database if exists ${DATABASE_NAME} with (force)`);
  await admin.query(`create database ${DATABASE_NAME}`);
  await admin.end();
  const url = new URL(process.env.BENCH_DATABASE_URL ?? '');
  url.pathname = `/${DATABASE_NAME}`;
  return url.toString();
}

/** The answers read here: a token (sign-in, a new API token). */
const tokenAnswer = dataEnvelope(z.object({ token: z.string() }));

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** The postmaster of the PostgreSQL run, when it is on this machine: its CPU is counted per call. */
let postmaster: number | null = null;

/** HTTP callers (endpoint-callers.ts) in a worker thread, or in this one with BENCH_CALLERS=inline. */
function callers(task: CallersTask): Promise<CallersResult> {
  if (CALLERS === 'inline') return runCallers(task);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./endpoint-callers.mjs', import.meta.url), { workerData: task });
    worker.once('message', (result: CallersResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/**
 * A load's req/s, p50/p99 (ms), failures and the CPU per call of this process (server and callers
 * alike, whichever thread) and of PostgreSQL.
 */
async function measure(count: number, load: () => Promise<Run>) {
  const cpuBefore = process.cpuUsage();
  const postgresBefore = postmaster === null ? null : postgresCpuMs(postmaster);
  const { times, failed, seconds } = await load();
  const cpu = process.cpuUsage(cpuBefore);
  times.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    requests: count,
    reqPerSec: Math.round(count / seconds),
    p50Ms: round(quantile(times, 0.5)),
    p99Ms: round(quantile(times, 0.99)),
    failed,
    benchCpuMsPerCall: perRequest((cpu.user + cpu.system) / 1000, count),
    postgresCpuMsPerCall:
      postmaster === null || postgresBefore === null ? null : perRequest(postgresCpuMs(postmaster) - postgresBefore, count),
  };
}

async function run(kind: 'pglite' | 'pg') {
  const databaseUrl = kind === 'pg' ? await freshPg() : null;
  const database = await openDatabase(databaseUrl === null ? { kind: 'pglite', dataDir: null } : { kind: 'pg', url: databaseUrl });
  postmaster = databaseUrl === null ? null : await findPostmaster(databaseUrl);
  await database.migrate();
  const { db } = database;
  const config = testConfig({ demoPassword: 'demo-password' });
  await seedDemoData(db, config);
  const app = await buildApp(config, { database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 100);

  // A token and one endpoint, made through the API as a person would.
  const login = await (
    await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'demo-password' }),
    })
  ).json();
  const session = { authorization: `Bearer ${tokenAnswer.parse(login).data.token}`, 'content-type': 'application/json' };
  const [admin] = await db.select().from(users).where(eq(users.email, 'admin@example.com'));
  const made = await (
    await fetch(`${base}/api/api-token`, {
      method: 'POST',
      headers: session,
      body: JSON.stringify({ user_id: admin?.id, name: 'Bench', scopes: ['feeds:write'] }),
    })
  ).json();
  const token = tokenAnswer.parse(made).data.token;
  const [target] = await db
    .select({ locationId: locations.id, surveyId: surveys.id })
    .from(surveys)
    .innerJoin(locations, eq(locations.clientId, surveys.clientId))
    .where(eq(surveys.status, 'active'))
    .limit(1);
  if (!target) throw new Error('no active survey with a location');
  const saved = await fetch(`${base}/api/api-endpoints/${target.locationId}`, {
    method: 'PUT',
    headers: session,
    body: JSON.stringify({ survey_id: target.surveyId }),
  });
  if (saved.status !== 200) throw new Error(`endpoint set-up failed: ${saved.status} ${await saved.text()}`);
  await db.update(endpointConfigs).set({ rateLimitPerMin: 100_000_000 }).where(eq(endpointConfigs.locationId, target.locationId));

  const day = new Date().toISOString().slice(0, 10);
  const task = {
    url: `${base}/api/v1/endpoints/${target.locationId}/transactions`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    count: REQUESTS,
    concurrency: CONCURRENCY,
    rowsPerCall: ROWS_PER_CALL,
    day,
  };
  let accepted = 0;
  const loadBefore = loadavg();
  const ingest = await measure(REQUESTS, async () => {
    const result = await callers({ ...task, kind: 'ingest' });
    accepted = result.accepted;
    return result;
  });

  const loadAfter = loadavg();
  const health = await measure(REQUESTS, () => callers({ ...task, kind: 'healthz', url: `${base}/healthz` }));

  await db.execute(
    sql`create table bench_endpoint_rows (first_name text, last_name text, email text, transaction_id text, transaction_date date)`,
  );
  const bareSql = await measure(REQUESTS, () =>
    concurrently(REQUESTS, CONCURRENCY, async (i) => {
      const rows = Array.from({ length: ROWS_PER_CALL }, (_, j) => {
        const n = i * ROWS_PER_CALL + j;
        return sql`(${`Bench${n}`}, 'Caller', ${`bench.endpoint.${n}@example.com`}, ${`EP-${n}`}, ${day}::date)`;
      });
      await db.execute(sql`insert into bench_endpoint_rows values ${sql.join(rows, sql`, `)}`);
      return true;
    }),
  );

  clearInterval(sampler);
  await app.close();
  await database.close();
  const result = {
    kind,
    measuredAt: new Date().toISOString(),
    concurrency: CONCURRENCY,
    rowsPerCall: ROWS_PER_CALL,
    callers: CALLERS,
    ingest: { ...ingest, rowsAccepted: accepted, rowsPerSec: Math.round(ingest.reqPerSec * ROWS_PER_CALL) },
    healthzCeiling: health,
    bareSqlCeiling: bareSql,
    peakRssMb: Math.round(peakRss / 1024 / 1024),
    // 1-, 5- and 15-minute load averages of the machine as the ingest calls began and ended.
    loadAverage: { before: loadBefore.map((n) => Math.round(n * 100) / 100), after: loadAfter.map((n) => Math.round(n * 100) / 100) },
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `endpoint-${kind}${LABEL}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

// BENCH_ONLY=pg skips PGlite.
if (process.env.BENCH_ONLY !== 'pg') await run('pglite');
if (process.env.BENCH_DATABASE_URL) await run('pg');
