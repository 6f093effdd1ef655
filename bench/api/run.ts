/**
 * bench/api: how close an authenticated 50-row list comes to the database's own ceiling.
 *
 *   BENCH_DATABASE_URL=postgres://user@host:port/db npx tsx bench/api/run.ts
 *
 * On PostgreSQL only (it creates and drops a `bench_api` database through BENCH_DATABASE_URL).
 * Seeds the demo data plus enough rows for 50-row pages (BENCH_CLIENTS clients, BENCH_PEOPLE
 * personnel in the admin's current client, BENCH_LOG_ROWS System Logs rows), then for each of
 * `/api/create-client`, `/api/system-logs` and `/api/personnel`:
 *
 * 1. captures the SQL statements one request issues (session check and touch included) by
 *    recording every `pg` query the server process sends while that one request runs;
 * 2. loads the endpoint with autocannon (BENCH_CONNECTIONS connections, BENCH_SECONDS after a
 *    BENCH_WARMUP_SECONDS warm-up) — the server in one child process, autocannon in another;
 * 3. replays the captured statements from a bare `pg` loop in a third process, at the same
 *    concurrency through a pool as large as the server's, statements the server ran in parallel
 *    again in parallel: the ceiling, i.e. what the same SQL costs with no HTTP, no Fastify, no
 *    validation and no serialisation around it.
 *
 * Reports req/s and p99 for both and their ratio, and the CPU time per request of the server,
 * PostgreSQL (when it runs on this machine) and autocannon. With BENCH_BASELINE=<another checkout>
 * (e.g. a `git worktree` of the code before a change, sharing this node_modules) the same lists
 * are also served by that checkout, measured in the same rounds. Results: bench/results/api.json
 * (BENCH_OUT); table: bench/README.md.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SELF = fileURLToPath(import.meta.url);
const AUTOCANNON = join(ROOT, 'node_modules/.bin/autocannon');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 2_000);
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 20_000);
const LOG_ROWS = Number(process.env.BENCH_LOG_ROWS ?? 100_000);
/** The server's own pool size (db/client.ts); the ceiling gets as many connections, no more. */
const POOL_SIZE = 10;
const OUT = process.env.BENCH_OUT ?? join(ROOT, 'bench/results/api.json');
const PASSWORD = 'demo-password';

const ENDPOINTS = [
  { name: 'Client Manager', path: '/api/create-client?perPage=50' },
  { name: 'System Logs', path: '/api/system-logs?perPage=50' },
  { name: 'Personnel', path: '/api/personnel?perPage=50' },
] as const;

/** A server under test: this checkout, or the baseline one. */
type Side = { label: string; root: string; child: ChildProcess; port: number; token: string; results: Record<string, unknown>[] };

/** One statement as the server sent it, with when it started and finished. */
type Statement = { text: string; values: unknown[]; rowMode?: 'array'; name?: string; startedAt: number; endedAt: number };
/** Statements the request ran one after another; each group's statements ran at the same time. */
type Replay = { text: string; values: unknown[]; rowMode?: 'array'; name?: string }[][];

type Load = {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  errors: number;
  /** CPU time of the Node process that issued the statements (the server, or the bare loop), per request. */
  nodeCpuMsPerRequest: number;
  /** CPU time of PostgreSQL's processes per request, when the server runs on this machine (else null). */
  postgresCpuMsPerRequest: number | null;
  /** CPU time of the load generator (autocannon) per request; the bare loop has none. */
  loadGeneratorCpuMsPerRequest: number | null;
};

// ---------------------------------------------------------------------------------------------
// Child process 1: the real server, recording the statements of a request when asked.

type QueryConfig = { text?: string; rowMode?: string; values?: unknown[]; name?: string };
type ServeMessage = { type: 'capture-start' } | { type: 'capture-stop' };

