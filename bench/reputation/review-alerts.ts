/**
 * bench/reputation/review-alerts: the review alert engine's evaluation (`evaluate-review-alerts`,
 * apps/server/src/review-alerts/evaluate.ts) of BENCH_REVIEWS stored reviews (10,000) against
 * BENCH_RULES active rules (1,000) of one client, on PGlite, and on PostgreSQL with
 * BENCH_DATABASE_URL (it creates and drops `bench_review_alerts`).
 *
 *   npx tsx bench/reputation/review-alerts.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/reputation/review-alerts.ts
 *
 * The rules, as bench/alerts's: 5 "1–2 star" rules to two addresses each (they fire on the 40% of
 * reviews rated 1 or 2), 95 Yelp rules (the reviews are Google's: match nothing), 900 keyword
 * rules whose words the reviews never hold. Reviews are inserted in bulk with one job each, and a
 * real queue with the engine's registration (review-alerts/install.ts) drains them; deliveries are
 * inserted, not sent. The ceiling: the same deliveries by one bare INSERT … SELECT.
 * Results: bench/results/review-alerts-<db>.json; table: bench/README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';
import { createQueue } from '../../apps/server/src/pipeline/queue.ts';
import { registerReviewEvaluation } from '../../apps/server/src/review-alerts/install.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 10_000);
const RULES = Number(process.env.BENCH_RULES ?? 1_000);
const DB_NAME = 'bench_review_alerts';

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

async function run(kind: 'pglite' | 'pg') {
  const database = await open(kind);
  await database.migrate();
  const db = database.db;
  const at = new Date('2026-03-02T15:00:00Z');
  const iso = at.toISOString();
  await db.execute(sql`insert into clients (id, name, timezone) values (1, 'Bench Co', 'America/Chicago')`);
  await db.execute(sql`insert into locations (_id, client_id, locationname, address1, city, state, postal_code, phone, timezone)
    values ('aaaaaaaaaaaaaaaaaaaaaaaa', 1, 'Downtown', '1 Main St', 'Chicago', 'IL', '60601', '+13125550100', 'America/Chicago')`);
  await db.execute(sql`
    insert into review_alert_rules (client_id, name, sites, rating_min, rating_max, keywords, extra_emails, created_at, updated_at)
    select 1, 'Rule ' || i,
      case when i between 6 and 100 then array['yelp'] else array['google'] end,
      case when i <= 5 then 1 end, case when i <= 5 then 2 end,
      case when i > 100 then array['zebra' || i, 'walrus' || i] else '{}'::text[] end,
      array['owner' || i || '@bench.test', 'desk' || i || '@bench.test'],
      ${iso}::timestamptz, ${iso}::timestamptz
    from generate_series(1, ${RULES}) i`);
  await db.execute(sql`
    insert into reviews (client_id, location_id, site, external_id, author_name, rating, text, review_created_at, source, fetched_at)
    select 1, 'aaaaaaaaaaaaaaaaaaaaaaaa', 'google', 'g' || i, 'Pat ' || i, 1 + i % 5, 'The visit was fine, thanks ' || i,
      ${iso}::timestamptz - interval '1 hour', 'api', ${iso}::timestamptz
    from generate_series(1, ${REVIEWS}) i`);
  await db.execute(sql`insert into jobs (queue, payload, status, run_at, max_attempts, singleton_key, created_at)
    select 'evaluate-review-alerts', jsonb_build_object('reviewId', id), 'pending', ${iso}::timestamptz, 5,
      'evaluate-review-alerts:' || id, ${iso}::timestamptz
    from reviews`);
  const queue = createQueue(db, { now: () => at }, { onError: (err) => console.error(err) });
  registerReviewEvaluation(queue, db);
  const t0 = performance.now();
  const jobs = await queue.runDue(at);
  const seconds = (performance.now() - t0) / 1000;
  const [counts] = rowsOf(
    await db.execute(sql`select (select count(*) from review_alert_deliveries)::int as deliveries,
      (select count(*) from jobs where status <> 'done')::int as not_done`),
  );
  if (jobs !== REVIEWS || Number(counts?.not_done) !== 0) throw new Error(`ran ${jobs} jobs, ${String(counts?.not_done)} not done`);
  await db.execute(sql`delete from review_alert_deliveries`);
  const tBare = performance.now();
  await db.execute(sql`
    insert into review_alert_deliveries (rule_id, client_id, review_id, channel, recipient, status, next_retry_at, created_at, updated_at)
    select r.id, 1, v.id, 'email', e.addr, 'pending', ${iso}::timestamptz, ${iso}::timestamptz, ${iso}::timestamptz
    from reviews v
    join review_alert_rules r on r.rating_max is not null and v.rating between r.rating_min and r.rating_max
    cross join unnest(r.extra_emails) as e(addr)`);
  const bareSeconds = (performance.now() - tBare) / 1000;
  const result = {
    kind,
    reviews: REVIEWS,
    rules: RULES,
    deliveries: Number(counts?.deliveries),
    seconds: Number(seconds.toFixed(2)),
    reviewsPerSecond: Math.round(REVIEWS / seconds),
    bareInsertSeconds: Number(bareSeconds.toFixed(2)),
    bareInsertReviewsPerSecond: Math.round(REVIEWS / bareSeconds),
    measuredAt: new Date().toISOString(),
  };
  console.log(JSON.stringify(result));
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `review-alerts-${kind}.json`), `${JSON.stringify(result, null, 2)}\n`);
  await database.close();
  if (kind === 'pg') {
    const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.end();
  }
}

// BENCH_ONLY=pg or BENCH_ONLY=pglite runs one of the two.
if (process.env.BENCH_ONLY !== 'pg') await run('pglite');
if (process.env.BENCH_DATABASE_URL && process.env.BENCH_ONLY !== 'pglite') await run('pg');
