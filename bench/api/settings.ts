import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// bench/api's settings (BENCH_* variables, see run.ts) and the lists it measures.

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const AUTOCANNON = join(ROOT, 'node_modules/.bin/autocannon');
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 2_000);
export const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 20_000);
export const LOG_ROWS = Number(process.env.BENCH_LOG_ROWS ?? 100_000);
/** The server's own pool size (db/client.ts); the ceiling gets as many connections, no more. */
export const POOL_SIZE = 10;
/** The alternative target where two shared cores cap the ratio: the server's CPU time per request, in ms. */
export const SERVER_CPU_TARGET_MS = 0.4;
export const OUT = process.env.BENCH_OUT ?? join(ROOT, 'bench/results/api.json');
export const PASSWORD = 'demo-password';

export const ENDPOINTS = [
  { name: 'Client Manager', path: '/api/create-client?perPage=50' },
  { name: 'System Logs', path: '/api/system-logs?perPage=50' },
  { name: 'Personnel', path: '/api/personnel?perPage=50' },
] as const;