async function serve(url: string): Promise<void> {
  let capturing: Statement[] | null = null;
  // Wrapped before the app opens its pool: every statement of the server goes through here.
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function recordingQuery(this: pg.Client, ...args: unknown[]) {
    const log = capturing;
    const [config, second] = args;
    const text = typeof config === 'string' ? config : ((config as QueryConfig | undefined)?.text ?? '');
    if (!log || text === '') return original.apply(this, args);
    const values = Array.isArray(second) ? second : ((config as QueryConfig | undefined)?.values ?? []);
    const entry: Statement = {
      text,
      values: values.map((v) => (v instanceof Date ? v.toISOString() : v)),
      ...((config as QueryConfig | undefined)?.rowMode === 'array' ? { rowMode: 'array' as const } : {}),
      // A prepared statement (the session check) is replayed prepared too, under its name.
      ...((config as QueryConfig | undefined)?.name ? { name: (config as QueryConfig).name } : {}),
      startedAt: performance.now(),
      endedAt: Number.POSITIVE_INFINITY, // set when it finishes
    };
    log.push(entry);
    const done = () => {
      entry.endedAt = performance.now();
    };
    // pg-pool passes a callback; a bare client returns a promise.
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      const callback = last as (...r: unknown[]) => void;
      args[args.length - 1] = (...r: unknown[]) => {
        done();
        callback(...r);
      };
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) void result.then(done, done);
    return result;
  } as typeof pg.Client.prototype.query;

  const { buildApp } = await import('../../apps/server/src/app.ts');
  const { loadConfig } = await import('../../apps/server/src/config.ts');
  // The production defaults (log level included), against the bench database, as an API process
  // (WORKERS=0, the workers in their own process): the send engine's polls would otherwise take
  // the server's CPU and could be captured as if the request had sent them.
  const config = loadConfig({ DATABASE_URL: url, DEMO_DATA: 'off', WORKERS: '0', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  // A clean exit, so a `--cpu-prof` profile (BENCH_CPU_PROF) gets written.
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
  process.on('message', (message: ServeMessage) => {
    if (message.type === 'capture-start') capturing = [];
    else {
      process.send?.({ type: 'captured', statements: capturing ?? [] });
      capturing = null;
    }
  });
  process.send?.({ type: 'listening', port: (app.server.address() as AddressInfo).port });
}

// ---------------------------------------------------------------------------------------------
// Child process 2: the ceiling, the captured statements from a bare pg loop.

/** The type parsers drizzle's node-postgres driver uses: timestamps stay text (it builds Dates itself). */
const RAW_TEXT_TYPES = new Set([1082, 1083, 1114, 1184, 1186, 1115, 1182, 1185, 1187, 1231]);
const passThroughTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    RAW_TEXT_TYPES.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format ?? 'text'),
};

/** Clock ticks per second, the unit of CPU times in /proc. */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/** Fields of /proc/<pid>/stat after the command name (field 3 is the first), or null when gone. */
function statOf(pid: number | string): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? null;
  } catch {
    return null;
  }
}

/** User + system CPU time of a process so far, in ms; with `children`, that of its waited-for children. */
function cpuMsOf(pid: number | string, children = false): number {
  const f = statOf(pid);
  // utime, stime, cutime, cstime are fields 14-17 of stat: 11-14 here.
  const [a, b] = children ? [f?.[13], f?.[14]] : [f?.[11], f?.[12]];
  return ((Number(a ?? 0) + Number(b ?? 0)) * 1000) / CLOCK_TICKS;
}

/** CPU time so far of every process the postmaster started (backends, writers), in ms. */
function postgresCpuMs(postmaster: number): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const f = statOf(pid);
    if (f && Number(f[1]) === postmaster) total += cpuMsOf(pid);
  }
  return total;
}

/** The postmaster's pid when PostgreSQL runs on this machine (its backend is visible in /proc), else null. */
async function findPostmaster(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  // Read while the backend lives: its parent is the postmaster.
  const f = statOf(rows[0]?.pid ?? 0);
  await client.end();
  return f ? Number(f[1]) : null;
}

const perRequest = (ms: number, requests: number) => Math.round((ms / Math.max(1, requests)) * 1000) / 1000;

