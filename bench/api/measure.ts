import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { AUTOCANNON, CONNECTIONS } from './settings.ts';

// What bench/api measures a load with: the statements a request ran, CPU times from /proc, autocannon.

/** One statement as the server sent it, with when it started and finished. */
export type Statement = { text: string; values: unknown[]; rowMode?: 'array'; name?: string; startedAt: number; endedAt: number };
/** Statements the request ran one after another; each group's statements ran at the same time. */
export type Replay = { text: string; values: unknown[]; rowMode?: 'array'; name?: string }[][];

export type Load = {
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
export function cpuMsOf(pid: number | string, children = false): number {
  const f = statOf(pid);
  // utime, stime, cutime, cstime are fields 14-17 of stat: 11-14 here.
  const [a, b] = children ? [f?.[13], f?.[14]] : [f?.[11], f?.[12]];
  return ((Number(a ?? 0) + Number(b ?? 0)) * 1000) / CLOCK_TICKS;
}

/**
 * CPU time so far of every process the postmaster started (backends, writers), in ms. A backend
 * that has exited (a pool closing an idle connection) counts too: the postmaster waited for it, so
 * its time is in the postmaster's children's times. Without them a figure went negative when the
 * other server's idle connections closed during a load.
 */
export function postgresCpuMs(postmaster: number): number {
  let total = cpuMsOf(postmaster, true);
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const f = statOf(pid);
    if (f && Number(f[1]) === postmaster) total += cpuMsOf(pid);
  }
  return total;
}

/** The postmaster's pid when PostgreSQL runs on this machine (its backend is visible in /proc), else null. */
export async function findPostmaster(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  // Read while the backend lives: its parent is the postmaster.
  const f = statOf(rows[0]?.pid ?? 0);
  await client.end();
  return f ? Number(f[1]) : null;
}

export const perRequest = (ms: number, requests: number) => Math.round((ms / Math.max(1, requests)) * 1000) / 1000;
type AutocannonReport = {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
};

export function autocannon(port: number, path: string, token: string, seconds: number, serverPid: number, postmaster: number | null): Load {
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
export function medianLoad(loads: Load[]): Load {
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
