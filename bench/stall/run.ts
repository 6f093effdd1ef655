/**
 * bench/stall: does one heavy request freeze the others? On PGlite and on PostgreSQL.
 *
 *   npm run bench:stall                                        # PGlite, then PostgreSQL if BENCH_DATABASE_URL
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npm run bench:stall
 *   BENCH_ONLY=pg|pglite  BENCH_ROWS=1000000  BENCH_KEEP=1 (reuse the rows)  BENCH_IDLE_S=30  BENCH_DEADLINE_S=1200
 *   BENCH_UPLOAD_MB=60 (0: the export alone)  BENCH_EXPORT=0 (the upload alone)  BENCH_SERVER_ROOT=<another checkout>
 *   BENCH_SERVER_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' (node options of the server only)
 *
 * For each database: one client with BENCH_ROWS Survey Processing invitations (generated in SQL) and
 * a CSV-upload feed; the real server (apps/server/src/server.ts, pipeline workers on) runs as a child
 * process on a loopback port. Probes GET /healthz and a 50-row Survey Processing page every 50 ms,
 * open loop (probe.ts): first 30 s on the idle server (the ceiling), then while two things run at
 * once: a BENCH_UPLOAD_MB feed file uploaded (`POST /api/data-feeds/:id/upload`, raw text/csv) and
 * its run followed to its end, and the client's whole export (`GET /api/survey-processing/export`)
 * read to the end and thrown away. Target: both probes' p99 ≤ 200 ms under load (issue 18, item 6).
 * Results: bench/results/stall-<db>.json; table: bench/README.md ("Stall").
 */
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type ProbeStats, startProbe } from './probe.ts';
import { feedFile, open, PASSWORD, type Prepared, prepare, reuse } from './seed.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const UPLOAD_BYTES = Number(process.env.BENCH_UPLOAD_MB ?? 60) * 1_000_000;
const KEEP = process.env.BENCH_KEEP === '1';
/** BENCH_EXPORT=0: the upload alone (to tell which of the two a stall comes from). */
const EXPORT = process.env.BENCH_EXPORT !== '0';
const PROBE_MS = 50;
const IDLE_MS = Number(process.env.BENCH_IDLE_S ?? 30) * 1000;
const WARMUP_MS = 10_000;
/** The whole loaded phase ends here at the latest; what has not finished by then is reported as such. */
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 1200) * 1000;
const TARGET_P99_MS = 200;
const SERVER_LOG = join(tmpdir(), 'bench-stall-server.log');

const load = () => loadavg().map((l) => Math.round(l * 100) / 100);
const log = (line: string) => console.log(line);

/**
 * The server from this tree's sources, or from BENCH_SERVER_ROOT (e.g. `git archive` of an older
 * commit with this tree's node_modules linked in, to measure "before" in the same conditions).
 */
function startServer(env: Record<string, string>, port: number) {
  const root = process.env.BENCH_SERVER_ROOT ?? ROOT;
  // BENCH_SERVER_ARGS: node options for the server alone, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to find a stall.
  const nodeArgs = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
  return spawn(process.execPath, [...nodeArgs, '--import', 'tsx', join(root, 'apps/server/src/server.ts')], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'off',
      DEMO_PASSWORD: PASSWORD,
      SECRET_KEY: 'stall-bench-secret-key-of-at-least-32-characters',
    },
    // Its warnings and errors go to a file: a crash is reported with the result, not lost in the output.
    stdio: ['ignore', 'ignore', openSync(SERVER_LOG, 'w')],
  });
}

async function waitUp(base: string, child: ReturnType<typeof startServer>) {
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not start');
}

/** The process's peak resident memory (VmHWM), or null once it has exited. */
function peakRssMb(pid: number): number | null {
  try {
    return Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return null;
  }
}

/**
 * A command's output, run outside this process (curl, wc), so reading 250 MB of CSV or sending 60 MB
 * does not hold the event loop that times the probes.
 */
function shell(script: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (code) => resolve({ stdout, stderr, code }));
  });
}

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

