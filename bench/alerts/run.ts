/**
 * bench/alerts: the alert engine's evaluation (`evaluate-alerts`, apps/server/src/alerts/evaluate.ts)
 * of BENCH_RESPONSES stored responses (10,000) against BENCH_RULES active rules (1,000) of one
 * client, on PGlite, and on PostgreSQL with BENCH_DATABASE_URL (it creates and drops `bench_alerts`).
 *
 *   npx tsx bench/alerts/run.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/alerts/run.ts
 *
 * The rules: 5 detractor rules to two addresses each (they fire on the ~64% of responses scoring
 * 0–6), 95 score_between 9–10 rules of another survey (match nothing here), 900 keyword rules
 * whose words the comments never hold. Responses are inserted in bulk with one `evaluate-alerts`
 * job each, and a real queue with the engine's registration (alerts/install.ts) drains them on one
 * connection (PGlite's only one); then 1,000 evaluated one call each, for comparison. Events are
 * inserted, not sent.
 * Results: bench/results/alerts-<db>.json; table: bench/README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { evaluateResponse } from '../../apps/server/src/alerts/evaluate.ts';
import { registerEvaluation } from '../../apps/server/src/alerts/install.ts';
import { openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';
import { createQueue } from '../../apps/server/src/pipeline/queue.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RESPONSES = Number(process.env.BENCH_RESPONSES ?? 10_000);
const RULES = Number(process.env.BENCH_RULES ?? 1_000);
const QUESTIONS = JSON.stringify([
  { id: 1, type: 'nps_0_10', text: 'Recommend us?', options: [], required: true, is_key_metric: true },
  { id: 3, type: 'text', text: 'Tell us more', options: [], required: false, is_key_metric: false },
]);

async function open(kind: 'pglite' | 'pg') {
  if (kind === 'pglite') return openDatabase({ kind, dataDir: null });
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query('drop database if exists bench_alerts with (force)');
  await admin.query('create database bench_alerts');
  await admin.end();
  const url = new URL(process.env.BENCH_DATABASE_URL ?? '');
  url.pathname = '/bench_alerts';
  return openDatabase({ kind, url: url.toString() });
}

async function run(kind: 'pglite' | 'pg') {
  const database = await open(kind);
  await database.migrate();
  const db = database.db;
  const at = new Date('2026-03-02T15:00:00Z');
  await db.execute(sql`insert into clients (id, name, timezone) values (1, 'Bench Co', 'America/Chicago')`);
  await db.execute(sql`insert into locations (_id, client_id, locationname, address1, city, state, postal_code, phone, timezone)
    values ('aaaaaaaaaaaaaaaaaaaaaaaa', 1, 'Downtown', '1 Main St', 'Chicago', 'IL', '60601', '+13125550100', 'America/Chicago')`);
  await db.execute(sql`insert into surveys (id, client_id, name, type, language, channel, sender_name, questions)
    values (1, 1, 'Visit', 'nps', 'en', 'email', 'Bench', ${QUESTIONS}::jsonb), (2, 1, 'Call', 'nps', 'en', 'email', 'Bench', ${QUESTIONS}::jsonb)`);
  const created = new Date(at.getTime() - 86_400_000).toISOString();
  await db.execute(sql`
    insert into survey_alert_rules (client_id, name, trigger, score_min, score_max, keywords, survey_ids, extra_emails, created_at, updated_at)
    select 1, 'Rule ' || i,
      case when i <= 5 then 'detractor' when i <= 100 then 'score_between' else 'keyword' end,
      case when i between 6 and 100 then 9 end, case when i between 6 and 100 then 10 end,
      case when i > 100 then array['zebra' || i, 'walrus' || i] else '{}'::text[] end,
      case when i between 6 and 100 then array[2] else '{}'::int[] end,
      array['owner' || i || '@bench.test', 'desk' || i || '@bench.test'],
      ${created}::timestamptz, ${created}::timestamptz
    from generate_series(1, ${RULES}) i`);
  await db.execute(sql`
    insert into survey_processing_items (client_id, location_id, survey_id, first_name, email, channel, status, sent_at, expires_at, source, token)
    select 1, 'aaaaaaaaaaaaaaaaaaaaaaaa', 1, 'Pat' || i, 'pat' || i || '@customer.test', 'email', 'responded',
      ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz + interval '30 days', 'api', md5(i::text)
    from generate_series(1, ${RESPONSES}) i`);
  await db.execute(sql`
    insert into survey_responses (processing_item_id, survey_id, client_id, location_id, key_score, nps_class, comment, answers, questions, submitted_at, updated_at)
    select id, 1, 1, 'aaaaaaaaaaaaaaaaaaaaaaaa', id % 11,
      case when id % 11 >= 9 then 'promoter' when id % 11 >= 7 then 'passive' else 'detractor' end,
      'The visit was fine, thanks ' || id, jsonb_build_object('1', id % 11, '3', 'The visit was fine, thanks ' || id),
      ${QUESTIONS}::jsonb, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
    from survey_processing_items`);
  // The job path: one `evaluate-alerts` job per response, as recordResponse enqueues them, drained
  // by a real queue with the engine's registration (claimed batches, one done-update per batch).
  await db.execute(sql`insert into jobs (queue, payload, status, run_at, max_attempts, singleton_key, created_at)
    select 'evaluate-alerts', jsonb_build_object('responseId', id), 'pending', ${at.toISOString()}::timestamptz, 5,
      'evaluate-alerts:' || id, ${at.toISOString()}::timestamptz
    from survey_responses`);
  const queue = createQueue(db, { now: () => at }, { onError: (err) => console.error(err) });
  registerEvaluation(queue, db);
  const t0 = performance.now();
  const jobs = await queue.runDue(at);
  const seconds = (performance.now() - t0) / 1000;
  const [counts] = rowsOf(
    await db.execute(sql`select (select count(*) from survey_alert_events)::int as events,
      (select count(*) from jobs where status <> 'done')::int as not_done`),
  );
  const events = Number(counts?.events);
  if (jobs !== RESPONSES || Number(counts?.not_done) !== 0) throw new Error(`ran ${jobs} jobs, ${String(counts?.not_done)} not done`);
  // The ceiling: the same events written by one bare INSERT … SELECT (no job, no rule matching in
  // JavaScript, no recipients resolved), with the table's indexes and foreign keys.
  await db.execute(sql`delete from survey_alert_events`);
  const tBare = performance.now();
  await db.execute(sql`
    insert into survey_alert_events (rule_id, client_id, response_id, channel, recipient, state, next_retry_at, created_at, updated_at)
    select r.id, 1, s.id, 'email', e.addr, 'pending', ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
    from survey_responses s
    join survey_alert_rules r on r.trigger = 'detractor' and s.nps_class = 'detractor'
    cross join unnest(r.extra_emails) as e(addr)`);
  const bareSeconds = (performance.now() - tBare) / 1000;
  // For comparison, the same evaluation one response per call (the single-job path), on 1,000 of them.
  await db.execute(sql`delete from survey_alert_events`);
  const ids = rowsOf(await db.execute(sql`select id from survey_responses order by id limit 1000`)).map((r) => Number(r.id));
  const t1 = performance.now();
  for (const id of ids) await evaluateResponse(db, id, at);
  const oneByOne = ids.length / ((performance.now() - t1) / 1000);
  const result = {
    kind,
    responses: RESPONSES,
    rules: RULES,
    events,
    seconds: Number(seconds.toFixed(2)),
    responsesPerSecond: Math.round(RESPONSES / seconds),
    oneByOneResponsesPerSecond: Math.round(oneByOne),
    bareInsertSeconds: Number(bareSeconds.toFixed(2)),
    bareInsertResponsesPerSecond: Math.round(RESPONSES / bareSeconds),
    measuredAt: new Date().toISOString(),
  };
  console.log(JSON.stringify(result));
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `alerts-${kind}.json`), `${JSON.stringify(result, null, 2)}\n`);
  await database.close();
  if (kind === 'pg') {
    const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
    await admin.connect();
    await admin.query('drop database if exists bench_alerts with (force)');
    await admin.end();
  }
}

// BENCH_ONLY=pg or BENCH_ONLY=pglite runs one of the two (e.g. to profile it).
if (process.env.BENCH_ONLY !== 'pg') await run('pglite');
if (process.env.BENCH_DATABASE_URL && process.env.BENCH_ONLY !== 'pglite') await run('pg');
