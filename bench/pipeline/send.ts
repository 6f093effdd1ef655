/**
 * bench/pipeline/send: 100,000 due invitations sent to the outbox by the send engine
 * (apps/server/src/pipeline/send.ts: claim with SKIP LOCKED, render, messenger.send with its
 * opt-out and suppression checks, the NotificationLog row and its event, the item updated), on
 * PGlite and, with BENCH_DATABASE_URL, PostgreSQL: with one worker, and with two workers (two
 * processes on PostgreSQL; on PGlite, whose data directory one process owns, two engines in one
 * process). In the same run, the ceiling: one bare SQL insert of 100,000 notification rows.
 *
 *   npm run bench:send
 *   BENCH_SEND_ITEMS=100000 BENCH_DATABASE_URL=postgres://… npm run bench:send
 *
 * BENCH_DATABASE_URL is a server's admin URL: the bench creates and drops its own database.
 * Results: bench/results/send-<db>.json; table: bench/README.md ("Pipeline: send").
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { testConfig } from '../../apps/server/src/config.ts';
import { type Database, openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';
import { createMessenger } from '../../apps/server/src/messaging/send.ts';
import { surveySettingsOn } from '../../apps/server/src/modules/survey-settings/repository.ts';
import { systemClock } from '../../apps/server/src/pipeline/clock.ts';
import { createSendEngine } from '../../apps/server/src/pipeline/send.ts';
import { reportTriggersPerEnv } from '../reports/triggers.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ITEMS = Number(process.env.BENCH_SEND_ITEMS ?? 100_000);
const DB_NAME = 'bench_send';

/** Sends until nothing is due; answers how many this engine sent. */
async function drain(database: Database): Promise<number> {
  const engine = createSendEngine(
    database.db,
    createMessenger(database.db, testConfig().messaging),
    systemClock,
    surveySettingsOn(database.db),
  );
  let total = 0;
  for (;;) {
    const n = await engine.run(systemClock.now());
    if (n === 0) return total;
    total += n;
  }
}

/** A client, a location, an e-mail survey and ITEMS invitations due now. */
async function fixture(database: Database) {
  const db = database.db;
  await db.execute(sql`insert into clients (id, name, timezone) values (1, 'Bench Co', 'America/Chicago')`);
  await db.execute(sql`insert into locations (_id, client_id, locationname, address1, city, state, postal_code, phone, timezone)
    values ('BENCH', 1, 'Downtown', '1 Main St', 'Chicago', 'IL', '60601', '+13125550100', 'America/Chicago')`);
  await db.execute(sql`insert into surveys (id, client_id, name, type, language, channel, sender_name, email_subject, email_body, reminder_count)
    values (1, 1, 'Bench', 'nps', 'en', 'email', 'Bench Co', 'How was {location_name}?', 'Hi {first_name}, tell us: {survey_link}', 0)`);
  await reset(database);
}

/** Every invitation back to due, the outbox empty. */
async function reset(database: Database) {
  const db = database.db;
  await db.execute(sql`delete from notification_events`);
  await db.execute(sql`delete from notification_logs`);
  await db.execute(sql`delete from survey_processing_items`);
  await db.execute(sql`
    insert into survey_processing_items (client_id, location_id, survey_id, first_name, email, channel, status, scheduled_at, token, expires_at, source)
    select 1, 'BENCH', 1, 'Pat' || i, 'pat' || i || '@bench.example.com', 'email', 'scheduled', now() - interval '1 minute',
      md5(i::text || random()::text) || md5(i::text), now() + interval '30 days', 'api'
    from generate_series(1, ${ITEMS}) as i`);
  await db.execute(sql`analyze survey_processing_items`);
}

async function sentCount(database: Database): Promise<number> {
  const [row] = rowsOf(await database.db.execute(sql`select count(*)::int as n from notification_logs where status = 'sent'`));
  return Number(row?.n ?? 0);
}

