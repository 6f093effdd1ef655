/**
 * bench/seed/demo-time: how long `seedDemoData` takes on a fresh embedded database, as the first
 * `npm start` runs it (PGlite on disk, every migration applied first, not timed). BENCH_REPEAT
 * (3) runs, each on a new data directory; prints each run's wall and CPU time (the process's user
 * and system time: PGlite runs in it, so CPU is the seed's work even on a busy machine, where wall
 * time is not) and their medians, and the rows of the tables the reports read (decision 070).
 *
 *   npx tsx bench/seed/demo-time.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const TABLES = ['survey_processing_items', 'notification_logs', 'survey_responses', 'amplifications', 'reviews', 'review_alert_deliveries'];
/** A fixed "now", so runs compare the same rows. */
const ANCHOR = new Date('2026-11-27T15:00:00Z');

const times: number[] = [];
const cpus: number[] = [];
for (let run = 0; run < REPEAT; run++) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-demo-seed-'));
  const database = await openDatabase({ kind: 'pglite', dataDir: join(dir, 'data') });
  try {
    await database.migrate();
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    await seedDemoData(database.db, testConfig({ demoPassword: 'demo-password' }), ANCHOR);
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpuStarted);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    times.push(ms);
    cpus.push(cpuMs);
    console.log(`run ${run + 1}: ${(ms / 1000).toFixed(2)} s wall, ${(cpuMs / 1000).toFixed(2)} s CPU`);
    if (run === 0) {
      for (const table of TABLES) {
        const [row] = rowsOf(await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`)));
        console.log(`  ${table}: ${String(row?.n)}`);
      }
    }
  } finally {
    await database.close();
    await rm(dir, { recursive: true, force: true });
  }
}
const median = (values: number[]) => ([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0) / 1000;
console.log(`median: ${median(times).toFixed(2)} s wall, ${median(cpus).toFixed(2)} s CPU`);
