/**
 * bench/alerts/latency: from a stored detractor response to its instant alert in the outbox, with
 * the workers `npm start` runs (in the server process, polling every 500 ms; target p95 ≤ 2 s).
 *
 *   npx tsx bench/alerts/latency.ts        (PGlite on disk; BENCH_DATABASE_URL=postgres://… adds PostgreSQL)
 *
 * The server is built and listens here as `npm start` builds it (the default configuration,
 * workers on, e-mail kept in the outbox), over a client with one instant detractor rule.
 * BENCH_ANSWERS (100) invitations are answered as detractors through the public survey page
 * (`POST /s/{token}`, the form a respondent sends), one every 100–600 ms so answers land at every
 * point of the workers' poll. Latency is the alert's Tracking Logs row's `created_at` minus the
 * response's `submitted_at`, both stamped by the server's clock. Results:
 * bench/results/alerts-latency.json; table: bench/README.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ANSWERS = Number(process.env.BENCH_ANSWERS ?? 100);
const QUESTIONS = JSON.stringify([
  { id: 1, type: 'nps_0_10', text: 'Recommend us?', options: [], required: true, is_key_metric: true },
  { id: 2, type: 'text', text: 'Tell us more', options: [], required: false, is_key_metric: false },
]);

async function pgUrl(name: string, create: boolean): Promise<string> {
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  if (create) await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(process.env.BENCH_DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  return url.toString();
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function run(kind: 'pglite' | 'pg') {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-alert-latency-'));
  const database = kind === 'pglite' ? { kind, dataDir } : { kind, url: await pgUrl('bench_alert_latency', true) };
  const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), database, demoData: false, workers: true };
  // Setup on its own connection, closed before the server opens the database as npm start does.
  const setup = await openDatabase(database);
  await setup.migrate();
  const db = setup.db;
  const now = new Date();
  await db.execute(sql`insert into clients (id, name, timezone) values (1, 'Bench Co', 'America/Chicago')`);
  await db.execute(sql`insert into locations (_id, client_id, locationname, address1, city, state, postal_code, phone, timezone)
    values ('aaaaaaaaaaaaaaaaaaaaaaaa', 1, 'Downtown', '1 Main St', 'Chicago', 'IL', '60601', '+13125550100', 'America/Chicago')`);
  await db.execute(sql`insert into surveys (id, client_id, name, type, language, channel, sender_name, questions)
    values (1, 1, 'Visit', 'nps', 'en', 'email', 'Bench', ${QUESTIONS}::jsonb)`);
  await db.execute(sql`insert into survey_alert_rules (client_id, name, trigger, extra_emails, created_at, updated_at)
    values (1, 'Unhappy customers', 'detractor', array['manager@bench.test'], ${now.toISOString()}::timestamptz - interval '1 day', ${now.toISOString()}::timestamptz)`);
  await db.execute(sql`
    insert into survey_processing_items (client_id, location_id, survey_id, first_name, email, channel, status, sent_at, expires_at, source, token)
    select 1, 'aaaaaaaaaaaaaaaaaaaaaaaa', 1, 'Pat' || i, 'pat' || i || '@customer.test', 'email', 'sent',
      ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz + interval '30 days', 'api', 'latency-' || i
    from generate_series(1, ${ANSWERS}) i`);
  await setup.close();

  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  for (let i = 1; i <= ANSWERS; i++) {
    const res = await fetch(`${base}/s/latency-${i}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams({ q1: String(i % 7), q2: 'The wait was far too long.' }),
    });
    if (res.status !== 200) throw new Error(`answer ${i}: ${res.status} ${await res.text()}`);
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 500));
  }
  // Every alert out, then the latencies from the server's own stamps.
  const deadline = Date.now() + 60_000;
  let latencies: number[] = [];
  while (Date.now() < deadline) {
    latencies = rowsOf(
      await app.db.execute(sql`
        select extract(epoch from (n.created_at - r.submitted_at)) * 1000 as ms
        from survey_alert_events e
        join survey_responses r on r.id = e.response_id
        join notification_logs n on n.id = e.notification_id and n.type = 'survey_alert'`),
    ).map((row) => Number(row.ms));
    if (latencies.length >= ANSWERS) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await app.close();
  if (kind === 'pg') await pgUrl('bench_alert_latency', false);
  rmSync(dataDir, { recursive: true, force: true });
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    kind,
    answers: ANSWERS,
    alerts: latencies.length,
    p50Ms: Math.round(percentile(sorted, 50)),
    p95Ms: Math.round(percentile(sorted, 95)),
    maxMs: Math.round(sorted.at(-1) ?? 0),
    measuredAt: new Date().toISOString(),
  };
}

const results = [await run('pglite')];
if (process.env.BENCH_DATABASE_URL) results.push(await run('pg'));
for (const r of results) console.log(JSON.stringify(r));
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'alerts-latency.json'), `${JSON.stringify(results, null, 2)}\n`);
