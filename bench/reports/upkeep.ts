/**
 * bench/reports/upkeep: what the report rollup's triggers (migration 0039, decision 065) cost a
 * write, on PostgreSQL (it creates and drops `bench_report_upkeep` on BENCH_DATABASE_URL). Over the
 * demo's rows: the send engine's write of `sent_at` on every sent invitation, a delivery on every
 * invitation's Tracking Logs row, and a response excluded and included again, each statement timed
 * with the rollup's triggers enabled and disabled (`alter table … disable trigger`), in a
 * transaction rolled back, BENCH_REPEAT (7) times alternating; per-row cost in microseconds.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/reports/upkeep.ts
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { testConfig } from '../../apps/server/src/config.ts';
import { type Db, openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 7);
const DB_NAME = 'bench_report_upkeep';

const WRITES: { name: string; table: string; statement: ReturnType<typeof sql> }[] = [
  {
    name: 'invitation sent (sent_at set)',
    table: 'survey_processing_items',
    statement: sql`update survey_processing_items set sent_at = sent_at + interval '1 second' where sent_at is not null and source <> 'manual_test'`,
  },
  {
    name: 'invitation delivered (Tracking Logs status)',
    table: 'notification_logs',
    statement: sql`update notification_logs set status = case when status = 'delivered' then 'opened' else 'delivered' end
      where type = 'survey_invite' and related_type = 'survey_processing_item'`,
  },
  { name: 'response excluded', table: 'survey_responses', statement: sql`update survey_responses set excluded = not excluded` },
];

async function timeOnce(
  db: Db,
  table: string,
  statement: ReturnType<typeof sql>,
  triggers: boolean,
): Promise<{ ms: number; rows: number }> {
  let out = { ms: 0, rows: 0 };
  await db
    .transaction(async (tx) => {
      if (!triggers) {
        for (const r of rowsOf(
          await tx.execute(sql`select tgname from pg_trigger where tgrelid = ${table}::regclass and tgname like 'report_counts_%'`),
        ))
          await tx.execute(sql.raw(`alter table ${table} disable trigger ${String(r.tgname)}`));
      }
      const t = performance.now();
      const result = await tx.execute(statement);
      out = { ms: performance.now() - t, rows: Number((result as { rowCount?: number }).rowCount ?? 0) };
      throw new Error('rollback');
    })
    .catch((err: unknown) => {
      if (!(err instanceof Error && err.message === 'rollback')) throw err;
    });
  return out;
}

async function main() {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) throw new Error('Set BENCH_DATABASE_URL (a PostgreSQL server whose user may create databases).');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${DB_NAME} with (force)`);
  await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${DB_NAME}`;
  const database = await openDatabase({ kind: 'pg', url: url.toString() });
  await database.migrate();
  await seedDemoData(database.db, testConfig({ demoPassword: 'demo-password' }));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  for (const w of WRITES) {
    const on: number[] = [];
    const off: number[] = [];
    let rows = 0;
    for (let i = 0; i < REPEAT; i++) {
      const a = await timeOnce(database.db, w.table, w.statement, true);
      const b = await timeOnce(database.db, w.table, w.statement, false);
      on.push(a.ms);
      off.push(b.ms);
      rows = a.rows;
    }
    const perRow = (ms: number) => ((ms * 1000) / Math.max(1, rows)).toFixed(0);
    console.log(
      `${w.name}: ${rows} rows, median ${median(on).toFixed(1)} ms with the triggers (${perRow(median(on))} µs a row), ` +
        `${median(off).toFixed(1)} ms without (${perRow(median(off))} µs a row)`,
    );
  }
  await database.close();
  const dropper = new pg.Client({ connectionString: adminUrl });
  await dropper.connect();
  await dropper.query(`drop database if exists ${DB_NAME} with (force)`);
  await dropper.end();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
