/**
 * bench/reputation/panel: the Reputation Panel over BENCH_AMPLIFICATIONS (1,000,000) amplifications
 * of one client on Google, a year of invitations, with their reviews (15% posted, each with its
 * review, plus a third as many unmatched reviews), on PGlite and, with BENCH_DATABASE_URL, on
 * PostgreSQL (it creates and drops `bench_reputation`).
 *
 *   npx tsx bench/reputation/panel.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/reputation/panel.ts
 *
 * Measured through the real routes (app.inject: validation, access, the client check, JSON), 30
 * requests each after 3 to warm up: the first page (with its total) and the KPI cards, with no
 * date range (all 1,000,000), the last 30 days, and a status + location filter; then the bare SQL
 * of the same statements through the same driver, for the ceiling. The rows are generated inside
 * the database; their `response_id`s are numbers the bench does not make responses for (foreign
 * keys are not checked while generating, `session_replication_role = replica`): the panel never
 * reads survey_responses, and 1,000,000 invitations and responses more would only lengthen the setup.
 * Generated as `replica`, the rows skip the KPI summaries' triggers, so the summaries are rebuilt
 * after (docs/decisions/053). The bare KPI figures: the old raw statements, the new amplification
 * count (summary + edges) alone, and the old New reviews count. Last, the writes the triggers slow
 * (invite, click, match, rating change) timed with the triggers on and disabled, rolled back.
 * Results: bench/results/reputation-panel-<db>.json; table: bench/README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';
import { amplificationCounts } from '../../apps/server/src/modules/reputation/kpi-counts.ts';
import { rebuildKpiCounts } from '../../apps/server/src/reputation/kpi-compaction.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const N = Number(process.env.BENCH_AMPLIFICATIONS ?? 1_000_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);
const PASSWORD = 'demo-password';
const DB_NAME = 'bench_reputation';

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

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const round = (ms: number) => Math.round(ms * 10) / 10;

async function timed(run: () => Promise<void>) {
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

async function run(kind: 'pglite' | 'pg') {
  const database = await open(kind);
  await database.migrate();
  const db = database.db;
  const config = testConfig({ demoPassword: PASSWORD });
  await seedDemoData(db, config);
  const now = new Date();
  const t0 = performance.now();
  const [client] = rowsOf(await db.execute(sql`select id, timezone from clients order by id limit 1`));
  const clientId = Number(client?.id);
  const zone = String(client?.timezone);
  const places = rowsOf(await db.execute(sql`select _id from locations where client_id = ${clientId} order by _id`)).map((r) =>
    String(r._id),
  );
  const people = rowsOf(await db.execute(sql`select id from personnel where client_id = ${clientId} order by id`)).map((r) => Number(r.id));
  const locs = sql`${`{${places.join(',')}}`}::text[]`;
  const pers = sql`${`{${people.join(',') || ''}}`}::int[]`;
  const reviewCount = Math.round((N * 3) / 20 + N / 20);
  // The bench's reviews come after the demo's.
  const [maxReview] = rowsOf(await db.execute(sql`select coalesce(max(id), 0)::int as n from reviews`));
  const firstReview = Number(maxReview?.n ?? 0);
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    // Reviews 1..posted are the posted invitations' own; the rest nobody's. Spread over the year.
    await tx.execute(sql`
      insert into reviews (id, client_id, location_id, site, external_id, author_name, rating, text, url, review_created_at, source, fetched_at, created_at)
      select ${firstReview} + i, ${clientId}, (${locs})[1 + i % cardinality(${locs})], 'google', 'bench-' || i, 'Author ' || i, 1 + (i * 7) % 5,
        'Bench review number ' || i || ' — the service was good and the team was kind.', 'https://maps.google.com/?cid=' || i,
        ${now.toISOString()}::timestamptz - (i % 365) * interval '1 day' - (i % 86400) * interval '1 second', 'api',
        ${now.toISOString()}::timestamptz - (i % 365) * interval '1 day', ${now.toISOString()}::timestamptz - (i % 365) * interval '1 day'
      from generate_series(1, ${reviewCount}) i`);
    await tx.execute(sql`select setval(pg_get_serial_sequence('reviews', 'id'), ${firstReview + reviewCount})`);
    // i % 20: 0–5 clicked, 6–8 posted (review (i / 20) * 3 + i % 20 - 5), 9 opted out, 10 failed,
    // else invited, or not_posted once 14 days old. Invited at: i seconds apart going back a year.
    await tx.execute(sql`
      insert into amplifications (client_id, location_id, personnel_id, response_id, site, channel, token, customer_name, survey_score,
        invited_at, clicked_at, click_count, review_id, match_confidence, matched_by, status)
      select ${clientId}, (${locs})[1 + i % cardinality(${locs})],
        case when cardinality(${pers}) > 0 and i % 3 = 0 then (${pers})[1 + i % cardinality(${pers})] end,
        1000000000 + i, 'google', case when i % 4 = 0 then 'sms' else 'email' end, md5('bench' || i), 'Customer ' || i, 6 + i % 5,
        t.at, case when i % 20 <= 8 then t.at + interval '1 hour' end, case when i % 20 <= 8 then 1 else 0 end,
        case when i % 20 between 6 and 8 then ${firstReview} + (i / 20) * 3 + i % 20 - 5 end,
        case when i % 20 between 6 and 8 then 70 + i % 30 end,
        case when i % 20 between 6 and 8 then 'auto' end,
        case when i % 20 <= 5 then 'clicked' when i % 20 <= 8 then 'posted' when i % 20 = 9 then 'opted_out' when i % 20 = 10 then 'failed'
          when t.at < ${now.toISOString()}::timestamptz - interval '14 days' then 'not_posted' else 'invited' end
      from generate_series(1, ${N}) i,
        lateral (select ${now.toISOString()}::timestamptz - (i * (31536000.0 / ${N})) * interval '1 second' as at) t`);
  });
  // Generated as replica, the rows did not pass the KPI summary's triggers: it is rebuilt as migration 0032 backfills it.
  const tSummary = performance.now();
  await rebuildKpiCounts(db);
  const summarySeconds = (performance.now() - tSummary) / 1000;
  await db.execute(sql`analyze amplifications`);
  await db.execute(sql`analyze reviews`);
  await db.execute(sql`analyze amplification_day_counts`);
  const [summaryRows] = rowsOf(await db.execute(sql`select count(*)::int as n from amplification_day_counts`));
  const seedSeconds = (performance.now() - t0) / 1000;
  console.log(`  ${kind}: ${N.toLocaleString()} amplifications and ${reviewCount.toLocaleString()} reviews in ${seedSeconds.toFixed(1)} s`);

  const app = await buildApp(config, { database });
  await app.ready();
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: 'admin@example.com', password: PASSWORD } });
  const headers = { authorization: `Bearer ${(login.json() as { data: { token: string } }).data.token}` };
  await app.inject({ method: 'PUT', url: `/api/users/switch-client/${clientId}`, headers });

  const day = (d: Date) => d.toISOString().slice(0, 10);
  const last30 = `&startDate=${day(new Date(now.getTime() - 29 * 86_400_000))}&endDate=${day(now)}`;
  const narrowed = `&status=posted&location=${places[0]}`;
  const route = (path: string) => async () => {
    const res = await app.inject({ method: 'GET', url: `/api/v1/reputation${path}`, headers });
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  };
  const base = `site=google&clientId=${clientId}`;
  const cases = { all: '', last30Days: last30, statusAndLocation: narrowed };
  const routes: Record<string, { firstPage: { p50: number; p95: number }; kpis: { p50: number; p95: number } }> = {};
  for (const [name, filter] of Object.entries(cases)) {
    routes[name] = { firstPage: await timed(route(`?${base}${filter}`)), kpis: await timed(route(`/kpis?${base}${filter}`)) };
  }

  // The bare SQL of the same statements: the page (51 rows with its joins), the bounded count, the KPI pass and the new reviews.
  const from30 = sql`((${day(new Date(now.getTime() - 29 * 86_400_000))}::date)::timestamp at time zone ${zone})`;
  const to30 = sql`((${day(now)}::date)::timestamp at time zone ${zone}) + interval '1 day'`;
  const wheres = {
    all: sql`a.client_id = ${clientId} and a.site = 'google'`,
    last30Days: sql`a.client_id = ${clientId} and a.site = 'google' and a.invited_at >= ${from30} and a.invited_at < ${to30}`,
    statusAndLocation: sql`a.client_id = ${clientId} and a.site = 'google' and a.location_id in (${places[0]}) and a.status in ('posted')`,
  };
  const reviewWheres = {
    all: sql`client_id = ${clientId} and site = 'google'`,
    last30Days: sql`client_id = ${clientId} and site = 'google' and review_created_at >= ${from30} and review_created_at < ${to30}`,
    statusAndLocation: sql`client_id = ${clientId} and site = 'google' and location_id in (${places[0]})`,
  };
  type Timing = { p50: number; p95: number };
  const bare: Record<string, { firstPage: Timing; kpis: Timing; kpisSummary: Timing; newReviews: Timing }> = {};
  const scope = { clientId, timezone: zone };
  const filters = {
    all: {},
    last30Days: { startDate: day(new Date(now.getTime() - 29 * 86_400_000)), endDate: day(now) },
    statusAndLocation: { status: ['posted' as const], location: [places[0] ?? ''] },
  };
  for (const name of Object.keys(cases) as (keyof typeof wheres)[]) {
    const where = wheres[name];
    const firstPage = await timed(async () => {
      await db.execute(sql`select a.*, l.locationname, p.first_name || ' ' || p.last_name as personnel_name, r.created_at, r.rating, r.recommend,
          left(r.text, 161) as excerpt, r.url
        from amplifications a left join locations l on l._id = a.location_id left join personnel p on p.id = a.personnel_id
        left join reviews r on r.id = a.review_id where ${where} order by a.invited_at desc, a.id desc limit 51`);
      await db.execute(sql`select count(*)::int as n from (select 1 from amplifications a where ${where} limit 10001) s`);
    });
    const kpis = await timed(async () => {
      await db.execute(sql`select count(*)::int, count(a.clicked_at)::int, count(*) filter (where a.status = 'posted')::int,
          avg((select r.rating from reviews r where r.id = a.review_id)) filter (where a.status = 'posted')::float8
        from amplifications a where ${where}`);
      await db.execute(sql`select count(*)::int from reviews where ${reviewWheres[name]}`);
    });
    // The cards' amplification counts as the route now runs them (summary + edge days), without the route.
    const kpisSummary = await timed(async () => {
      await db.transaction(async (tx) => {
        await tx.execute(sql`set local jit = off`);
        await amplificationCounts(tx, scope, { site: 'google', ...filters[name] });
      });
    });
    const newReviews = await timed(async () => {
      await db.execute(sql`select count(*)::int from reviews where ${reviewWheres[name]}`);
    });
    bare[name] = { firstPage, kpis, kpisSummary, newReviews };
  }

  // What the summary's triggers add to the writers: the same writes with the triggers on, then
  // disabled (foreign keys still checked), each rolled back, over TRIGGER_ROWS rows: invitations written (as the sender does),
  // clicked (recordClick), matched with a review (matching) and a rating changed (ingest).
  const TRIGGER_ROWS = 10_000;
  const writeCosts: Record<string, { rows: number; withTriggerMs: number; withoutMs: number; perRowUs: number }> = {};
  const invitePool = sql`select r.id, s.site from survey_responses r
    cross join unnest(array['yelp', 'facebook', 'tripadvisor', 'bbb', 'angi', 'zocdoc', 'cars_com', 'dealerrater', 'edmunds', 'other']) s(site)
    where not exists (select 1 from amplifications a where a.response_id = r.id and a.site = s.site)
    order by r.id, s.site limit ${TRIGGER_ROWS}`;
  const [pool] = rowsOf(await db.execute(sql`select count(*)::int as n from (${invitePool}) p`));
  const rowsOfWrite: Record<string, number> = { invite: Number(pool?.n ?? 0) };
  const writes: Record<string, ReturnType<typeof sql>> = {
    // Real responses (the foreign key is checked) on sites the bench's rows do not use.
    invite: sql`insert into amplifications (client_id, location_id, response_id, site, channel, token, invited_at)
      select ${clientId}, ${places[0] ?? ''}, p.id, p.site, 'email', md5('trigger' || p.id || p.site), now() from (${invitePool}) p`,
    click: sql`update amplifications set status = 'clicked', clicked_at = invited_at + interval '1 minute', click_count = click_count + 1
      where id in (select id from amplifications where status = 'not_posted' order by id limit ${TRIGGER_ROWS})`,
    match: sql`update amplifications a set status = 'posted', review_id = ${firstReview + reviewCount}::bigint - s.n, matched_by = 'auto'
      from (select id, row_number() over (order by id) as n from amplifications where status = 'not_posted' order by id limit ${TRIGGER_ROWS}) s
      where a.id = s.id`,
    rating: sql`update reviews set rating = 1 + rating % 5 where id in (select review_id from amplifications where status = 'posted' order by id limit ${TRIGGER_ROWS})`,
  };
  for (const [name, statement] of Object.entries(writes)) {
    const once = async (off: boolean) => {
      const start = performance.now();
      await db
        .transaction(async (tx) => {
          if (off) {
            await tx.execute(sql`alter table amplifications disable trigger amplification_day_counts_amplification`);
            await tx.execute(sql`alter table reviews disable trigger amplification_day_counts_review`);
          }
          await tx.execute(statement);
          tx.rollback();
        })
        .catch((err: unknown) => {
          if (!(err instanceof Error) || !/rollback/i.test(err.message)) throw err;
        });
      return performance.now() - start;
    };
    const on: number[] = [];
    const off: number[] = [];
    for (let i = 0; i < 4; i++) {
      on.push(await once(false));
      off.push(await once(true));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const withTriggerMs = round(median(on));
    const withoutMs = round(median(off));
    const rows = rowsOfWrite[name] ?? TRIGGER_ROWS;
    writeCosts[name] = { rows, withTriggerMs, withoutMs, perRowUs: round(((withTriggerMs - withoutMs) * 1000) / Math.max(1, rows)) };
  }

  const result = {
    kind,
    amplifications: N,
    reviews: reviewCount,
    seedSeconds: Number(seedSeconds.toFixed(1)),
    summaryRebuildSeconds: Number(summarySeconds.toFixed(1)),
    summaryRows: Number(summaryRows?.n ?? 0),
    repeat: REPEAT,
    ceilingMs: 100,
    routes,
    bareSql: bare,
    triggerRows: TRIGGER_ROWS,
    writeCosts,
    measuredAt: new Date().toISOString(),
  };
  console.log(JSON.stringify(result));
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `reputation-panel-${kind}.json`), `${JSON.stringify(result, null, 2)}\n`);
  await app.close();
  await database.close();
  // BENCH_KEEP=1 leaves the PostgreSQL database for a look at its plans.
  if (kind === 'pg' && !process.env.BENCH_KEEP) {
    const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.end();
  }
}

// BENCH_ONLY=pg or BENCH_ONLY=pglite runs one of the two.
if (process.env.BENCH_ONLY !== 'pg') await run('pglite');
if (process.env.BENCH_DATABASE_URL && process.env.BENCH_ONLY !== 'pglite') await run('pg');