async function ceiling(
  url: string,
  replayJson: string,
  warmupSeconds: number,
  seconds: number,
  concurrency: number,
  postmaster: number | null,
): Promise<Load> {
  const replay = JSON.parse(replayJson) as Replay;
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  const latencies: number[] = [];
  let errors = 0;
  let measuring = false;
  let stop = false;
  const run = async () => {
    while (!stop) {
      const t = performance.now();
      try {
        for (const group of replay) {
          await Promise.all(
            group.map((s) =>
              pool.query({
                text: s.text,
                values: s.values,
                types: passThroughTypes,
                ...(s.rowMode ? { rowMode: 'array' } : {}),
                ...(s.name ? { name: s.name } : {}),
              }),
            ),
          );
        }
        if (measuring) latencies.push(performance.now() - t);
      } catch {
        if (measuring) errors++;
      }
    }
  };
  const workers = Array.from({ length: concurrency }, run);
  await new Promise((r) => setTimeout(r, warmupSeconds * 1000));
  measuring = true;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const postgresBefore = postmaster ? postgresCpuMs(postmaster) : 0;
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  const cpu = process.cpuUsage(cpuBefore);
  // Read before the pool closes: its backends' CPU time goes with them.
  const postgresMs = postmaster ? postgresCpuMs(postmaster) - postgresBefore : null;
  const elapsed = (performance.now() - started) / 1000;
  stop = true;
  await Promise.all(workers);
  await pool.end();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 100) / 100;
  return {
    requestsPerSecond: Math.round(latencies.length / elapsed),
    latencyP50Ms: at(0.5),
    latencyP99Ms: at(0.99),
    requests: latencies.length,
    errors,
    nodeCpuMsPerRequest: perRequest((cpu.user + cpu.system) / 1000, latencies.length),
    postgresCpuMsPerRequest: postgresMs === null ? null : perRequest(postgresMs, latencies.length),
    loadGeneratorCpuMsPerRequest: null,
  };
}

// ---------------------------------------------------------------------------------------------
// The script: seed, then per endpoint capture, load the endpoint, load the ceiling.

