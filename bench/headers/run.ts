/**
 * bench/headers: what the security headers cost per request.
 *
 *   npx tsx bench/headers/run.ts
 *
 * One small JSON route served three ways in this process — bare Fastify, with the console's
 * security-headers plugin over HTTP, and with it as HTTPS behind a trusted proxy (adds HSTS) —
 * each loaded by autocannon in its own process (50 connections, BENCH_SECONDS each, after a
 * warm-up), so the load generator does not share the server's core. Results:
 * bench/results/headers.json; table: bench/README.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { securityHeadersPlugin } from '../../apps/server/src/plugins/security-headers.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const OUT = process.env.BENCH_OUT ?? join(ROOT, 'bench/results/headers.json');
const AUTOCANNON = join(ROOT, 'node_modules/.bin/autocannon');

type Variant = { name: string; headers: boolean; trustProxy: boolean; requestHeaders: string[] };
const variants: Variant[] = [
  { name: 'bare Fastify', headers: false, trustProxy: false, requestHeaders: [] },
  { name: 'security headers (HTTP)', headers: true, trustProxy: false, requestHeaders: [] },
  { name: 'security headers (HTTPS via proxy, + HSTS)', headers: true, trustProxy: true, requestHeaders: ['x-forwarded-proto=https'] },
];

async function serve(v: Variant) {
  const app = Fastify({ logger: false, trustProxy: v.trustProxy });
  if (v.headers) await app.register(securityHeadersPlugin, { connectOrigins: [] });
  app.get('/x', async () => ({ data: { status: 'ok' } }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port };
}

/** autocannon's arguments: 50 connections for `seconds`, JSON report. */
function load(port: number, seconds: number, headers: string[]): string[] {
  return ['-c', '50', '-d', String(seconds), '--json', ...headers.flatMap((h) => ['-H', h]), `http://127.0.0.1:${port}/x`];
}

async function main() {
  if (process.argv[2] === 'serve') {
    const v = variants[Number(process.argv[3])];
    if (!v) throw new Error('no such variant');
    const { port } = await serve(v);
    process.stdout.write(`${port}\n`);
    return;
  }
  const results: { variant: string; requestsPerSecond: number; latencyP99Ms: number; headerBytes: number }[] = [];
  for (const [i, v] of variants.entries()) {
    // The server in a child process and autocannon in another (spawnSync blocks this one).
    const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'serve', String(i)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await new Promise<number>((resolve) => server.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    spawnSync(AUTOCANNON, load(port, 2, v.requestHeaders), { encoding: 'utf8' }); // warm-up
    const run = spawnSync(AUTOCANNON, load(port, SECONDS, v.requestHeaders), { encoding: 'utf8' });
    const report = JSON.parse(run.stdout) as { requests: { average: number }; latency: { p99: number } };
    const probe = await fetch(`http://127.0.0.1:${port}/x`, {
      headers: Object.fromEntries(v.requestHeaders.map((h) => h.split('=') as [string, string])),
    });
    const headerBytes = [...probe.headers].reduce((n, [k, val]) => n + k.length + val.length + 4, 0);
    server.kill();
    results.push({
      variant: v.name,
      requestsPerSecond: Math.round(report.requests.average),
      latencyP99Ms: report.latency.p99,
      headerBytes,
    });
    console.log(`${v.name}: ${Math.round(report.requests.average)} req/s, p99 ${report.latency.p99} ms, ${headerBytes} header bytes`);
  }
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, connections: 50, results }, null, 2)}\n`);
}

await main();
