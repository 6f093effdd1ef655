/**
 * bench/pipeline/ingest: a 100,000-row CSV through the whole ingest (parse, map, every rule of
 * normalize with the code lookups, admitRows' rules and scheduling, items and row errors written)
 * on PGlite and, with BENCH_DATABASE_URL, PostgreSQL; and, in the same run, COPY of the same file
 * into a scratch table as the ceiling (PGlite: COPY FROM '/dev/blob'; PostgreSQL: psql \copy).
 *
 *   npx tsx bench/pipeline/ingest.ts
 *   BENCH_ROWS=100000 BENCH_DATABASE_URL=postgres://… npx tsx bench/pipeline/ingest.ts
 *
 * The file: one row in a hundred has a bad phone (refused), every row has a store code, a
 * personnel code, a product, a referral source, an amount and an SMS opt-in, dates MM/dd/yyyy.
 * Results: bench/results/ingest-<db>.json; table: bench/README.md ("Pipeline: ingest").
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import pg from 'pg';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { clientSurveySettings, dataFeeds, locations, personnel, products, surveys } from '../../apps/server/src/db/schema/index.ts';
import { systemClock } from '../../apps/server/src/pipeline/clock.ts';
import { normalize } from '../../apps/server/src/pipeline/ingest/normalize.ts';
import { parseFeedFile } from '../../apps/server/src/pipeline/ingest/parse.ts';
import { feedForIngest, runFeed } from '../../apps/server/src/pipeline/ingest/run.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';
import { reportTriggersPerEnv } from '../reports/triggers.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const HEADER = 'First,Last,Email,Mobile,Invoice,Date,Store,Advisor,Product,Source,Amount,SMS';
const SCRATCH = `create table bench_ingest_copy (first text, last text, email text, mobile text, invoice text, date text,
  store text, advisor text, product text, source text, amount text, sms text)`;

function csvOf(codes: { stores: string[]; advisors: string[]; products: string[] }): string {
  const lines = [HEADER];
  const pick = <T>(list: T[], i: number): T => list[i % list.length] as T;
  for (let i = 1; i <= ROWS; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    // Unique numbers (ten exchanges of 10,000), so the over-survey rule sees new contacts.
    const phone = i % 100 === 0 ? '555-12' : `(303) ${200 + Math.floor(i / 10_000)}-${String(i % 10_000).padStart(4, '0')}`;
    lines.push(
      [
        `First${i}`,
        `Last${i}`,
        i % 3 === 0 ? '' : `bench.${i}@example.com`,
        phone,
        `BENCH-${i}`,
        `11/${day}/2026`,
        pick(codes.stores, i),
        pick(codes.advisors, i),
        pick(codes.products, i),
        i % 2 === 0 ? 'GOOGLE' : 'FRIEND',
        `${(i % 5000) + 0.5}`,
        i % 4 === 0 ? 'no' : 'yes',
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** A fresh `bench_ingest` database on the server BENCH_DATABASE_URL names (dropped and made again). */
async function freshPg(): Promise<string> {
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query('drop database if exists bench_ingest with (force)');
  await admin.query('create database bench_ingest');
  await admin.end();
  const url = new URL(process.env.BENCH_DATABASE_URL ?? '');
  url.pathname = '/bench_ingest';
  return url.toString();
}

