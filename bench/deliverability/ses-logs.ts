/**
 * bench/deliverability/ses-logs: SES Logs over BENCH_SES_EVENTS events (5,000,000 on PostgreSQL,
 * 1,000,000 on PGlite by default), on PGlite and, with BENCH_DATABASE_URL, on PostgreSQL (it
 * creates and drops `bench_ses_logs`).
 *
 *   npx tsx bench/deliverability/ses-logs.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/deliverability/ses-logs.ts
 *   BENCH_ONLY=pg (or pglite) runs one database only.
 *
 * The events are generated inside the database by one `insert … select generate_series` (the
 * table's indexes dropped first and built again after, as a bulk load would): a year of events,
 * 400,000 recipients, the demo's clients in turn (one event in ten of none), types in fixed shares
 * (30% Send, 25% Delivery, 15% Open, 5% Click, 5% Bounce, 1% Complaint, the rest the other kinds).
 * Measured through the real route (app.inject, signed in: validation, access, JSON), REPEAT
 * requests after 3 warm-ups: the first page newest first, then a page filtered by event type
 * Bounce, by one recipient, by one client; and by bounce type (Permanent, one no event has, both),
 * by two event types;
 * against the bare SQL of the same page and its bounded count through the same driver, the ceiling,
 * and the page alone. The first request of each is reported apart (its count is not yet cached).
 * Target: p95 ≤ 50 ms for the first and the filtered pages. Results:
 * bench/results/ses-logs-<db>.json; table: bench/README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);
const PASSWORD = 'demo-password';
const DB_NAME = 'bench_ses_logs';
const sizeOf = (kind: 'pglite' | 'pg') => Number(process.env.BENCH_SES_EVENTS ?? (kind === 'pg' ? 5_000_000 : 1_000_000));

async function open(kind: 'pglite' | 'pg') {
  if (kind === 'pglite') return openDatabase({ kind, dataDir: null });
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${DB_NAME} with (force)`);
  await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  const url = new URL(process.env.BENCH_DATABASE_URL ?? '');
  url.pathname = `/${DB_NAME}`;
  return openDatabase({ kind, url: url.toString() });
}

async function dropDatabase() {
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${DB_NAME} with (force)`);
  await admin.end();
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const round = (ms: number) => Math.round(ms * 10) / 10;
type Timing = { p50: number; p95: number };

async function timed(run: () => Promise<void>): Promise<Timing> {
  for (let i = 0; i < 3; i++) await run();
  const ms: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: round(percentile(ms, 50)), p95: round(percentile(ms, 95)) };
}

const TYPES = sql`case when i % 100 < 30 then 'Send' when i % 100 < 55 then 'Delivery' when i % 100 < 70 then 'Open'
  when i % 100 < 75 then 'Click' when i % 100 < 80 then 'Bounce' when i % 100 < 81 then 'Complaint'
  when i % 100 < 85 then 'DeliveryDelay' when i % 100 < 90 then 'Reject' when i % 100 < 95 then 'RenderingFailure' else 'Subscription' end`;

async function run(kind: 'pglite' | 'pg') {
  const n = sizeOf(kind);
  const database = await open(kind);
  await database.migrate();
  const db = database.db;
  const config = testConfig({ demoPassword: PASSWORD });
  await seedDemoData(db, config);
  const now = new Date();
  const clientIds = rowsOf(await db.execute(sql`select id from clients order by id`)).map((r) => Number(r.id));
  const ids = sql`${`{${clientIds.join(',')}}`}::int[]`;

  const t0 = performance.now();
  const indexes = rowsOf(
    await db.execute(sql`select indexname, indexdef from pg_indexes where tablename = 'ses_events' and indexname <> 'ses_events_pkey'`),
  ).map((r) => ({ name: String(r.indexname), def: String(r.indexdef) }));
  for (const ix of indexes) await db.execute(sql.raw(`drop index ${ix.name}`));
  await db.execute(sql`
    insert into ses_events (message_id, event_type, recipient, source, subject, configuration_set, bounce_type, bounce_subtype,
      complaint_feedback_type, diagnostic_code, reporting_mta, event_at, raw, sns_message_id, client_id)
    select 'bench-' || (i / 3), t.type, 'user' || (i % 400000) || '@example.com', 'surveys@example.com', 'How did we do? (' || (i % 50) || ')',
      'surveys', case when t.type = 'Bounce' then case when i % 3 = 0 then 'Permanent' else 'Transient' end end,
      case when t.type = 'Bounce' then case when i % 3 = 0 then 'NoEmail' else 'MailboxFull' end end,
      case when t.type = 'Complaint' then 'abuse' end,
      case when t.type = 'Bounce' then 'smtp; 550 5.1.1 user unknown' when t.type = 'Delivery' then '250 2.6.0 Message received' end,
      case when t.type in ('Bounce', 'Delivery') then 'a' || (i % 7) || '.mx.example.com' end,
      ${now.toISOString()}::timestamptz - (i * (31536000.0 / ${n})) * interval '1 second',
      jsonb_build_object('eventType', t.type, 'mail', jsonb_build_object('messageId', 'bench-' || (i / 3))),
      'sns-' || i,
      case when i % 10 = 0 then null else (${ids})[1 + i % cardinality(${ids})] end
    from generate_series(1, ${n}) i, lateral (select ${TYPES} as type) t`);
  const insertSeconds = (performance.now() - t0) / 1000;
  for (const ix of indexes) await db.execute(sql.raw(ix.def));
  await db.execute(sql`analyze ses_events`);
  const seedSeconds = (performance.now() - t0) / 1000;
  console.log(
    `  ${kind}: ${n.toLocaleString()} events: inserted in ${insertSeconds.toFixed(1)} s, indexed in ${(seedSeconds - insertSeconds).toFixed(1)} s`,
  );

  const app = await buildApp(config, { database });
  await app.ready();
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: 'admin@example.com', password: PASSWORD } });
  const headers = { authorization: `Bearer ${(login.json() as { data: { token: string } }).data.token}` };

  const clientId = clientIds[0] ?? 0;
  const recipient = 'user12345@example.com';
  const cases: Record<string, { query: string; where: SQL }> = {
    firstPage: { query: '', where: sql`true` },
    bounce: { query: 'event_type=Bounce', where: sql`e.event_type in ('Bounce')` },
    recipient: { query: `recipient=${encodeURIComponent(recipient)}`, where: sql`e.recipient = ${recipient}` },
    client: { query: `client=${clientId}`, where: sql`e.client_id in (${clientId})` },
    bounceTypePermanent: { query: 'bounce_type=Permanent', where: sql`e.bounce_type in ('Permanent')` },
    // A bounce type no event has: nothing ends the walk early.
    bounceTypeUndetermined: { query: 'bounce_type=Undetermined', where: sql`e.bounce_type in ('Undetermined')` },
    bounceTypeBoth: { query: 'bounce_type=Permanent,Transient', where: sql`e.bounce_type in ('Permanent', 'Transient')` },
    bounceOrComplaint: { query: 'event_type=Bounce,Complaint', where: sql`e.event_type in ('Bounce', 'Complaint')` },
  };
  const results: Record<string, { cold: number; route: Timing; bare: Timing; barePage: Timing; rows: number }> = {};
  for (const [name, c] of Object.entries(cases)) {
    let rows = 0;
    const request = async () => {
      const res = await app.inject({ method: 'GET', url: `/api/ses-events?${c.query}`, headers });
      if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
      rows = (res.json() as { data: unknown[] }).data.length;
    };
    // The first request alone: the list's total is then counted (≤ 10,001 rows, else estimated), and
    // that estimate is answered again for ESTIMATE_TTL_MS (apps/server/src/kit/totals.ts).
    const t = performance.now();
    await request();
    const cold = round(performance.now() - t);
    const route = await timed(request);
    const page = () =>
      db.execute(sql`select e.*, c.name, c.timezone from ses_events e left join clients c on c.id = e.client_id
        where ${c.where} order by e.event_at desc, e.id desc limit 51`);
    const bare = await timed(async () => {
      await page();
      await db.execute(sql`select count(*)::int as n from (select 1 from ses_events e where ${c.where} limit 10001) s`);
    });
    const barePage = await timed(async () => {
      await page();
    });
    results[name] = { cold, route, bare, barePage, rows };
    console.log(
      `    ${name}: first request ${cold} ms; route p50/p95 ${route.p50}/${route.p95} ms; bare page+count ${bare.p50}/${bare.p95} ms; bare page ${barePage.p50}/${barePage.p95} ms (${rows} rows)`,
    );
  }
  await app.close();
  await database.close();
  if (kind === 'pg') await dropDatabase();
  const out = {
    kind,
    events: n,
    repeat: REPEAT,
    insertSeconds: round(insertSeconds),
    seedSeconds: round(seedSeconds),
    results,
    at: now.toISOString(),
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `ses-logs-${kind}.json`), `${JSON.stringify(out, null, 2)}\n`);
}

const only = process.env.BENCH_ONLY;
if (only !== 'pg') await run('pglite');
if (process.env.BENCH_DATABASE_URL && only !== 'pglite') await run('pg');