/** The whole export read to its end by curl and counted by wc: its duration, HTTP status, bytes and rows. */
async function exportAll(base: string, token: string, clientId: number) {
  const t0 = performance.now();
  const out = await shell(
    `curl -sS --max-time ${DEADLINE_MS / 1000} -H "authorization: Bearer $TOKEN" -w '%{stderr}%{http_code} %{size_download}' "$URL" | wc -l`,
    { TOKEN: token, URL: `${base}/api/survey-processing/export?client=${clientId}` },
  );
  const [status, bytes] = out.stderr.trim().split(/\s+/).slice(-2).map(Number);
  // Every row ends with CRLF and no cell of the bench's rows holds a line break: lines less the header.
  return {
    status,
    seconds: seconds(t0),
    bytes,
    rows: Number(out.stdout.trim()) - 1,
    ...(status === 200 ? {} : { error: out.stderr.slice(0, 300) }),
  };
}

/** The feed file sent by curl, then its run polled until it is no longer running. */
async function uploadAll(base: string, token: string, feedId: number, file: { path: string; bytes: number; rows: number }) {
  const t0 = performance.now();
  const out = await shell(
    `curl -sS --max-time ${DEADLINE_MS / 1000} -X POST -H "authorization: Bearer $TOKEN" -H 'content-type: text/csv' --data-binary @"$FILE" -w '%{stderr}%{http_code}' "$URL"`,
    { TOKEN: token, FILE: file.path, URL: `${base}/api/data-feeds/${feedId}/upload?file_name=stall-bench.csv` },
  );
  const stored = seconds(t0);
  const status = Number(out.stderr.trim().split(/\s+/).pop());
  let body: { data?: { id: number }; message?: string } | null = null;
  try {
    body = JSON.parse(out.stdout);
  } catch {
    // not JSON: reported below
  }
  if (status !== 202 || !body?.data) return { status, error: body?.message ?? out.stdout.slice(0, 300), seconds: stored };
  const runId = body.data.id;
  for (let failures = 0; ; ) {
    let data: Record<string, unknown> & { run_status: string };
    try {
      const answer = await fetch(`${base}/api/survey-manager-logs/runs/${runId}`, { headers: { authorization: `Bearer ${token}` } });
      data = ((await answer.json()) as { data: typeof data }).data;
      failures = 0;
    } catch (err) {
      // A probe's timeout is the probes' business; here only a server that is gone ends the wait.
      if (++failures >= 30) return { status, error: `the run could not be read: ${String(err)}`, seconds: seconds(t0) };
      await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    // The run's counts and outcome, not its row errors.
    const run = Object.fromEntries(Object.entries(data).filter(([, v]) => !Array.isArray(v)));
    if (data.run_status !== 'running' || performance.now() - t0 > DEADLINE_MS) {
      return {
        status,
        fileMb: Math.round(file.bytes / 100_000) / 10,
        fileRows: file.rows,
        storedSeconds: stored,
        seconds: seconds(t0),
        run,
      };
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function bench(kind: 'pglite' | 'pg', target: string) {
  log(`\n${kind}: preparing ${ROWS.toLocaleString('en-US')} invitations`);
  const t0 = performance.now();
  const database = await open(kind, target);
  let prepared: Prepared;
  try {
    prepared = KEEP ? await reuse(database) : await prepare(database, ROWS, log);
  } finally {
    await database.close();
  }
  const prepareSeconds = Math.round((performance.now() - t0) / 1000);
  let file: { path: string; bytes: number; rows: number } | null = null;
  if (UPLOAD_BYTES > 0) {
    const { csv, rows } = feedFile(prepared.codes, UPLOAD_BYTES);
    const path = join(tmpdir(), 'bench-stall-upload.csv');
    writeFileSync(path, csv);
    file = { path, bytes: csv.byteLength, rows };
  }

  const port = 3460 + (kind === 'pg' ? 1 : 0);
  const base = `http://127.0.0.1:${port}`;
  const child = startServer(kind === 'pglite' ? { DATA_DIR: target } : { DATABASE_URL: target }, port);
  try {
    await waitUp(base, child);
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const headers = { authorization: `Bearer ${token}` };
    const probes = () => ({
      healthz: startProbe(`${base}/healthz`, {}, PROBE_MS),
      list: startProbe(`${base}/api/survey-processing?perPage=50`, headers, PROBE_MS),
    });
    const stopAll = async (p: ReturnType<typeof probes>) => ({ healthz: await p.healthz.stop(), list: await p.list.stop() });

    // The first seconds after start (plans, JIT, the workers' first passes) are not the idle ceiling.
    const warming = probes();
    await new Promise((r) => setTimeout(r, WARMUP_MS));
    await stopAll(warming);
    log(`  idle probes for ${IDLE_MS / 1000} s`);
    const loadIdle = load();
    const idleProbes = probes();
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idle = await stopAll(idleProbes);

    log(
      `  upload (${file ? `${(file.bytes / 1e6).toFixed(1)} MB, ${file.rows.toLocaleString('en-US')} rows` : 'none'}) and export, probing`,
    );
    const loadBefore = load();
    // The bench's own event loop: a probe due while it was blocked would be charged to the server.
    const ownLoop = monitorEventLoopDelay({ resolution: 10 });
    ownLoop.enable();
    const loaded = probes();
    const t1 = performance.now();
    const [upload, exported] = await Promise.all([
      file ? uploadAll(base, token, prepared.feedId, file) : Promise.resolve(null),
      EXPORT ? exportAll(base, token, prepared.clientId) : Promise.resolve(null),
    ]);
    const loadedSeconds = Math.round((performance.now() - t1) / 100) / 10;
    const underLoad = await stopAll(loaded);
    ownLoop.disable();

    const verdict = (s: ProbeStats) => (s.p99 <= TARGET_P99_MS && s.failures === 0 ? 'met' : 'missed');
    const result = {
      database: kind,
      rows: ROWS,
      measuredAt: new Date().toISOString(),
      prepareSeconds: KEEP ? 'reused' : prepareSeconds,
      target: `p99 ≤ ${TARGET_P99_MS} ms for GET /healthz and a 50-row list while the upload and the export run`,
      probeEveryMs: PROBE_MS,
      idle,
      underLoad,
      verdict: { healthz: verdict(underLoad.healthz), list: verdict(underLoad.list) },
      loadedSeconds,
      upload,
      export: exported,
      serverPeakRssMb: peakRssMb(child.pid ?? 0),
      // Still running at the end, as it should be; else how it ended and the last it wrote.
      serverExited: child.exitCode === null && child.signalCode === null ? null : { code: child.exitCode, signal: child.signalCode },
      serverLogTail: readFileSync(SERVER_LOG, 'utf8').slice(-2000),
      benchLoopDelayMs: { p99: Math.round(ownLoop.percentile(99) / 1e5) / 10, max: Math.round(ownLoop.max / 1e5) / 10 },
      // The machine is shared with other work: the 1, 5 and 15-minute load averages.
      cores: cpus().length,
      loadAverage: { idle: loadIdle, before: loadBefore, after: load() },
    };
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    const variant = !EXPORT ? '-upload-only' : file ? '' : '-export-only';
    writeFileSync(join(ROOT, `bench/results/stall-${kind}${variant}.json`), `${JSON.stringify(result, null, 2)}\n`);
    log(JSON.stringify(result, null, 2));
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
}

async function pgTarget(adminUrl: string): Promise<string> {
  if (!KEEP) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query('drop database if exists bench_stall with (force)');
    await admin.query('create database bench_stall');
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = '/bench_stall';
  return url.toString();
}

const only = process.env.BENCH_ONLY;
if (only !== 'pg') {
  const dir = join(tmpdir(), 'bench-stall-pglite');
  if (!KEEP) rmSync(dir, { recursive: true, force: true });
  await bench('pglite', dir);
}
const adminUrl = process.env.BENCH_DATABASE_URL;
if (only !== 'pglite' && adminUrl) await bench('pg', await pgTarget(adminUrl));
