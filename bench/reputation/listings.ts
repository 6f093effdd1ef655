/**
 * bench/reputation/listings: a whole-client listings scan of BENCH_LOCATIONS (500) locations against
 * the local fakes of Google Places (Text Search, then Place Details on later scans) and Yelp
 * business match (apps/server/test/listings-fakes.ts, over HTTP on 127.0.0.1 through the outbound
 * guard), the eight other directories from the built-in demo directory. The scan runs as the
 * product runs it: Scan now's row and job (startScan), a real queue with the listings installer
 * (listings/install.ts) polling, while the scan's progress (`done` of `total`) is sampled every
 * second as the screen polls it. On PGlite, and on PostgreSQL with BENCH_DATABASE_URL (it creates
 * and drops `bench_listings`). Target (issue 21): ≤ 60 s with a visible progress.
 *
 *   npx tsx bench/reputation/listings.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/reputation/listings.ts
 *
 * Results: bench/results/listings-<db>.json; table: bench/README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { listingScans, listings } from '../../apps/server/src/db/schema/index.ts';
import { installListings } from '../../apps/server/src/listings/install.ts';
import { startScan } from '../../apps/server/src/modules/listings/start-scan.ts';
import { createQueue } from '../../apps/server/src/pipeline/queue.ts';
import { listingClient } from '../../apps/server/test/listings-bed.ts';
import { PLACES_KEY, startFakeProviders, YELP_KEY } from '../../apps/server/test/listings-fakes.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LOCATIONS = Number(process.env.BENCH_LOCATIONS ?? 500);
const TARGET_S = 60;

async function open(kind: 'pglite' | 'pg') {
  if (kind === 'pglite') return openDatabase({ kind, dataDir: null });
  const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query('drop database if exists bench_listings with (force)');
  await admin.query('create database bench_listings');
  await admin.end();
  const url = new URL(process.env.BENCH_DATABASE_URL ?? '');
  url.pathname = '/bench_listings';
  return openDatabase({ kind, url: url.toString() });
}

type Sample = { t_s: number; status: string; done: number; failed: number; total: number };

async function run(kind: 'pglite' | 'pg') {
  const fakes = await startFakeProviders();
  const database = await open(kind);
  await database.migrate();
  const db = database.db;
  const { clientId, locations } = await listingClient(db, 'Bench', LOCATIONS);
  // The providers hold every location; one in five with an old phone, one in ten with a duplicate.
  for (const [i, l] of locations.entries()) {
    const held = i % 5 === 0 ? { ...l.business, phone: '(303) 555-0000' } : l.business;
    fakes.businesses.set(l.name.toLowerCase(), i % 10 === 0 ? [held, { ...held, address: '1 Old Road, Lakewood, CO 80228' }] : [held]);
  }
  const providers = {
    ...testConfig().providers,
    googlePlaces: { apiUrl: fakes.placesUrl, apiKey: PLACES_KEY },
    yelp: { apiUrl: fakes.yelpUrl, apiKey: YELP_KEY },
    allowPrivateHosts: true,
    // The eight directories without an adapter answer from the demo directory, as in the demo.
    demoDirectory: true,
  };
  const clock = { now: () => new Date() };
  const queue = createQueue(db, clock, { pollMs: 100, onError: (err, what) => console.error(what, err) });
  installListings(queue, db, clock, providers);

  const scanOnce = async (label: string) => {
    const requestsBefore = fakes.requests.length;
    const { scan } = await startScan(db, { clientId, locationId: null, requestedBy: null }, new Date());
    const began = performance.now();
    queue.start();
    const samples: Sample[] = [];
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      const [s] = await db.select().from(listingScans).where(eq(listingScans.id, scan.id));
      if (!s) throw new Error('scan gone');
      samples.push({
        t_s: Math.round((performance.now() - began) / 100) / 10,
        status: s.status,
        done: s.done,
        failed: s.failed,
        total: s.total,
      });
      console.log(`${kind} ${label}: ${samples.at(-1)?.t_s}s ${s.status} ${s.done}/${s.total} failed ${s.failed}`);
      if (s.status !== 'queued' && s.status !== 'running') break;
    }
    await queue.stop();
    const [s] = await db.select().from(listingScans).where(eq(listingScans.id, scan.id));
    const seconds = s?.startedAt && s.finishedAt ? (s.finishedAt.getTime() - s.startedAt.getTime()) / 1000 : null;
    return {
      label,
      status: s?.status,
      total: s?.total,
      done: s?.done,
      failed: s?.failed,
      scan_seconds: seconds,
      locations_per_s: seconds ? Math.round(((s?.done ?? 0) / seconds) * 10) / 10 : null,
      provider_requests: fakes.requests.length - requestsBefore,
      samples,
    };
  };
  // The first scan searches (Text Search); the second reads Google by the kept place ids (Place Details).
  const first = await scanOnce('first scan');
  const second = await scanOnce('rescan');
  const rows = (await db.select({ id: listings.id }).from(listings)).length;
  await database.close();
  await fakes.close();
  const result = {
    db: kind,
    locations: LOCATIONS,
    directories: 10,
    listing_rows: rows,
    target_s: TARGET_S,
    first,
    second,
    met: (first.scan_seconds ?? Number.POSITIVE_INFINITY) <= TARGET_S && (second.scan_seconds ?? Number.POSITIVE_INFINITY) <= TARGET_S,
    measured_at: new Date().toISOString(),
    load_average: (await import('node:os')).loadavg().map((n) => Math.round(n * 100) / 100),
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `listings-${kind}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    JSON.stringify({
      ...result,
      first: { ...first, samples: first.samples.length },
      second: { ...second, samples: second.samples.length },
    }),
  );
}

await run('pglite');
if (process.env.BENCH_DATABASE_URL) await run('pg');
