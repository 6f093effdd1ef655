/**
 * bench/reports/performance: the Performance Report (issue 23) on PostgreSQL over BENCH_ITEMS
 * (10,000,000) sent invitations, 30% of them answered (3,000,000 responses), BENCH_ITEMS / 10
 * reviews (1,000,000) and 300 clients (the demo's and copies), a year of history. It creates and
 * drops `bench_reports` on BENCH_DATABASE_URL.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/reports/performance.ts
 *   BENCH_ITEMS=1000000 … (a tenth of the size)
 *
 * The rows are generated inside the database as `replica` (no triggers, no foreign key checks),
 * then the rollup is rebuilt (`report_counts_rebuild`, timed: what `npm run reports:rebuild` does
 * for every client and day). Measured: the route (app.inject: validation, access, the ownership
 * check, JSON) for every client over the last 12 months grouped by location and by month,
 * BENCH_REPEAT (20) times after 2 to warm up; then the same reports computed from the raw tables
 * (performance/raw.ts) in the same run, BENCH_RAW_REPEAT (3) times, with the statement timeout
 * lifted so they finish. Invitations have no Tracking Logs rows here (delivered and opened are 0;
 * the raw path still looks them up). Results: bench/results/reports-performance-pg.json; table:
 * bench/README.md.
 *
 * While working on the report's queries: BENCH_KEEP=1 leaves `bench_reports` in place at the end,
 * and a later run with BENCH_KEEP=1 measures it again without generating anything;
 * BENCH_RAW_REPEAT=0 skips the raw path (a minute per run at full size).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';
import { checkOwnership, parsePerformanceQuery } from '../../apps/server/src/reports/performance/query.ts';
import { rawCounts } from '../../apps/server/src/reports/performance/raw.ts';
import { perKind } from '../../apps/server/src/reports/performance/report.ts';
import { runPerformanceReport } from '../../apps/server/src/reports/performance/run.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000_000);
const CLIENTS = 300;
const REPEAT = Number(process.env.BENCH_REPEAT ?? 20);
const RAW_REPEAT = Number(process.env.BENCH_RAW_REPEAT ?? 3);
const PASSWORD = 'demo-password';
const DB_NAME = process.env.BENCH_DB_NAME ?? 'bench_reports';
const KEEP = process.env.BENCH_KEEP === '1';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const round = (ms: number) => Math.round(ms * 10) / 10;

async function timed(times: number, warm: number, run: () => Promise<void>) {
  for (let i = 0; i < warm; i++) await run();
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: round(percentile(ms, 50)), p95: round(percentile(ms, 95)), runs: times };
}

async function main() {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) throw new Error('Set BENCH_DATABASE_URL (a PostgreSQL server whose user may create databases).');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const kept = KEEP && (await admin.query('select 1 from pg_database where datname = $1', [DB_NAME])).rowCount === 1;
  if (!kept) {
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.query(`create database ${DB_NAME}`);
  }
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${DB_NAME}`;
  const database = await openDatabase({ kind: 'pg', url: url.toString() });
  await database.migrate();
  const db = database.db;
  const config = testConfig({ demoPassword: PASSWORD });
  const results: Record<string, unknown> = kept ? { items: ITEMS, clients: CLIENTS, reused: true } : await generate(db, config);
  await measure(db, database, config, results);
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'reports-performance-pg.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
  await database.close();
  if (KEEP) return;
  const dropper = new pg.Client({ connectionString: adminUrl });
  await dropper.connect();
  await dropper.query(`drop database if exists ${DB_NAME} with (force)`);
  await dropper.end();
}

type Database = Awaited<ReturnType<typeof openDatabase>>;
type Db = Database['db'];

/** The demo, then the clients and rows of the bench's size, then the rollup rebuilt from them. */
async function generate(db: Db, config: ReturnType<typeof testConfig>): Promise<Record<string, unknown>> {
  await seedDemoData(db, config);
  const log = (what: string, t: number) => console.log(`${what}: ${((performance.now() - t) / 1000).toFixed(1)} s`);

  let t = performance.now();
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    // Clients up to 300, each with 5 locations, 10 people and one survey (copies of the demo's first).
    await tx.execute(sql`insert into clients (name, timezone)
      select 'Bench client ' || g, (array['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'])[1 + g % 4]
      from generate_series((select count(*) from clients) + 1, ${CLIENTS}) g`);
    await tx.execute(sql`insert into locations (_id, client_id, locationname, address1, city, state, postal_code, phone, timezone)
      select lpad(to_hex(c.id), 12, '0') || lpad(to_hex(k), 12, '0'), c.id, 'Location ' || k || ' of ' || c.name, '1 Main St', 'Denver', 'CO', '80202', '+13035550100', c.timezone
      from clients c cross join generate_series(1, 5) k where c.name like 'Bench client %'`);
    await tx.execute(sql`insert into personnel (client_id, first_name, last_name)
      select c.id, 'Pat' || k, 'Bench' from clients c cross join generate_series(1, 10) k where c.name like 'Bench client %'`);
    await tx.execute(sql`insert into surveys (client_id, name, type, language, channel, sender_name)
      select c.id, 'Bench survey', 'nps', 'en', 'email', 'Bench' from clients c where c.name like 'Bench client %'`);
  });
  log('clients, locations, personnel, surveys', t);

  // Dimension pools per client, numbered so a generated row picks one by arithmetic: row g is
  // client g % clients, and its location, person, channel and site vary with g / clients, so each
  // client's rows spread over all its locations and people (g % 5 alone would pin every client to one).
  await db.execute(sql`create unlogged table bench_dims as
    select c.id as client_id, row_number() over (order by c.id) - 1 as n,
      (select array_agg(_id order by _id) from locations where client_id = c.id) as locs,
      (select array_agg(id order by id) from personnel where client_id = c.id) as people,
      (select min(id) from surveys where client_id = c.id) as survey
    from clients c`);
  await db.execute(sql`delete from bench_dims where locs is null or people is null or survey is null`);
  const [{ n: dims } = { n: 0 }] = rowsOf(await db.execute(sql`select count(*)::int as n from bench_dims`));

  t = performance.now();
  // Secondary indexes the report never reads are dropped first: generating 10,000,000 rows through
  // eighteen indexes would take the run's whole time (this database is the bench's own).
  for (const index of [
    'survey_processing_items_transaction_prefix_idx',
    'survey_processing_items_email_prefix_idx',
    'survey_processing_items_phone_prefix_idx',
    'survey_processing_items_name_prefix_idx',
    'survey_processing_items_email_idx',
    'survey_processing_items_phone_idx',
    'survey_processing_items_transaction_idx',
  ])
    await db.execute(sql.raw(`drop index if exists ${index}`));
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`insert into survey_processing_items (client_id, location_id, survey_id, personnel_id, first_name, channel, status, token,
        expires_at, source, sent_at, created_at, updated_at)
      select d.client_id, d.locs[1 + (g / ${dims}) % array_length(d.locs, 1)], d.survey,
        d.people[1 + (g / ${dims} / 5) % array_length(d.people, 1)], 'Customer', case when (g / ${dims}) % 5 = 0 then 'sms' else 'email' end, 'sent', 'bench' || g, now() + interval '30 days', 'csv_upload',
        now() - (g % 365) * interval '1 day' - (g % 1440) * interval '1 minute', now(), now()
      from generate_series(1, ${ITEMS}) g join bench_dims d on d.n = g % ${dims}`);
  });
  log(`${ITEMS} invitations`, t);

  t = performance.now();
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`insert into survey_responses (processing_item_id, survey_id, client_id, location_id, personnel_id, key_score, nps_class,
        answers, questions, submitted_at)
      select i.id, i.survey_id, i.client_id, i.location_id, i.personnel_id, i.id % 11,
        case when i.id % 11 >= 9 then 'promoter' when i.id % 11 >= 7 then 'passive' else 'detractor' end,
        '{}'::jsonb, '[]'::jsonb, i.sent_at + interval '3 hours'
      from survey_processing_items i where i.token like 'bench%' and i.id % 10 < 3`);
    await tx.execute(sql`insert into reviews (client_id, location_id, site, external_id, author_name, rating, review_created_at, source, fetched_at)
      select d.client_id, d.locs[1 + (g / ${dims}) % array_length(d.locs, 1)], (array['google', 'yelp', 'facebook'])[1 + (g / ${dims}) % 3],
        'bench-' || g, 'Reviewer', 1 + (g / ${dims} / 3) % 5, now() - (g % 365) * interval '1 day', 'api', now()
      from generate_series(1, ${Math.round(ITEMS / 10)}) g join bench_dims d on d.n = g % ${dims}`);
  });
  log('responses and reviews', t);
  await db.execute(sql`analyze`);

  t = performance.now();
  await db.execute(sql`select report_counts_rebuild(null, null, null)`);
  const rebuildSeconds = round((performance.now() - t) / 1000);
  log('rollup rebuild', t);
  const [{ n: rollupRows } = { n: 0 }] = rowsOf(await db.execute(sql`select count(*)::int as n from report_day_counts`));
  await db.execute(sql`analyze report_day_counts`);
  return { items: ITEMS, clients: CLIENTS, rollupRows, rebuildSeconds };
}

/** The route and the raw path, for every client over the last 12 months, by location and by month. */
async function measure(db: Db, database: Database, config: ReturnType<typeof testConfig>, results: Record<string, unknown>) {
  const app = await buildApp(config, { database });
  await app.ready();
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: 'admin@example.com', password: PASSWORD } });
  const token = (login.json() as { data: { token: string } }).data.token;
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
  for (const groupBy of ['location', 'month'] as const) {
    const query = `from=${from}&to=${to}&groupBy=${groupBy}`;
    let rows = 0;
    results[`route_${groupBy}`] = await timed(REPEAT, 2, async () => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/reports/performance?${query}`,
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
      rows = (res.json() as { data: { rows: unknown[] } }).data.rows.length;
    });
    const q = parsePerformanceQuery({ from, to, groupBy });
    await checkOwnership(db, q);
    if (RAW_REPEAT > 0)
      results[`raw_${groupBy}`] = await timed(RAW_REPEAT, 0, async () => {
        await runPerformanceReport(db, q, perKind(rawCounts), 3_600_000);
      });
    results[`rows_${groupBy}`] = rows;
    console.log(groupBy, results[`route_${groupBy}`], 'raw', results[`raw_${groupBy}`]);
  }
  await app.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