async function seed(url: string): Promise<void> {
  const { openDatabase, rowsOf } = await import('../../apps/server/src/db/client.ts');
  const { seedDemoData } = await import('../../apps/server/src/seed/demo.ts');
  const { generateSystemLogs } = await import('../../apps/server/src/seed/system-logs.ts');
  const { sql } = await import('drizzle-orm');
  const t0 = performance.now();
  const database = await openDatabase({ kind: 'pg', url });
  await database.migrate();
  const { db } = database;
  await seedDemoData(db, { demoPassword: PASSWORD, retiredMasterEmail: 'master@example.com' });
  // Clients enough for 50-row pages of Client Manager, each with its root team like real ones.
  await db.execute(sql`
    insert into clients (name, industry, city, state, country, timezone, website, phone, modules, account_coordinator_id, status)
    select 'Bench Client ' || lpad(i::text, 6, '0'),
      (array['automotive', 'dental', 'home_services', 'legal', 'retail', 'hospitality'])[1 + i % 6],
      'Springfield', 'IL', 'US', 'America/Chicago', 'https://bench-' || i || '.example.com',
      '+1217555' || lpad((i % 10000)::text, 4, '0'), array['surveys', 'reputation'],
      case when i % 5 <> 0 then (select min(id) from users where is_superadmin = 1) end,
      case when i % 10 = 0 then 'paused' else 'active' end
    from generate_series(1, ${CLIENTS}::int) as g(i)`);
  await db.execute(sql`insert into teams (client_id, name) select id, name from clients where root_team_id is null`);
  await db.execute(sql`update clients c set root_team_id = t.id from teams t where t.client_id = c.id and c.root_team_id is null`);
  // Personnel of the admin's current client, each linked to one of its locations.
  await db.execute(sql`
    insert into personnel (client_id, first_name, last_name, title, employee_code, email, phone)
    select u.current_client_id,
      initcap(substr(translate(md5(i::text), '0123456789', 'ghijklmnop'), 1, 7)),
      initcap(substr(translate(md5(i::text), '0123456789', 'ghijklmnop'), 8, 9)),
      (array['Technician', 'Service advisor', 'Sales consultant', 'Office manager'])[1 + i % 4],
      'B' || i, 'bench' || i || '@example.com', '+1' || (2000000000 + i)::text
    from generate_series(1, ${PEOPLE}::int) as g(i), users u
    where u.email = 'admin@example.com'`);
  await db.execute(sql`
    insert into personnel_locations (personnel_id, location_id)
    select p.id, l._id from personnel p
    cross join lateral (select _id from locations l where l.client_id = p.client_id order by md5(l._id || p.id) limit 1) l
    where p.employee_code like 'B%'`);
  const [logs] = rowsOf(await db.execute(sql`select count(*)::int as n from system_logs`));
  const staff = rowsOf(await db.execute(sql`select id from users where is_superadmin = 1`));
  const clientIds = rowsOf(await db.execute(sql`select id from clients order by id limit 12`));
  await generateSystemLogs(db, {
    count: Math.max(0, LOG_ROWS - Number(logs?.n ?? 0)),
    anchor: new Date(),
    days: 365,
    userIds: staff.map((u) => Number(u.id)),
    clientIds: clientIds.map((c) => Number(c.id)),
  });
  // Fresh statistics, as autovacuum would leave them on a server that has been running.
  await db.execute(sql`analyze`);
  await database.close();
  console.log(
    `seeded ${CLIENTS.toLocaleString()} clients, ${PEOPLE.toLocaleString()} personnel, ${LOG_ROWS.toLocaleString()} log rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

/** The real server of the checkout at `root` (this one, or BENCH_BASELINE) in a child process. */
function startServer(url: string, root: string): Promise<{ child: ChildProcess; port: number }> {
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', join(root, 'bench/api/run.ts'), 'serve', url], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.on('message', (m: { type: string; port?: number }) => {
      if (m.type === 'listening' && m.port) resolve({ child, port: m.port });
    });
  });
}

function capture(child: ChildProcess, request: () => Promise<void>): Promise<Statement[]> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { type: string; statements?: Statement[] }) => {
      if (m.type !== 'captured') return;
      child.off('message', onMessage);
      resolve(m.statements ?? []);
    };
    child.on('message', onMessage);
    child.send({ type: 'capture-start' });
    // Give the child the message before the request arrives.
    setTimeout(() => {
      request().then(() => child.send({ type: 'capture-stop' }), reject);
    }, 100);
  });
}

/** Statements that started before those before them had finished ran in parallel with them. */
function groupsOf(statements: Statement[]): Replay {
  const groups: Replay = [];
  let groupEnd = Number.NEGATIVE_INFINITY;
  for (const s of statements) {
    const item = { text: s.text, values: s.values, ...(s.rowMode ? { rowMode: s.rowMode } : {}), ...(s.name ? { name: s.name } : {}) };
    const last = groups[groups.length - 1];
    if (last && s.startedAt < groupEnd) {
      last.push(item);
      groupEnd = Math.max(groupEnd, s.endedAt);
    } else {
      groups.push([item]);
      groupEnd = s.endedAt;
    }
  }
  return groups;
}

type AutocannonReport = {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
};

function autocannon(port: number, path: string, token: string, seconds: number, serverPid: number, postmaster: number | null): Load {
  const cpuBefore = cpuMsOf(serverPid);
  const postgresBefore = postmaster ? postgresCpuMs(postmaster) : 0;
  // autocannon is waited for, so its CPU time lands in this process's children's times.
  const generatorBefore = cpuMsOf(process.pid, true);
  const run = spawnSync(
    AUTOCANNON,
    ['-c', String(CONNECTIONS), '-d', String(seconds), '--json', '-H', `authorization=Bearer ${token}`, `http://127.0.0.1:${port}${path}`],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`autocannon failed: ${run.stderr}`);
  const cpuMs = cpuMsOf(serverPid) - cpuBefore;
  const postgresMs = postmaster ? postgresCpuMs(postmaster) - postgresBefore : null;
  const generatorMs = cpuMsOf(process.pid, true) - generatorBefore;
  const r = JSON.parse(run.stdout) as AutocannonReport;
  return {
    requestsPerSecond: Math.round(r.requests.average),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts + r.non2xx,
    nodeCpuMsPerRequest: perRequest(cpuMs, r.requests.total),
    postgresCpuMsPerRequest: postgresMs === null ? null : perRequest(postgresMs, r.requests.total),
    loadGeneratorCpuMsPerRequest: perRequest(generatorMs, r.requests.total),
  };
}

/** The median of each figure over the rounds. */
function medianLoad(loads: Load[]): Load {
  const median = (pick: (l: Load) => number) => {
    const sorted = loads.map(pick).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  return {
    requestsPerSecond: median((l) => l.requestsPerSecond),
    latencyP50Ms: median((l) => l.latencyP50Ms),
    latencyP99Ms: median((l) => l.latencyP99Ms),
    requests: median((l) => l.requests),
    errors: loads.reduce((n, l) => n + l.errors, 0),
    nodeCpuMsPerRequest: median((l) => l.nodeCpuMsPerRequest),
    postgresCpuMsPerRequest: loads.some((l) => l.postgresCpuMsPerRequest === null) ? null : median((l) => l.postgresCpuMsPerRequest ?? 0),
    loadGeneratorCpuMsPerRequest: loads.some((l) => l.loadGeneratorCpuMsPerRequest === null)
      ? null
      : median((l) => l.loadGeneratorCpuMsPerRequest ?? 0),
  };
}

function runCeiling(url: string, replay: Replay, postmaster: number | null): Promise<Load> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', SELF, 'ceiling', url, String(WARMUP_SECONDS), String(SECONDS), String(CONNECTIONS), String(postmaster ?? '')],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`ceiling exited with ${code}`));
    });
    child.on('message', (m: { type: string; load?: Load }) => {
      if (m.type === 'ready') child.send({ type: 'replay', replay: JSON.stringify(replay) });
      if (m.type === 'done' && m.load) resolve(m.load);
    });
  });
}

