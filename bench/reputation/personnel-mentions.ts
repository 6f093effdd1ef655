/**
 * bench/reputation/personnel-mentions: what finding the personnel a review names costs the review
 * ingest (docs/decisions/057), on PGlite and, with BENCH_DATABASE_URL, on PostgreSQL (it creates
 * and drops `bench_personnel_mentions`).
 *
 *   npx tsx bench/reputation/personnel-mentions.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/reputation/personnel-mentions.ts
 *
 * One client with 500 locations and 5,000 active personnel (ten per location, each with an alias
 * and a display name). `ingestReviews` (no HTTP) writes BENCH_BATCHES (20) batches of 1,000 new
 * reviews spread over the locations, half of them naming someone of their location; then the same
 * number of batches with the client's personnel paused (the names read find nobody: the ingest's
 * cost without mentions). Before each run the mention step alone (`personnelMentions`: the one
 * read and the matching) is timed per batch. Results: bench/results/personnel-mentions-<db>.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, rowsOf } from '../../apps/server/src/db/client.ts';
import { clients, locations, personnel, personnelLocations } from '../../apps/server/src/db/schema/index.ts';
import { ingestReviews } from '../../apps/server/src/reputation/ingest/ingest.ts';
import { personnelMentions } from '../../apps/server/src/reputation/ingest/personnel-mentions.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BATCHES = Number(process.env.BENCH_BATCHES ?? 20);
const BATCH = 1000;
const LOCATIONS = 500;
const PER_LOCATION = 10;
const DB_NAME = 'bench_personnel_mentions';
const FIRST = ['Ava', 'Liam', 'Maria', 'Noah', 'Grace', 'Ethan', 'Chloe', 'Mason', 'Isaac', 'Nora', 'Owen', 'Mia'];
const LAST = ['Lopez', 'Kim', 'Patel', 'Nguyen', 'Brown', 'Walker', 'Young', 'Hall', 'Davis', 'Moore'];

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

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

async function run(kind: 'pglite' | 'pg') {
  const database = await open(kind);
  await database.migrate();
  const db = database.db;
  const [client] = await db.insert(clients).values({ name: 'Bench mentions', timezone: 'America/Chicago' }).returning({ id: clients.id });
  const clientId = client?.id ?? 0;
  const locationIds = Array.from({ length: LOCATIONS }, () => randomBytes(12).toString('hex'));
  await db.insert(locations).values(
    locationIds.map((id, i) => ({
      id,
      clientId,
      locationname: `Bench ${i}`,
      address1: `${i} Main St`,
      city: 'Austin',
      state: 'TX',
      postalCode: '78701',
      phone: '+15125550100',
      timezone: 'America/Chicago',
    })),
  );
  /** Each location's staff names, as reviews write them. */
  const staff: string[][] = [];
  for (let l = 0; l < LOCATIONS; l++) {
    const people = Array.from({ length: PER_LOCATION }, (_, k) => {
      const n = l * PER_LOCATION + k;
      return { first: FIRST[n % FIRST.length] ?? 'Ava', last: `${LAST[k % LAST.length]}${n}` };
    });
    const rows = await db
      .insert(personnel)
      .values(
        people.map((p) => ({
          clientId,
          firstName: p.first,
          lastName: p.last,
          displayName: `${p.first} ${p.last[0]}.`,
          aliases: [`${p.first}${p.last}`],
        })),
      )
      .returning({ id: personnel.id });
    await db.insert(personnelLocations).values(rows.map((r) => ({ personnelId: r.id, locationId: locationIds[l] ?? '' })));
    staff.push(people.map((p) => `${p.first} ${p.last}`));
  }
  const now = new Date();
  const batchOf = (prefix: string, b: number) =>
    Array.from({ length: BATCH }, (_, j) => {
      const k = b * BATCH + j;
      const l = k % LOCATIONS;
      const named = k % 2 === 0 ? ` ${staff[l]?.[k % PER_LOCATION]} was very helpful.` : '';
      return {
        reviewId: `${prefix}${k}`,
        locationId: locationIds[l],
        reviewer: { displayName: `Reviewer ${k}` },
        starRating: 'FIVE',
        comment: `Booked online, the visit was on time and the price was as quoted, would book again.${named}`,
        createTime: new Date(now.getTime() - 86_400_000).toISOString(),
      };
    });

  const timed = async (prefix: string) => {
    // The mention step alone, per batch (its read and its matching)…
    const mentionMs: number[] = [];
    for (let b = 0; b < BATCHES; b++) {
      const items = batchOf(prefix, b);
      const m0 = performance.now();
      await personnelMentions(
        db,
        items.map((i) => ({ clientId, locationId: i.locationId ?? '', text: i.comment })),
      );
      mentionMs.push(performance.now() - m0);
    }
    // …then the whole ingest of the same batches (which runs it again, inside).
    const started = performance.now();
    for (let b = 0; b < BATCHES; b++) {
      const result = await ingestReviews(db, { clientId, source: 'api', now }, batchOf(prefix, b));
      if (result.counts.created !== BATCH) throw new Error(`batch ${b}: ${JSON.stringify(result.counts)}`);
    }
    const seconds = (performance.now() - started) / 1000;
    const sorted = [...mentionMs].sort((a, b) => a - b);
    return {
      reviewsPerSecond: Math.round((BATCHES * BATCH) / seconds),
      seconds: Number(seconds.toFixed(2)),
      mentionsPerBatchMs: { p50: Number(pct(sorted, 50).toFixed(1)), p95: Number(pct(sorted, 95).toFixed(1)) },
    };
  };

  const withMentions = await timed('m');
  const [counted] = rowsOf(
    await db.execute(sql`select count(*)::int as named from reviews where external_id like 'm%' and cardinality(personnel_ids) > 0`),
  );
  const named = Number(counted?.named ?? 0);
  await db.execute(sql`update personnel set status = 'paused' where client_id = ${clientId}`);
  const withoutMentions = await timed('n');
  await database.close();
  if (kind === 'pg') {
    const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.end();
  }
  const result = {
    kind,
    batches: BATCHES,
    batch: BATCH,
    locations: LOCATIONS,
    personnel: LOCATIONS * PER_LOCATION,
    withMentions,
    reviewsNamingSomeone: named,
    withoutMentions,
    /** How much slower the ingest is when reviews name people: 1 − (rate with mentions ÷ rate without). */
    slowdown: Number((1 - withMentions.reviewsPerSecond / withoutMentions.reviewsPerSecond).toFixed(3)),
    measuredAt: new Date().toISOString(),
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `personnel-mentions-${kind}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

await run('pglite');
if (process.env.BENCH_DATABASE_URL) await run('pg');