/** The ceiling: the same number of notification rows in one bare insert. */
async function ceiling(database: Database): Promise<number> {
  await database.db.execute(sql`delete from notification_events`);
  await database.db.execute(sql`delete from notification_logs`);
  const t = performance.now();
  await database.db.execute(sql`
    insert into notification_logs (client_id, location_id, channel, type, recipient, subject_or_template, body_text, body_html, status, related_type, related_id)
    select 1, 'BENCH', 'email', 'survey_invite', 'pat' || i || '@bench.example.com', 'How was Downtown?',
      'Hi Pat, tell us: http://localhost/s/' || md5(i::text), '<p>Hi</p>', 'sent', 'survey_processing_item', i::text
    from generate_series(1, ${ITEMS}) as i`);
  return (performance.now() - t) / 1000;
}

/** Two worker processes on the same PostgreSQL database, timed from the moment both are ready. */
async function twoProcesses(url: string): Promise<{ seconds: number; perWorker: number[] }> {
  const children = [0, 1].map(() => fork(fileURLToPath(import.meta.url), ['worker', url], { execArgv: ['--import', 'tsx'] }));
  await Promise.all(children.map((c) => new Promise<void>((ok) => c.once('message', () => ok()))));
  const t = performance.now();
  const counts = await Promise.all(
    children.map(
      (c) =>
        new Promise<number>((ok) => {
          c.once('message', (m) => ok(Number(m)));
          c.send('go');
        }),
    ),
  );
  return { seconds: (performance.now() - t) / 1000, perWorker: counts };
}

async function run(kind: 'pglite' | 'pg') {
  let url = '';
  if (kind === 'pg') {
    const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.query(`create database ${DB_NAME}`);
    await admin.end();
    const u = new URL(process.env.BENCH_DATABASE_URL ?? '');
    u.pathname = `/${DB_NAME}`;
    url = u.toString();
  }
  const database = await openDatabase(kind === 'pglite' ? { kind, dataDir: null } : { kind, url });
  await database.migrate();
  const reportTriggers = await reportTriggersPerEnv(database.db);
  await fixture(database);

  let t = performance.now();
  const sentByOne = await drain(database);
  const one = (performance.now() - t) / 1000;
  const checkOne = await sentCount(database);

  await reset(database);
  let two: { seconds: number; perWorker: number[] };
  if (kind === 'pg') {
    two = await twoProcesses(url);
  } else {
    t = performance.now();
    const perWorker = await Promise.all([drain(database), drain(database)]);
    two = { seconds: (performance.now() - t) / 1000, perWorker };
  }
  const checkTwo = await sentCount(database);
  const bare = await ceiling(database);
  await database.close();
  if (kind === 'pg') {
    const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.end();
  }
  const rate = (s: number) => Math.round(ITEMS / s);
  const result = {
    database: kind,
    items: ITEMS,
    reportTriggers,
    oneWorker: { seconds: +one.toFixed(1), messagesPerSecond: rate(one), sent: sentByOne, outboxRows: checkOne },
    twoWorkers: {
      kind: kind === 'pg' ? 'processes' : 'engines in one process',
      seconds: +two.seconds.toFixed(1),
      messagesPerSecond: rate(two.seconds),
      perWorker: two.perWorker,
      outboxRows: checkTwo,
    },
    ceiling: { what: 'one INSERT … SELECT of the notification rows', seconds: +bare.toFixed(2), rowsPerSecond: rate(bare) },
    measuredAt: new Date().toISOString(),
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench', 'results', `send-${kind}${reportTriggers === 'off' ? '-no-report-triggers' : ''}.json`),
    `${JSON.stringify(result, null, 2)}\n`,
  );
}

async function worker(url: string) {
  const database = await openDatabase({ kind: 'pg', url });
  process.send?.('ready');
  process.once('message', async () => {
    const sent = await drain(database);
    await database.close();
    process.send?.(sent);
    process.exit(0);
  });
}

if (process.argv[2] === 'worker') {
  await worker(process.argv[3] ?? '');
} else {
  // BENCH_ONLY=pg skips PGlite.
  if (process.env.BENCH_ONLY !== 'pg') await run('pglite');
  if (process.env.BENCH_DATABASE_URL) await run('pg');
}