async function main(): Promise<void> {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) throw new Error('Set BENCH_DATABASE_URL to a PostgreSQL server whose user may create databases.');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('drop database if exists bench_api with (force)');
  await admin.query('create database bench_api');
  await admin.end();
  const target = new URL(adminUrl);
  target.pathname = '/bench_api';
  const url = target.toString();
  await seed(url);

  // The code under test, and optionally the same lists served by another checkout (the code
  // before a change): each round loads both, one after the other, so the machine's other load
  // falls on both alike.
  const baselineRoot = process.env.BENCH_BASELINE;
  const trees = [{ label: 'current', root: ROOT }, ...(baselineRoot ? [{ label: 'baseline', root: baselineRoot }] : [])];
  const postmaster = await findPostmaster(url);
  const sides: Side[] = [];
  for (const tree of trees) {
    const { child, port } = await startServer(url, tree.root);
    const login = await fetch(`http://127.0.0.1:${port}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    sides.push({ ...tree, child, port, token, results: [] });
  }
  try {
    const only = process.env.BENCH_ONLY?.split(',');
    for (const endpoint of ENDPOINTS.filter((e) => !only || only.some((o) => e.path.includes(o)))) {
      const runs = [];
      for (const side of sides) {
        const headers = { authorization: `Bearer ${side.token}` };
        const base = `http://127.0.0.1:${side.port}`;
        let body: { data: unknown[]; total: number; totalIsEstimate: boolean } | undefined;
        // A first request outside the capture: the session's once-a-minute touch is then a no-op
        // (and a total past 10,000 is then reused), as for nearly every request under load.
        await fetch(`${base}${endpoint.path}`, { headers });
        const statements = await capture(side.child, async () => {
          const res = await fetch(`${base}${endpoint.path}`, { headers });
          if (!res.ok) throw new Error(`${endpoint.path}: ${res.status} ${await res.text()}`);
          body = (await res.json()) as typeof body;
        });
        runs.push({ side, body, replay: groupsOf(statements), rounds: [] as { endpoint: Load; ceiling: Load }[] });
      }
      // Endpoint and ceiling alternate, round after round, so a change in the machine's other
      // load falls on both; each figure is the median of the rounds.
      for (let r = 0; r < ROUNDS; r++) {
        // Who goes first alternates too.
        for (const run of r % 2 === 0 ? runs : [...runs].reverse()) {
          const { side } = run;
          const pid = side.child.pid ?? 0;
          autocannon(side.port, endpoint.path, side.token, WARMUP_SECONDS, pid, postmaster);
          const server = autocannon(side.port, endpoint.path, side.token, SECONDS, pid, postmaster);
          const bare = await runCeiling(url, run.replay, postmaster);
          run.rounds.push({ endpoint: server, ceiling: bare });
          console.log(
            `  ${side.label} ${endpoint.name} round ${r + 1}: endpoint ${server.requestsPerSecond} req/s p99 ${server.latencyP99Ms} ms (CPU/req: server ${server.nodeCpuMsPerRequest} ms, PostgreSQL ${server.postgresCpuMsPerRequest} ms, autocannon ${server.loadGeneratorCpuMsPerRequest} ms); ceiling ${bare.requestsPerSecond} req/s p99 ${bare.latencyP99Ms} ms (CPU/req: pg loop ${bare.nodeCpuMsPerRequest} ms, PostgreSQL ${bare.postgresCpuMsPerRequest} ms)`,
          );
        }
      }
      for (const { side, body, replay, rounds } of runs) {
        const server = medianLoad(rounds.map((r) => r.endpoint));
        const bare = medianLoad(rounds.map((r) => r.ceiling));
        const ratio = Math.round((server.requestsPerSecond / bare.requestsPerSecond) * 100) / 100;
        console.log(
          `${side.label} ${endpoint.name} (${endpoint.path}): endpoint ${server.requestsPerSecond} req/s p99 ${server.latencyP99Ms} ms; ceiling ${bare.requestsPerSecond} req/s p99 ${bare.latencyP99Ms} ms; ${Math.round(ratio * 100)}% of the ceiling`,
        );
        side.results.push({
          endpoint: endpoint.name,
          path: endpoint.path,
          rows: body?.data.length ?? 0,
          total: body?.total ?? 0,
          totalIsEstimate: body?.totalIsEstimate ?? false,
          statements: replay.map((group) => group.map((s) => s.text.replace(/\s+/g, ' ').trim())),
          endpointLoad: server,
          ceilingLoad: bare,
          ratio,
          target: 0.8,
          met: ratio >= 0.8,
          rounds,
        });
      }
    }
  } finally {
    for (const side of sides) side.child.kill('SIGTERM');
  }
  const [current, baseline] = sides;
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(
    OUT,
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        database: 'pg',
        connections: CONNECTIONS,
        poolSize: POOL_SIZE,
        seconds: SECONDS,
        warmupSeconds: WARMUP_SECONDS,
        rounds: ROUNDS,
        seed: { clients: CLIENTS, personnel: PEOPLE, systemLogs: LOG_ROWS },
        results: current?.results ?? [],
        ...(baseline ? { baseline: { checkout: process.env.BENCH_BASELINE_LABEL ?? baseline.root, results: baseline.results } } : {}),
      },
      null,
      2,
    )}\n`,
  );
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'serve') {
  await serve(args[0] ?? '');
} else if (mode === 'ceiling') {
  const [url = '', warmup = '3', seconds = '10', concurrency = '50', postmaster = ''] = args;
  process.on('message', (m: { type: string; replay?: string }) => {
    if (m.type !== 'replay' || !m.replay) return;
    ceiling(url, m.replay, Number(warmup), Number(seconds), Number(concurrency), postmaster ? Number(postmaster) : null).then(
      (load) => {
        process.send?.({ type: 'done', load });
        process.disconnect?.();
      },
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
  process.send?.({ type: 'ready' });
} else {
  await main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
