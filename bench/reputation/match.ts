/**
 * bench/reputation/match: matching new reviews to open review invitations through the real
 * `match-review` job handler (apps/server/src/reputation/amplify/install.ts `registerMatching`,
 * batches of 500) — issue 21, "Benchmark": BENCH_REVIEWS (100,000) new reviews against
 * BENCH_INVITATIONS (1,000,000) open invitations, ≥ 5,000 reviews/s — beside a bare-SQL ceiling,
 * on PostgreSQL with BENCH_DATABASE_URL (it creates and drops `bench_reviews_match`), and on
 * PGlite with BENCH_PGLITE=1 (slow to fill; use smaller BENCH_* numbers there).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/reputation/match.ts
 *
 * The world: one client, BENCH_LOCATIONS (20,000) locations with 50 open Google invitations each,
 * invited over the last 14 days, one in five clicked, customers named from 200 first × 100 last
 * names (so names collide, as in life). Each invitation rests on a real answered survey invitation
 * and response (the foreign keys and the survey comment the scorer reads). Reviews: three in ten by
 * an invited customer ("Dana L.", a few hours after the invitation, echoing the comment when there
 * is one), the rest by strangers drawn from the same names. One `match-review` job per review, as
 * the ingest enqueues them, drained by a real queue on one connection.
 * The ceiling: the same candidate read (the lateral on amplifications_open_idx, every pair) as one
 * bare statement counting the pairs, no scoring and no writes.
 * BENCH_KEEP_WORLD=1 (PostgreSQL) keeps the filled world as a database of its own and starts each
 * later run from a copy of it (drop `bench_reviews_match_world_*` by hand when done).
 * Results: bench/results/reputation-match-<db>.json; table: bench/README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, type Db, openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';
import { createQueue } from '../../apps/server/src/pipeline/queue.ts';
import { registerMatching } from '../../apps/server/src/reputation/amplify/install.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const INVITATIONS = Number(process.env.BENCH_INVITATIONS ?? 1_000_000);
const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 100_000);
const LOCATIONS = Number(process.env.BENCH_LOCATIONS ?? 20_000);
const DB_NAME = 'bench_reviews_match';
const KEEP_WORLD = process.env.BENCH_KEEP_WORLD === '1';
const FIRST = `{${'Dana,Alex,Sam,Jordan,Taylor,Morgan,Casey,Riley,Jamie,Avery,Maria,James,Linda,Robert,Patricia,Michael,Jennifer,David,Susan,William,Karen,Joseph,Nancy,Thomas,Lisa,Charles,Betty,Daniel,Sandra,Matthew,Ashley,Anthony,Emily,Mark,Donna,Paul,Michelle,Steven,Carol,Kevin'}}`;
const LAST = `{${'Lee,Smith,Brown,Garcia,Miller,Davis,Lopez,Wilson,Moore,Clark,Johnson,Williams,Jones,Rodriguez,Martinez,Hernandez,Gonzalez,Anderson,Thomas,Taylor,Jackson,Martin,Perez,Thompson,White,Harris,Sanchez,Ramirez,Lewis,Robinson,Walker,Young,Allen,King,Wright,Scott,Torres,Nguyen,Hill,Flores,Green,Adams,Nelson,Baker,Hall,Rivera,Campbell,Mitchell,Carter,Roberts'}}`;
const QUESTIONS = JSON.stringify([
  { id: 1, type: 'nps_0_10', text: 'Recommend us?', options: [], required: true, is_key_metric: true },
  { id: 2, type: 'text', text: 'Tell us more', options: [], required: false, is_key_metric: false },
]);

/** A PostgreSQL database named `name` (dropped first), made from `template` when given. */
async function createPgDatabase(name: string, template?: string) {
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
}

async function pgExists(name: string): Promise<boolean> {
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await admin.connect();
  const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
  await admin.end();
  return (found.rowCount ?? 0) > 0;
}

