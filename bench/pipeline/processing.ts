/**
 * bench/pipeline/processing: Survey Processing over 5,000,000 invitations on PostgreSQL.
 *
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/pipeline/processing.ts   # drops/creates bench_processing
 *   BENCH_ROWS=5000000 BENCH_REPEAT=40 (defaults); BENCH_KEEP=1 measures the rows generated before
 *
 * The items are generated in SQL (`generate_series`, deterministic) over the demo data's clients,
 * surveys and locations: every status, both channels, created over 365 days. The server runs in
 * this process on a real port (buildApp + listen) and every number is over HTTP: the first page,
 * a page 4,000,000 rows deep (keyset cursor) and a client + status + date range filter, p50/p95 of
 * `BENCH_REPEAT` requests each (the answer's bounded count included). In the same run the same
 * page queries go to PostgreSQL directly through node-postgres (bare SQL, no HTTP, no count, no
 * JSON): the ceiling. Results: bench/results/processing-pg.json; table: bench/README.md
 * ("Pipeline: Survey Processing").
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';
import { PROCESSING_ITEM_STATUSES } from '../../packages/shared/src/resources/surveys.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROWS = Number(process.env.BENCH_ROWS ?? 5_000_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 40);
const DEEP = Math.min(4_000_000, Math.floor(ROWS * 0.8));
const BATCH = 500_000;
const PASSWORD = 'demo-password';
const ANCHOR = '2026-11-01T00:00:00Z';
const STATUSES = PROCESSING_ITEM_STATUSES;

type Stats = { p50: number; p95: number; min: number; max: number };
const stats = (ms: number[]): Stats => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Math.round((s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0) * 100) / 100;
  return { p50: at(0.5), p95: at(0.95), min: at(0), max: at(1) };
};

/** Demo data, then ROWS items in batches, each an `insert … select … from generate_series`. */
async function generate(url: string): Promise<void> {
  const t0 = performance.now();
  const database = await openDatabase({ kind: 'pg', url });
  await database.migrate();
  await seedDemoData(database.db, testConfig({ demoPassword: PASSWORD }));
  await database.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // One (client, survey, location) per client that has a survey with a location.
  await client.query(`create temp table targets as
    select row_number() over (order by s.client_id) - 1 as k, s.client_id, min(s.id) as survey_id, min(sl.location_id) as location_id
    from surveys s join survey_locations sl on sl.survey_id = s.id group by s.client_id`);
  const { rows } = await client.query<{ n: number }>('select count(*)::int as n from targets');
  const targets = rows[0]?.n ?? 0;
  if (targets === 0) throw new Error('the demo data has no survey with a location');
  const existing = Number((await client.query<{ n: string }>('select count(*) as n from survey_processing_items')).rows[0]?.n ?? 0);
  const statuses = `array[${STATUSES.map((s) => `'${s}'`).join(',')}]`;
  const step = (365 * 86_400) / ROWS;
  for (let from = 1; from <= ROWS - existing; from += BATCH) {
    const to = Math.min(ROWS - existing, from + BATCH - 1);
    await client.query(`insert into survey_processing_items
      (client_id, location_id, survey_id, first_name, last_name, email, phone, transaction_id, transaction_date, channel,
       status, skip_reason, scheduled_at, sent_at, attempts, token, expires_at, source, created_at, updated_at)
      select t.client_id, t.location_id, t.survey_id, 'Customer' || i, 'Bench' || (i % 997),
        'customer' || i || '@example.com', '+1303' || lpad((i % 10000000)::text, 7, '0'), 'T' || i,
        to_char(c.at, 'YYYY-MM-DD'), case when i % 5 = 0 then 'sms' else 'email' end,
        s.status, case when s.status like 'skipped%' or s.status = 'invalid_contact' then 'bench' end,
        c.at + interval '24 hours', case when s.status in ('sent','delivered','opened','responded','reminded') then c.at + interval '25 hours' end,
        case when s.status = 'failed' then 3 else 1 end, md5(i::text) || i, c.at + interval '30 days', 'csv_upload', c.at, c.at
      from generate_series(${from}, ${to}) as i
      join targets t on t.k = i % ${targets}
      cross join lateral (select '${ANCHOR}'::timestamptz - ((${ROWS} - i) * ${step}) * interval '1 second' as at) c
      cross join lateral (select (${statuses})[1 + (i * 7) % ${STATUSES.length}] as status) s`);
    process.stdout.write(`  ${to.toLocaleString()} rows\r`);
  }
  await client.query('analyze survey_processing_items');
  await client.end();
  console.log(`  generated ${ROWS.toLocaleString()} items in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function timed(times: number, call: () => Promise<unknown>): Promise<Stats> {
  const ms: number[] = [];
  await call(); // warm: plan cache, buffers
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await call();
    ms.push(performance.now() - t);
  }
  return stats(ms);
}

/** The page query the repository runs (names by scalar subqueries), as bare SQL with `$1…` parameters. */
const PAGE_SQL = (where: string) => `select i.*, (select name from clients c where c.id = i.client_id),
    (select locationname from locations l where l._id = i.location_id),
    (select coalesce(p.display_name, p.first_name || ' ' || p.last_name) from personnel p where p.id = i.personnel_id),
    (select name from products pr where pr.id = i.product_id), (select name from referral_sources r where r.id = i.referral_source_id),
    (select name from surveys s where s.id = i.survey_id), i.created_at::text, i.id::text
  from survey_processing_items i ${where} order by i.created_at desc, i.id desc limit 51`;

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('Set BENCH_DATABASE_URL=postgres://… (PostgreSQL; it drops and creates bench_processing)');
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  if (process.env.BENCH_KEEP !== '1') {
    await admin.query('drop database if exists bench_processing with (force)');
    await admin.query('create database bench_processing');
  }
  await admin.end();
  const target = new URL(url);
  target.pathname = '/bench_processing';
  const dbUrl = target.toString();
  if (process.env.BENCH_KEEP !== '1') await generate(dbUrl);

  const bare = new pg.Client({ connectionString: dbUrl });
  await bare.connect();
  const deepRow = (
    await bare.query<{ at: string; id: string; client_id: number }>(
      `select created_at::text as at, id::text as id, client_id from survey_processing_items order by created_at desc, id desc offset ${DEEP - 1} limit 1`,
    )
  ).rows[0];
  if (!deepRow) throw new Error('not enough rows');
  const cursor = Buffer.from(JSON.stringify([deepRow.at, deepRow.id])).toString('base64url');
  const filter = { client: deepRow.client_id, status: ['failed', 'sent'], start: '2026-06-01', end: '2026-06-30' };

  const database = await openDatabase({ kind: 'pg', url: dbUrl });
  const app = await buildApp(testConfig({ demoPassword: PASSWORD, workers: false }), { database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const headers = { authorization: `Bearer ${token}` };
  const http = (query: string) => async () => {
    const res = await fetch(`${base}/api/survey-processing?perPage=50${query}`, { headers });
    const body = (await res.json()) as { data: unknown[] };
    if (!res.ok || body.data.length === 0) throw new Error(`${query}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  };
  const sqlCall = (where: string, params: unknown[]) => async () => {
    const { rows } = await bare.query(PAGE_SQL(where), params);
    if (rows.length === 0) throw new Error(`bare query found nothing: ${where}`);
  };
  const filterWhere = 'where i.client_id = $1 and i.status = any($2) and i.created_at >= $3::date and i.created_at < ($4::date + 1)';
  const filterParams = [filter.client, filter.status, filter.start, filter.end];
  const filterQuery = `&client=${filter.client}&status=${filter.status.join(',')}&startDate=${filter.start}&endDate=${filter.end}`;

  const loadBefore = Math.round((loadavg()[0] ?? 0) * 100) / 100;
  try {
    // Interleaved per measurement, so the API and its ceiling see the same machine state.
    const measurements = {
      firstPage: { api: await timed(REPEAT, http('')), bareSql: await timed(REPEAT, sqlCall('', [])) },
      deepPage: {
        api: await timed(REPEAT, http(`&cursor=${cursor}`)),
        bareSql: await timed(REPEAT, sqlCall('where (i.created_at, i.id) < ($1::timestamptz, $2::int)', [deepRow.at, deepRow.id])),
      },
      clientStatusDateRange: {
        api: await timed(REPEAT, http(filterQuery)),
        bareSql: await timed(REPEAT, sqlCall(filterWhere, filterParams)),
      },
    };
    const plans: Record<string, string> = {};
    for (const [name, where, params] of [
      ['firstPage', '', []],
      ['deepPage', 'where (i.created_at, i.id) < ($1::timestamptz, $2::int)', [deepRow.at, deepRow.id]],
      ['clientStatusDateRange', filterWhere, filterParams],
    ] as const) {
      const { rows } = await bare.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, buffers off, timing off, costs off) ${PAGE_SQL(where)}`,
        [...params],
      );
      plans[name] = rows.map((r) => r['QUERY PLAN']).join('\n');
    }
    const result = {
      database: 'pg',
      rows: ROWS,
      deepOffset: DEEP,
      filter,
      repeat: REPEAT,
      measuredAt: new Date().toISOString(),
      target: 'p95 ≤ 50 ms each over HTTP',
      measurements,
      met: Object.fromEntries(Object.entries(measurements).map(([k, v]) => [k, v.api.p95 <= 50])),
      plans,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      // The machine's load while measuring: other work on its cores slows both sides alike.
      cores: cpus().length,
      loadAverage1m: { before: loadBefore, after: Math.round((loadavg()[0] ?? 0) * 100) / 100 },
    };
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/results/processing-pg.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify({ ...result, plans: undefined }, null, 2));
    for (const [name, plan] of Object.entries(plans)) console.log(`\n${name}:\n${plan}`);
  } finally {
    await app.close();
    await database.close();
    await bare.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
