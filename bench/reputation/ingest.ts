/**
 * bench/reputation/ingest: review ingest through `POST /api/v1/reviews` over HTTP in batches of 500
 * (issue 21, "Benchmark": ≥ 2,000 reviews/s on PostgreSQL), against the bare-SQL insert ceiling of
 * the same rows measured in the same run, on PGlite and, with BENCH_DATABASE_URL, on PostgreSQL
 * (it creates and drops `bench_reviews_ingest`).
 *
 *   npx tsx bench/reputation/ingest.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/reputation/ingest.ts
 *
 * The server is the real app on a loopback port (demo data, a client user's `reviews:write` token);
 * the client posts BENCH_REVIEWS (50,000) new Google reviews over the first client's locations, one
 * batch after another, then the same batches again (every review `unchanged`). The ceiling inserts
 * the same rows (other review ids) with one `insert … select from jsonb_to_recordset` per batch of
 * 500 from a bare client (node-postgres on PostgreSQL; the PGlite instance itself on PGlite), with
 * no HTTP, validation, location check, jobs or audit. Results: bench/results/reviews-ingest-<db>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const N = Number(process.env.BENCH_REVIEWS ?? 50_000);
const BATCH = 500;
const PASSWORD = 'demo-password';
const DB_NAME = 'bench_reviews_ingest';
const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'];

function dbUrl(): string {
  const url = new URL(process.env.BENCH_DATABASE_URL ?? '');
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

async function open(kind: 'pglite' | 'pg') {
  if (kind === 'pglite') return openDatabase({ kind, dataDir: null });
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${DB_NAME} with (force)`);
  await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  return openDatabase({ kind, url: dbUrl() });
}

/** The batches: Google-shaped reviews over the locations, a comment of ~150 characters, a reply on every third. */
function batchesOf(prefix: string, locations: string[], base: number) {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < N; i += BATCH) {
    batches.push(
      Array.from({ length: Math.min(BATCH, N - i) }, (_, j) => {
        const k = i + j;
        const at = new Date(base - (k % 10_000) * 60_000).toISOString();
        return {
          name: `accounts/1/locations/1/reviews/${prefix}${k}`,
          reviewId: `${prefix}${k}`,
          locationId: locations[k % locations.length],
          reviewer: { displayName: `Reviewer ${k % 977} ${String.fromCharCode(65 + (k % 26))}.` },
          starRating: STARS[k % 5],
          comment: `Visit ${k}: the staff were friendly, the wait was short and the work was done as promised. Would recommend to friends.`,
          createTime: at,
          updateTime: at,
          ...(k % 3 === 0 ? { reviewReply: { comment: 'Thank you for your review!', updateTime: at } } : {}),
        };
      }),
    );
  }
  return batches;
}

