/**
 * bench/testimonials: the widget's feed for a client with 5,000 published testimonials.
 *
 *   npx tsx bench/testimonials/run.ts            (PGlite; BENCH_DATABASE_URL=postgres://… adds PostgreSQL)
 *
 * The demo data, then 5,000 more promoters' responses with a comment and consent for the first
 * client (copies of one of its invitations, each with its own token), each made a testimonial by
 * the job's own `makeTestimonial`, then published (one in ten featured). The real server runs in a
 * child process; autocannon loads `GET /api/public/testimonials` from another (1 and 10 connections,
 * BENCH_SECONDS each, after a warm-up). Target: p95 ≤ 20 ms. Results: bench/results/testimonials.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';
import { makeTestimonial } from '../../apps/server/src/modules/testimonials/make.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const COUNT = Number(process.env.BENCH_TESTIMONIALS ?? 5000);
const OUT = process.env.BENCH_OUT ?? join(ROOT, 'bench/results/testimonials.json');
const AUTOCANNON = join(ROOT, 'node_modules/.bin/autocannon');

/** A fresh database on a PostgreSQL server (created here, dropped by the parent), or null for PGlite. */
async function pgDatabase(adminUrl: string, name: string, drop: boolean): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  if (!drop) await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function serve(kind: 'pglite' | 'pg', url: string | undefined) {
  const database = await openDatabase(kind === 'pg' && url ? { kind: 'pg', url } : { kind: 'pglite', dataDir: null }, () => undefined);
  await database.migrate();
  const config = testConfig({ demoPassword: 'demo-password' });
  await seedDemoData(database.db, config);
  const db = database.db;
  const [first] = rowsOf(await db.execute(sql`select id from clients order by id limit 1`));
  const clientId = Number(first?.id);
  const [template] = rowsOf(
    await db.execute(
      sql`select r.processing_item_id as item, r.id from survey_responses r where r.client_id = ${clientId} order by r.id limit 1`,
    ),
  );
  // Every column of the invitation but its id and token, copied COUNT times.
  const columns = rowsOf(
    await db.execute(sql`select column_name from information_schema.columns
      where table_name = 'survey_processing_items' and column_name not in ('id', 'token') order by ordinal_position`),
  ).map((c) => `"${String(c.column_name)}"`);
  const list = sql.raw(columns.join(', '));
  const started = performance.now();
  await db.execute(sql`insert into survey_processing_items (${list}, token)
    select ${list}, 'bench-' || g || '-' || md5(random()::text) from survey_processing_items, generate_series(1, ${COUNT}) g
    where id = ${Number(template?.item)}`);
  await db.execute(sql`insert into survey_responses (processing_item_id, survey_id, client_id, location_id, personnel_id, key_score, nps_class,
      comment, answers, questions, testimonial_consent, submitted_at)
    select i.id, r.survey_id, r.client_id, r.location_id, r.personnel_id, 10, 'promoter',
      'Great service, visit ' || i.id || '. Friendly, quick and careful.', r.answers, r.questions, true,
      now() - (i.id % 720) * interval '1 hour'
    from survey_processing_items i, survey_responses r
    where i.token like 'bench-%' and r.id = ${Number(template?.id)}`);
  const responses = rowsOf(
    await db.execute(
      sql`select r.id from survey_responses r join survey_processing_items i on i.id = r.processing_item_id where i.token like 'bench-%'`,
    ),
  );
  for (const r of responses) await makeTestimonial(db, Number(r.id), new Date());
  await db.execute(sql`update testimonials set status = 'published', featured = (id % 10 = 0),
    approved_at = submitted_at, published_at = submitted_at + interval '1 hour' where client_id = ${clientId} and status <> 'rejected'`);
  await db.execute(sql`analyze`);
  const [count] = rowsOf(
    await db.execute(sql`select count(*)::int as n from testimonials where client_id = ${clientId} and status = 'published'`),
  );
  const [loc] = rowsOf(
    await db.execute(sql`select location_id from testimonials where client_id = ${clientId} and location_id is not null limit 1`),
  );
  const app = await buildApp(config, { database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  process.stdout.write(
    `${JSON.stringify({ port, clientId, published: Number(count?.n), location: String(loc?.location_id), setupMs: Math.round(performance.now() - started) })}\n`,
  );
}

type Ready = { port: number; clientId: number; published: number; location: string; setupMs: number };
type Report = {
  requests: { average: number };
  latency: { p50: number; p90: number; p97_5: number; p99: number; max: number };
  non2xx: number;
};

function load(url: string, seconds: number, connections = 10): Report {
  const run = spawnSync(AUTOCANNON, ['-c', String(connections), '-d', String(seconds), '--json', url], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  return JSON.parse(run.stdout) as Report;
}

async function main() {
  if (process.argv[2] === 'serve') return serve(process.argv[3] === 'pg' ? 'pg' : 'pglite', process.argv[4]);
  const kinds: Array<'pglite' | 'pg'> = process.env.BENCH_DATABASE_URL ? ['pglite', 'pg'] : ['pglite'];
  const results: unknown[] = [];
  for (const kind of kinds) {
    const url = kind === 'pg' ? await pgDatabase(process.env.BENCH_DATABASE_URL ?? '', 'bench_testimonials', false) : undefined;
    const server = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'serve', kind, url ?? ''], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const ready = await new Promise<Ready>((resolve) => {
      let text = '';
      server.stdout.on('data', (d: Buffer) => {
        text += String(d);
        const line = text.split('\n').find((l) => l.startsWith('{"port"'));
        if (line) resolve(JSON.parse(line) as Ready);
      });
    });
    const base = `http://127.0.0.1:${ready.port}/api/public/testimonials?client=${ready.clientId}`;
    const cases = { 'feed (12, the default)': base, 'feed, 50': `${base}&limit=50`, 'one location': `${base}&location=${ready.location}` };
    for (const [name, target] of Object.entries(cases))
      for (const connections of [1, 10]) {
        load(target, 2, connections); // warm-up
        // autocannon reports p90 and p97.5, not p95: p95 lies between, so p97.5 ≤ 20 ms meets the target.
        const r = load(target, SECONDS, connections);
        const row = {
          database: kind,
          case: name,
          connections,
          published: ready.published,
          requestsPerSecond: Math.round(r.requests.average),
          p50: r.latency.p50,
          p90: r.latency.p90,
          p97_5: r.latency.p97_5,
          p99: r.latency.p99,
          non2xx: r.non2xx,
        };
        results.push(row);
        console.log(JSON.stringify(row));
      }
    server.kill();
    if (kind === 'pg' && process.env.BENCH_DATABASE_URL) await pgDatabase(process.env.BENCH_DATABASE_URL, 'bench_testimonials', true);
  }
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, results }, null, 2)}\n`);
}

await main();
