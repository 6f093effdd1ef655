/**
 * bench/logs: System Logs over 1,000,000 rows, on PGlite and on PostgreSQL.
 *
 *   npm run bench:logs                      # PGlite only
 *   BENCH_DATABASE_URL=postgres://… npm run bench:logs   # also PostgreSQL (a database it may drop/create in)
 *   BENCH_PGLITE=off                                     # PostgreSQL only
 *
 * For each database: generate the rows (deterministic), start the real server as a child process
 * against it, and measure over HTTP: the first page, a page ~900k rows deep (cursor), a filtered
 * page (level + date range) — p50/p95 — and the CSV export of every row (rows/s, the server's
 * peak RSS from /proc VmHWM). On PostgreSQL the export is compared with `COPY (same query) TO
 * STDOUT WITH CSV` through psql. Results: bench/results/logs-<db>.json; table: bench/README.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { users } from '../../apps/server/src/db/schema/index.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';
import { generateSystemLogs } from '../../apps/server/src/seed/system-logs.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);
const PASSWORD = 'demo-password';

type Stats = { p50: number; p95: number; min: number; max: number };
const stats = (ms: number[]): Stats => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Math.round((s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0) * 100) / 100;
  return { p50: at(0.5), p95: at(0.95), min: at(0), max: at(1) };
};

async function prepare(kind: 'pglite' | 'pg', target: string): Promise<void> {
  const t0 = performance.now();
  const database = await openDatabase(kind === 'pglite' ? { kind, dataDir: target } : { kind, url: target });
  await database.migrate();
  await seedDemoData(database.db, { demoPassword: PASSWORD, retiredMasterEmail: 'master@example.com' });
  const [{ n } = { n: 0 }] = await database.db.select({ n: sql<number>`count(*)::int` }).from(sql`system_logs`);
  const staff = await database.db.select({ id: users.id }).from(users).where(sql`${users.isSuperadmin} = 1`);
  const anchor = new Date('2026-11-01T00:00:00Z');
  await generateSystemLogs(database.db, {
    count: ROWS - n,
    anchor,
    days: 365,
    userIds: staff.map((u) => u.id),
    clientIds: Array.from({ length: 12 }, (_, i) => i + 1),
  });
  await database.db.execute(sql`analyze system_logs`);
  await database.close();
  console.log(`  generated ${ROWS.toLocaleString()} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

function startServer(env: Record<string, string>, port: number) {
  const child = spawn(process.execPath, [join(ROOT, 'apps/server/dist/server.js')], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function waitUp(base: string) {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function timeGet(url: string, headers: Record<string, string>, times: number): Promise<{ stats: Stats; body: unknown }> {
  const ms: number[] = [];
  let body: unknown = null;
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    body = await res.json();
    if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
    ms.push(performance.now() - t);
  }
  return { stats: stats(ms), body };
}

async function bench(kind: 'pglite' | 'pg', target: string, deepCursor: string) {
  const port = 3400 + (kind === 'pg' ? 1 : 0);
  const base = `http://127.0.0.1:${port}`;
  const child = startServer(kind === 'pglite' ? { DATA_DIR: target, DEMO_DATA: 'off' } : { DATABASE_URL: target, DEMO_DATA: 'off' }, port);
  try {
    await waitUp(base);
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const headers = { authorization: `Bearer ${token}` };
    const rssAfterStart = peakRssMb(child.pid ?? 0);

    const first = await timeGet(`${base}/api/system-logs?perPage=50`, headers, REPEAT);
    const deep = await timeGet(`${base}/api/system-logs?perPage=50&cursor=${deepCursor}`, headers, REPEAT);
    const deepRows = (deep.body as { data: unknown[] }).data.length;
    const filtered = await timeGet(
      `${base}/api/system-logs?perPage=50&level=error&startDate=2026-06-01&endDate=2026-06-30`,
      headers,
      REPEAT,
    );

    // Export every row with the default columns.
    const t = performance.now();
    const res = await fetch(`${base}/api/system-logs/export?level=selected%20all`, { headers });
    if (!res.ok || !res.body) throw new Error(`export failed: ${res.status}`);
    let bytes = 0;
    let lines = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      for (const b of value) if (b === 10) lines++;
    }
    const exportSeconds = (performance.now() - t) / 1000;
    const exportRows = lines - 1;
    const peakRss = peakRssMb(child.pid ?? 0);

    let copy: { seconds: number; rowsPerSecond: number; ratio: number } | null = null;
    if (kind === 'pg') copy = copyBaseline(target, exportRows / exportSeconds);

    const result = {
      database: kind,
      rows: ROWS,
      measuredAt: new Date().toISOString(),
      repeat: REPEAT,
      firstPageMs: first.stats,
      deepPageMs: { ...deep.stats, rowsReturned: deepRows },
      filteredPageMs: filtered.stats,
      deepVsFirstP95: Math.round((deep.stats.p95 / first.stats.p95) * 100) / 100,
      export: {
        rows: exportRows,
        seconds: Math.round(exportSeconds * 100) / 100,
        rowsPerSecond: Math.round(exportRows / exportSeconds),
        megabytes: Math.round(bytes / 1024 / 102.4) / 10,
      },
      copyBaseline: copy,
      serverPeakRssMb: peakRss,
      serverRssAfterStartMb: rssAfterStart,
    };
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, `bench/results/logs-${kind}.json`), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

/**
 * A cursor ~900k rows deep: the keys of row 900,000 in the default order, found once, untimed,
 * before the server starts (a PGlite directory has one owner at a time).
 */