async function run(kind: 'pglite' | 'pg') {
  const database = await open(kind);
  await database.migrate();
  const config = testConfig({ demoPassword: PASSWORD, ...(kind === 'pg' ? { database: { kind: 'pg', url: dbUrl() } } : {}) });
  await seedDemoData(database.db, config);
  const app = await buildApp(config, { database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: 'admin@example.com', password: PASSWORD } });
  const staff = { authorization: `Bearer ${login.json().data.token}` };
  const [client] = rowsOf(await database.db.execute(sql`select id from clients where status = 'active' order by id limit 1`));
  const clientId = Number(client?.id);
  const [user] = rowsOf(
    await database.db.execute(sql`select user_id from client_users where client_id = ${clientId} order by user_id limit 1`),
  );
  const made = await app.inject({
    method: 'POST',
    url: '/api/api-token',
    headers: staff,
    payload: { user_id: Number(user?.user_id), name: 'Bench', scopes: ['reviews:write'] },
  });
  const token = String(made.json().data.token);
  const locations = rowsOf(await database.db.execute(sql`select _id from locations where client_id = ${clientId} order by _id`)).map((r) =>
    String(r._id),
  );
  const now = Date.now() - 3_600_000;

  const post = async (batch: Record<string, unknown>[]) => {
    const res = await fetch(`${base}/api/v1/reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ reviews: batch }),
    });
    if (res.status !== 200) throw new Error(`POST /api/v1/reviews answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return (await res.json()) as { data: { counts: Record<string, number> } };
  };
  const pass = async (batches: Record<string, unknown>[][], expect: string) => {
    const t = performance.now();
    for (const b of batches) {
      const answer = await post(b);
      if (answer.data.counts[expect] !== b.length) throw new Error(`expected ${b.length} ${expect}: ${JSON.stringify(answer.data.counts)}`);
    }
    const s = (performance.now() - t) / 1000;
    return { seconds: Math.round(s * 100) / 100, perSecond: Math.round(N / s) };
  };

  const api = batchesOf('api-', locations, now);
  const created = await pass(api, 'created');
  const unchanged = await pass(api, 'unchanged');

  // The ceiling: the same rows (new ids), one insert per batch, no HTTP and nothing else.
  const rowsFor = (batch: Record<string, unknown>[]) =>
    batch.map((r) => ({
      client_id: clientId,
      location_id: r.locationId,
      site: 'google',
      external_id: `bare-${String(r.reviewId)}`,
      author_name: (r.reviewer as { displayName: string }).displayName,
      rating: STARS.indexOf(String(r.starRating)) + 1,
      text: r.comment,
      review_created_at: r.createTime,
      review_updated_at: r.updateTime,
      reply_text: (r.reviewReply as { comment?: string } | undefined)?.comment ?? null,
      replied_at: (r.reviewReply as { updateTime?: string } | undefined)?.updateTime ?? null,
    }));
  const INSERT = `insert into reviews (client_id, location_id, site, external_id, author_name, rating, text, review_created_at,
      review_updated_at, reply_text, replied_at, source, fetched_at)
    select client_id, location_id, site, external_id, author_name, rating, text, review_created_at, review_updated_at, reply_text,
      replied_at, 'api', now()
    from jsonb_to_recordset($1::jsonb) as x(client_id int, location_id text, site text, external_id text, author_name text,
      rating smallint, text text, review_created_at timestamptz, review_updated_at timestamptz, reply_text text, replied_at timestamptz)`;
  let bareSeconds: number;
  if (kind === 'pg') {
    const bare = new pg.Client({ connectionString: dbUrl() });
    await bare.connect();
    const t = performance.now();
    for (const b of api) await bare.query(INSERT, [JSON.stringify(rowsFor(b))]);
    bareSeconds = (performance.now() - t) / 1000;
    await bare.end();
  } else {
    const t = performance.now();
    for (const b of api) {
      const [head = '', tail = ''] = INSERT.split('$1::jsonb');
      await database.db.execute(sql`${sql.raw(head)}${JSON.stringify(rowsFor(b))}::jsonb${sql.raw(tail)}`);
    }
    bareSeconds = (performance.now() - t) / 1000;
  }
  const ceiling = { seconds: Math.round(bareSeconds * 100) / 100, perSecond: Math.round(N / bareSeconds) };
  const jobs = rowsOf(
    await database.db.execute(sql`select count(*)::int as n from jobs where queue in ('match-review', 'evaluate-review-alerts')`),
  )[0]?.n;

  const result = {
    kind,
    reviews: N,
    batch: BATCH,
    apiCreated: created,
    apiUnchanged: unchanged,
    bareInsertCeiling: ceiling,
    apiShareOfCeiling: Math.round((created.perSecond / ceiling.perSecond) * 100) / 100,
    // The demo's own reviews' jobs are in the queue too.
    reviewJobsInQueue: Number(jobs),
    target: kind === 'pg' ? { perSecond: 2000, met: created.perSecond >= 2000 } : null,
    measuredAt: new Date().toISOString(),
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `reviews-ingest-${kind}.json`), `${JSON.stringify(result, null, 2)}\n`);
  await app.close();
  await database.close();
  if (kind === 'pg') {
    const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.end();
  }
}

const kinds: ('pglite' | 'pg')[] = process.env.BENCH_DATABASE_URL ? ['pg', 'pglite'] : ['pglite'];
for (const kind of kinds) await run(kind);