async function dropPgDatabase(name: string) {
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

function pgUrl(name: string): string {
  const url = new URL(process.env.BENCH_DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  return url.toString();
}

const seconds = (t0: number) => Number(((performance.now() - t0) / 1000).toFixed(2));

/** Fills the world described above into `db` (invitations before `at`, reviews up to `at`). */
async function fill(db: Db, at: Date) {
  const iso = at.toISOString();
  await db.execute(sql`insert into clients (id, name, timezone) values (1, 'Bench Co', 'America/Chicago')`);
  await db.execute(sql`insert into locations (_id, client_id, locationname, address1, city, state, postal_code, phone, timezone)
    select lpad(to_hex(i), 24, '0'), 1, 'Store ' || i, i || ' Main St', 'Chicago', 'IL', '60601', '+13125550100', 'America/Chicago'
    from generate_series(1, ${LOCATIONS}) i`);
  await db.execute(sql`insert into surveys (id, client_id, name, type, language, channel, sender_name, questions)
    values (1, 1, 'Visit', 'nps', 'en', 'email', 'Bench', ${QUESTIONS}::jsonb)`);
  // Invitation i: location i % L, invited (i * 7919 % 20,160) minutes before `at` (spread over 14 days).
  await db.execute(sql`create temporary table bench_names as
    select i, (${FIRST}::text[])[1 + i % 40] as first, (${LAST}::text[])[1 + i / 40 % 50] as last
    from generate_series(0, 1999) i`);
  await db.execute(sql`
    insert into survey_processing_items (id, client_id, location_id, survey_id, first_name, last_name, email, channel, status, sent_at, expires_at, source, token)
    select g.k, 1, lpad(to_hex(1 + g.k % ${LOCATIONS}), 24, '0'), 1, n.first, n.last, 'c' || g.k || '@customer.test', 'email', 'responded',
      ${iso}::timestamptz - make_interval(mins => ((g.k::bigint * 7919) % 20160)::int), ${iso}::timestamptz + interval '30 days', 'api', md5(g.k::text)
    from generate_series(1, ${INVITATIONS}) g(k) join bench_names n on n.i = (g.k * 31) % 2000`);
  await db.execute(sql`
    insert into survey_responses (id, processing_item_id, survey_id, client_id, location_id, key_score, nps_class, comment, answers, questions, submitted_at, updated_at)
    select id, id, 1, 1, location_id, 9, 'promoter',
      case when id % 3 = 0 then 'Quick service and friendly staff at store ' || (id % 97) end,
      '{"1": 9}'::jsonb, ${QUESTIONS}::jsonb, sent_at, sent_at
    from survey_processing_items`);
  await db.execute(sql`
    insert into amplifications (client_id, location_id, response_id, site, channel, token, customer_name, survey_score, invited_at, clicked_at, click_count, status, created_at, updated_at)
    select 1, i.location_id, i.id, 'google', 'email', md5('r' || i.id), i.first_name || ' ' || i.last_name, 9, i.sent_at,
      case when i.id % 5 = 0 then i.sent_at + interval '3 minutes' end, case when i.id % 5 = 0 then 1 else 0 end,
      case when i.id % 5 = 0 then 'clicked' else 'invited' end, i.sent_at, i.sent_at
    from survey_processing_items i`);
  // Reviews: r % 10 < 3 by invitation (r * 104729 % N) + 1, a few hours after it; else a stranger.
  await db.execute(sql`
    insert into reviews (client_id, location_id, site, external_id, author_name, rating, text, review_created_at, source, fetched_at)
    select 1, case when r % 10 < 3 then i.location_id else lpad(to_hex(1 + (r * 613) % ${LOCATIONS}), 24, '0') end, 'google', 'bench-' || r,
      case when r % 10 < 3 then i.first_name || ' ' || left(i.last_name, 1) || '.' else n.first || ' ' || left(n.last, 1) || '.' end,
      1 + r % 5,
      case when r % 10 < 3 then coalesce(sr.comment, 'Great visit') else 'Nice place' end,
      case when r % 10 < 3 then least(${iso}::timestamptz, i.sent_at + make_interval(hours => 1 + r % 30)) else ${iso}::timestamptz end,
      'demo', ${iso}::timestamptz
    from generate_series(1, ${REVIEWS}) r
    join survey_processing_items i on i.id = (r::bigint * 104729) % ${INVITATIONS} + 1
    join survey_responses sr on sr.id = i.id
    join bench_names n on n.i = (r * 17) % 2000`);
  await db.execute(sql`analyze`);
}

/**
 * The database to measure on, filled. With BENCH_KEEP_WORLD=1 on PostgreSQL the filled world is
 * kept as a database of its own (named by its sizes) and each run starts from a copy of it, so a
 * run before and after a change costs seconds instead of minutes of filling.
 */
async function prepare(kind: 'pglite' | 'pg', at: Date): Promise<{ database: Database; fillSeconds: number }> {
  const tFill = performance.now();
  if (kind === 'pglite') {
    const database = await openDatabase({ kind, dataDir: null });
    await database.migrate();
    await fill(database.db, at);
    return { database, fillSeconds: seconds(tFill) };
  }
  const world = `${DB_NAME}_world_${INVITATIONS}_${REVIEWS}_${LOCATIONS}`;
  if (KEEP_WORLD && (await pgExists(world))) {
    await createPgDatabase(DB_NAME, world);
  } else {
    await createPgDatabase(DB_NAME);
    const filling = await openDatabase({ kind, url: pgUrl(DB_NAME) });
    await filling.migrate();
    await fill(filling.db, at);
    await filling.close();
    if (KEEP_WORLD) await createPgDatabase(world, DB_NAME);
  }
  const database = await openDatabase({ kind, url: pgUrl(DB_NAME) });
  // A kept world made before a newer migration gets it here.
  await database.migrate();
  return { database, fillSeconds: seconds(tFill) };
}

async function run(kind: 'pglite' | 'pg') {
  const at = new Date('2026-05-01T12:00:00Z');
  const iso = at.toISOString();
  const { database, fillSeconds } = await prepare(kind, at);
  const db = database.db;

  // The ceiling first (it writes nothing): every candidate pair read in one statement.
  const tBare = performance.now();
  const [bare] = rowsOf(
    await db.execute(sql`
      select count(*)::int as pairs from reviews rv
      cross join lateral (
        select a.id, a.customer_name, a.clicked_at from amplifications a
         where a.location_id = rv.location_id and a.site = rv.site and a.status in ('invited', 'clicked')
           and a.invited_at <= rv.review_created_at and a.invited_at >= rv.review_created_at - interval '14 days'
           and (a.clicked_at is not null or lower(left(a.customer_name, 1)) = lower(left(ltrim(rv.author_name), 1)))
         order by a.invited_at desc limit 500) c`),
  );
  const bareSeconds = seconds(tBare);

  await db.execute(sql`insert into jobs (queue, payload, status, run_at, max_attempts, singleton_key, created_at)
    select 'match-review', jsonb_build_object('reviewId', id), 'pending', ${iso}::timestamptz, 5, 'match-review:' || id, ${iso}::timestamptz
    from reviews`);
  const queue = createQueue(db, { now: () => at }, { onError: (err) => console.error(err) });
  registerMatching(queue, db);
  const t0 = performance.now();
  const jobs = await queue.runDue(at);
  const jobSeconds = seconds(t0);
  const [counts] = rowsOf(
    await db.execute(sql`select
      (select count(*) from amplifications where status = 'posted')::int as posted,
      (select count(*) from amplifications where suggested_review_id is not null)::int as suggested,
      (select count(*) from amplifications a join reviews rv on rv.id = a.review_id
        join survey_processing_items i on i.id = a.response_id
        where rv.author_name <> i.first_name || ' ' || left(i.last_name, 1) || '.')::int as posted_to_other_name,
      (select count(*) from jobs where status <> 'done')::int as not_done`),
  );
  if (jobs !== REVIEWS || Number(counts?.not_done) !== 0) throw new Error(`ran ${jobs} jobs, ${String(counts?.not_done)} not done`);
  const result = {
    kind,
    invitations: INVITATIONS,
    reviews: REVIEWS,
    locations: LOCATIONS,
    fillSeconds,
    jobSeconds,
    reviewsPerSecond: Math.round(REVIEWS / jobSeconds),
    posted: Number(counts?.posted),
    suggested: Number(counts?.suggested),
    postedToOtherName: Number(counts?.posted_to_other_name),
    bareCandidatePairs: Number(bare?.pairs),
    bareSeconds,
    bareReviewsPerSecond: Math.round(REVIEWS / bareSeconds),
    measuredAt: new Date().toISOString(),
  };
  console.log(JSON.stringify(result));
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `reputation-match-${kind}.json`), `${JSON.stringify(result, null, 2)}\n`);
  await database.close();
  if (kind === 'pg') await dropPgDatabase(DB_NAME);
}

if (process.env.BENCH_DATABASE_URL) await run('pg');
if (process.env.BENCH_PGLITE === '1') await run('pglite');