async function deepCursorFor(kind: 'pglite' | 'pg', target: string): Promise<string> {
  const database = await openDatabase(kind === 'pglite' ? { kind, dataDir: target } : { kind, url: target });
  const result = await database.db.execute(
    sql`select at::text as at, id::text as id from system_logs order by at desc, id desc offset ${Math.floor(ROWS * 0.9) - 1} limit 1`,
  );
  const row = (result as unknown as { rows: { at: string; id: string }[] }).rows[0];
  await database.close();
  return Buffer.from(JSON.stringify([row?.at, row?.id])).toString('base64url');
}

function copyBaseline(url: string, exportRate: number) {
  const query =
    'select l.at, l.level, l.service, l.action, l.message, a.name, c.name from system_logs l ' +
    'left join users a on a.id = l.actor_user_id left join clients c on c.id = l.client_id order by l.at desc, l.id desc';
  const t = performance.now();
  const out = spawnSync('psql', [url, '-qAt', '-c', `\\copy (${query}) to '/dev/null' with csv header`], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`psql COPY failed: ${out.stderr}`);
  const seconds = (performance.now() - t) / 1000;
  const rowsPerSecond = Math.round(ROWS / seconds);
  return { seconds: Math.round(seconds * 100) / 100, rowsPerSecond, ratio: Math.round((exportRate / rowsPerSecond) * 100) / 100 };
}

async function run(kind: 'pglite' | 'pg', target: string) {
  console.log(`\n${kind}:`);
  await prepare(kind, target);
  await bench(kind, target, await deepCursorFor(kind, target));
}

async function main() {
  if (spawnSync('test', ['-f', join(ROOT, 'apps/server/dist/server.js')]).status !== 0) {
    throw new Error('Build first: npm run build');
  }
  // BENCH_PGLITE=off: PostgreSQL only (the embedded run alone takes minutes to generate its rows).
  if (process.env.BENCH_PGLITE !== 'off') {
    const dir = mkdtempSync(join(tmpdir(), 'bench-logs-'));
    try {
      await run('pglite', dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const url = process.env.BENCH_DATABASE_URL;
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('drop database if exists bench_logs with (force)');
    await admin.query('create database bench_logs');
    await admin.end();
    const target = new URL(url);
    target.pathname = '/bench_logs';
    await run('pg', target.toString());
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