async function run(kind: 'pglite' | 'pg') {
  const pgUrl = kind === 'pg' ? await freshPg() : '';
  const database = await openDatabase(kind === 'pglite' ? { kind, dataDir: null } : { kind, url: pgUrl });
  await database.migrate();
  const reportTriggers = await reportTriggersPerEnv(database.db);
  const { db } = database;
  await seedDemoData(db, testConfig({ demoPassword: 'demo-password' }));

  // The first client with an active survey and store codes.
  const [survey] = await db
    .select({ id: surveys.id, clientId: surveys.clientId })
    .from(surveys)
    .where(eq(surveys.status, 'active'))
    .limit(1);
  if (!survey) throw new Error('no active survey');
  const stores = (
    await db
      .select({ code: locations.externalCode })
      .from(locations)
      .where(and(eq(locations.clientId, survey.clientId), isNotNull(locations.externalCode)))
  ).map((l) => l.code ?? '');
  const advisors = (
    await db
      .select({ code: personnel.employeeCode })
      .from(personnel)
      .where(and(eq(personnel.clientId, survey.clientId), isNotNull(personnel.employeeCode)))
  ).map((p) => p.code ?? '');
  const productCodes = (await db.select({ code: products.code }).from(products).where(eq(products.clientId, survey.clientId))).map(
    (p) => p.code,
  );
  const [feed] = await db
    .insert(dataFeeds)
    .values({
      clientId: survey.clientId,
      name: 'Bench feed',
      sourceType: 'csv_upload',
      triggerEvent: 'invoice_paid',
      surveyId: survey.id,
      locationMode: 'column',
      dateFormat: 'MM/dd/yyyy',
      fieldMapping: {
        first_name: 'First',
        last_name: 'Last',
        email: 'Email',
        phone: 'Mobile',
        transaction_id: 'Invoice',
        transaction_date: 'Date',
        location_code: 'Store',
        personnel_code: 'Advisor',
        product_code: 'Product',
        referral_source: 'Source',
        amount: 'Amount',
        opt_in_sms: 'SMS',
      },
    })
    .returning();
  if (!feed) throw new Error('no feed');
  // BENCH_CAP: the client's daily cap per location for the run (0 = none); the demo's own when unset.
  if (process.env.BENCH_CAP !== undefined) {
    const cap = Number(process.env.BENCH_CAP);
    await db
      .insert(clientSurveySettings)
      .values({ clientId: survey.clientId, fromName: 'Bench', fromEmail: 'bench@example.com', dailyCapPerLocation: cap })
      .onConflictDoUpdate({ target: clientSurveySettings.clientId, set: { dailyCapPerLocation: cap } });
  }
  const csv = csvOf({ stores, advisors, products: productCodes });
  const mb = Buffer.byteLength(csv) / 1024 / 1024;

  const t0 = performance.now();
  const { records } = parseFeedFile(csv, { delimiter: 'comma', hasHeader: true });
  const parseMs = performance.now() - t0;
  if (process.env.BENCH_SPLIT) {
    const n0 = performance.now();
    await normalize(db, feedForIngest(feed), records);
    console.log(`  normalize alone: ${Math.round(performance.now() - n0)} ms`);
  }
  const result = await runFeed({ db, clock: systemClock }, feed, {
    source: 'csv_upload',
    sourceName: 'bench.csv',
    records,
    startedBy: null,
  });
  const totalMs = performance.now() - t0;
  if (!result) throw new Error('no run');

  // The ceiling: the same bytes into a scratch table with COPY, no checks.
  await db.execute(sql.raw('drop table if exists bench_ingest_copy'));
  await db.execute(sql.raw(SCRATCH));
  let copyMs: number;
  if (kind === 'pglite') {
    const client = (db as unknown as { $client: PGlite }).$client;
    const c0 = performance.now();
    await client.query(`copy bench_ingest_copy from '/dev/blob' with (format csv, header)`, [], { blob: new Blob([csv]) });
    copyMs = performance.now() - c0;
  } else {
    const file = join(tmpdir(), 'bench-ingest.csv');
    writeFileSync(file, csv);
    const c0 = performance.now();
    execFileSync('psql', [pgUrl, '-c', `\\copy bench_ingest_copy from '${file}' with (format csv, header)`]);
    copyMs = performance.now() - c0;
  }
  await db.execute(sql.raw('drop table bench_ingest_copy'));

  const out = {
    database: kind,
    rows: ROWS,
    daily_cap: process.env.BENCH_CAP ?? 'demo setting',
    file_mb: Number(mb.toFixed(1)),
    parse_ms: Math.round(parseMs),
    total_ms: Math.round(totalMs),
    rows_per_s: Math.round(ROWS / (totalMs / 1000)),
    run: {
      status: result.run.status,
      accepted: result.run.rows_accepted,
      skipped: result.run.rows_skipped,
      invalid: result.run.rows_invalid,
      scheduled: result.run.scheduled,
    },
    report_triggers: reportTriggers,
    copy_ms: Math.round(copyMs),
    copy_rows_per_s: Math.round(ROWS / (copyMs / 1000)),
    // The machine is shared: the 1, 5 and 15-minute load averages when the run ended.
    load_average: loadavg().map((l) => Number(l.toFixed(2))),
  };
  console.log(JSON.stringify(out));
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(
      ROOT,
      'bench',
      'results',
      `ingest-${kind}${process.env.BENCH_CAP === undefined ? '-capped' : ''}${reportTriggers === 'off' ? '-no-report-triggers' : ''}.json`,
    ),
    `${JSON.stringify(out, null, 2)}\n`,
  );
  await database.close();
}

if (process.env.BENCH_ONLY !== 'pg') await run('pglite');
if (process.env.BENCH_DATABASE_URL) await run('pg');
