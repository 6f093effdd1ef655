import pg from 'pg';
import { type Load, perRequest, postgresCpuMs, type Replay } from './measure.ts';
import { POOL_SIZE } from './settings.ts';

// Child process 2 of bench/api (run.ts): the ceiling, the captured statements from a bare pg loop.

/** The type parsers drizzle's node-postgres driver uses: timestamps stay text (it builds Dates itself). */
const RAW_TEXT_TYPES = new Set([1082, 1083, 1114, 1184, 1186, 1115, 1182, 1185, 1187, 1231]);
const passThroughTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    RAW_TEXT_TYPES.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format ?? 'text'),
};

export async function ceiling(
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
