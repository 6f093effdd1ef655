/**
 * bench/merge: Merge Personnel Data's suggestions and the Personnel "possible duplicates" filter
 * for one client with many personnel, on PGlite (and on PostgreSQL with BENCH_DATABASE_URL).
 *
 *   npm run bench:merge                       # 100,000 personnel on PGlite
 *   BENCH_PEOPLE=1000000 BENCH_ONLY=pg BENCH_DATABASE_URL=postgres://… npm run bench:merge
 *
 * On PostgreSQL it works in a database of its own (`bench_merge_<people>`, dropped at the end unless
 * BENCH_KEEP=1, to look at its plans afterwards). Adds
 * BENCH_PEOPLE people to the first demo client, one in a hundred a feed duplicate of the person
 * before (same name), in statements of 100,000 rows (each counting its match keys, migration
 * 0046), then measures through the real routes (app.inject, no network) BENCH_REPEAT times:
 * the suggestions (first page, next page, a search, one person's groups), the filtered and the
 * first Personnel page, a merge preview; and in the same run, with no server around it, the
 * suggestions' statement alone (the ceiling) and the grouping statement the suggestions ran
 * before (every person of the client grouped by the key expressions); last, what counting the
 * keys adds to an insert of 10,000 people. Records the load average.
 * Results: bench/results/merge-<db>[-<people>].json; table: bench/README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MATCH_REASONS } from '@admin/shared';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { type Database, openDatabase } from '../../apps/server/src/db/client.ts';
import { matchKey } from '../../apps/server/src/modules/personnel/repository.ts';
import { sharedKeys } from '../../apps/server/src/modules/personnel-merge/suggestions.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 100_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 20);
const CHUNK = 100_000;
const PASSWORD = 'demo-password';
const DB_NAME = `bench_merge_${PEOPLE}`;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function open(kind: 'pglite' | 'pg'): Promise<{ database: Database; drop(): Promise<void> }> {
  if (kind === 'pglite') return { database: await openDatabase({ kind, dataDir: null }), drop: async () => {} };
  const adminUrl = process.env.BENCH_DATABASE_URL ?? '';
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`drop database if exists ${DB_NAME} with (force)`);
  await admin(`create database ${DB_NAME}`);
  const url = new URL(adminUrl);
  url.pathname = `/${DB_NAME}`;
  const keep = process.env.BENCH_KEEP === '1';
  return {
    database: await openDatabase({ kind, url: url.toString() }),
    drop: () => (keep ? Promise.resolve() : admin(`drop database if exists ${DB_NAME} with (force)`)),
  };
}

/** p50, p95 and max of `times` runs of `fn` after one untimed, with its last answer. */
async function timed<T>(times: number, fn: () => Promise<T>): Promise<{ p50: number; p95: number; max: number; last: T }> {
  const ms: number[] = [];
  // One untimed call first: the first read after a bulk insert also writes the rows' hint bits.
  let last: T | undefined = await fn();
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    last = await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => Math.round((ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)] ?? 0) * 10) / 10;
  if (last === undefined) throw new Error('nothing timed');
  return { p50: at(0.5), p95: at(0.95), max: at(1), last };
}

/**
 * What counting the keys adds to a write: 10,000 people in one statement into the second demo
 * client, with the insert trigger of migration 0046 and without it, three times each, alternating.
 * Last in the run: the rows written without it are not counted, and the database is thrown away.
 */
async function writeCost(database: Database): Promise<{ withKeysMs: number[]; withoutKeysMs: number[] }> {
  const times = { withKeysMs: [] as number[], withoutKeysMs: [] as number[] };
  for (let round = 0; round < 6; round++) {
    const counted = round % 2 === 0;
    if (!counted) await database.db.execute(sql`alter table personnel disable trigger personnel_match_keys_on_insert`);
    const t = performance.now();
    await database.db.execute(sql`
      insert into personnel (client_id, first_name, last_name, employee_code, email, phone)
      select 2, 'w' || ${round}::text || md5(i::text), 'write', 'W' || ${round}::text || '-' || i, 'w' || ${round}::text || '-' || i || '@bench.example.com',
        '+1' || (3000000000 + ${round}::int * 100000 + i)::text
      from generate_series(1, 10000) as i`);
    (counted ? times.withKeysMs : times.withoutKeysMs).push(Math.round(performance.now() - t));
    if (!counted) await database.db.execute(sql`alter table personnel enable trigger personnel_match_keys_on_insert`);
  }
  return times;
}

async function run(kind: 'pglite' | 'pg') {
  const { database, drop } = await open(kind);
  try {
    await database.migrate();
    const config = testConfig({ demoPassword: PASSWORD });
    await seedDemoData(database.db, config);
    const t0 = performance.now();
    // Letters-only names from md5 (digits mapped to letters), so normalised names differ; every
    // hundredth person repeats the name of the one before: a feed duplicate.
    for (let from = 1; from <= PEOPLE; from += CHUNK) {
      await database.db.execute(sql`
        insert into personnel (client_id, first_name, last_name, employee_code, email, phone)
        select 1,
          substr(translate(md5((i - (i % 100 = 0)::int)::text), '0123456789', 'ghijklmnop'), 1, 8),
          substr(translate(md5((i - (i % 100 = 0)::int)::text), '0123456789', 'ghijklmnop'), 9, 8),
          'B' || i, 'p' || i || '@bench.example.com', '+1' || (2000000000 + i)::text
        from generate_series(${from}::int, ${Math.min(PEOPLE, from + CHUNK - 1)}::int) as i`);
    }
    const insertSeconds = Math.round((performance.now() - t0) / 100) / 10;
    await database.db.execute(sql`vacuum analyze personnel`);
    // As autovacuum would after a bulk insert: the visibility map lets the shared keys be read from their index alone.
    await database.db.execute(sql`vacuum analyze personnel_match_keys`);
    console.log(`  ${kind}: added ${PEOPLE.toLocaleString()} personnel in ${insertSeconds} s (match keys counted)`);

    const app = await buildApp(config, { database });
    await app.ready();
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: 'admin@example.com', password: PASSWORD } });
    const headers = { authorization: `Bearer ${login.json().data.token}` };
    await app.inject({ method: 'PUT', url: '/api/users/switch-client/1', headers });
    const request = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => async () => {
      const res = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return res.json() as { total: number; nextCursor: string | null; data: { personnel_ids: number[]; people: { name: string }[] }[] };
    };

    const loadBefore = load();
    const suggestions = await timed(REPEAT, request('GET', '/api/get-merge-personnel?perPage=50'));
    const first = suggestions.last.data[0];
    const nextPage = await timed(REPEAT, request('GET', `/api/get-merge-personnel?perPage=50&cursor=${suggestions.last.nextCursor ?? ''}`));
    const search = await timed(REPEAT, request('GET', `/api/get-merge-personnel?perPage=50&q=${first?.people[0]?.name.slice(0, 4) ?? ''}`));
    const person = await timed(REPEAT, request('GET', `/api/get-merge-personnel?perPage=50&person=${first?.personnel_ids[1] ?? 0}`));
    const ceiling = await timed(REPEAT, () => sharedKeys(database.db, 1));
    // The grouping the suggestions ran on every request before migration 0046, alone.
    const before = await timed(2, () =>
      database.db.execute(
        sql.raw(`
        with p as (select id, ${MATCH_REASONS.map((r) => `${matchKey(r, 'personnel')} as k_${r}`).join(', ')}
          from personnel where client_id = 1 and merged_into_id is null)
        select reason, array_agg(id order by id) as ids from (
          ${MATCH_REASONS.map((r) => `select '${r}' as reason, k_${r} as k, id from p where coalesce(k_${r}, '') <> ''`).join(' union all ')}
        ) m group by reason, k having count(*) between 2 and 10`),
      ),
    );
    const duplicatesFilter = await timed(Math.min(REPEAT, 2), request('GET', '/api/personnel?duplicates=yes&perPage=50'));
    const firstPage = await timed(REPEAT, request('GET', '/api/personnel?perPage=50'));
    const [a, b] = first?.personnel_ids ?? [];
    const preview = await timed(
      REPEAT,
      request('POST', '/api/get-merge-personnel/preview', { survivor_id: a ?? 0, duplicate_ids: [b ?? 0] }),
    );
    const writes = await writeCost(database);
    const strip = ({ last: _l, ...t }: { p50: number; p95: number; max: number; last: unknown }) => t;
    const result = {
      database: kind,
      people: PEOPLE,
      groups: suggestions.last.total,
      repeat: REPEAT,
      insertSeconds,
      loadAverage: { before: loadBefore, after: load() },
      ms: {
        suggestions: strip(suggestions),
        suggestionsNextPage: strip(nextPage),
        suggestionsSearch: { ...strip(search), groups: search.last.total },
        suggestionsOfPerson: strip(person),
        sharedKeysStatement: strip(ceiling),
        groupingBefore: strip(before),
        duplicatesFilter: strip(duplicatesFilter),
        firstPage: strip(firstPage),
        preview: strip(preview),
      },
      writes,
    };
    console.log(JSON.stringify(result));
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    const suffix = PEOPLE === 100_000 ? '' : `-${PEOPLE}`;
    writeFileSync(join(ROOT, `bench/results/merge-${kind}${suffix}.json`), `${JSON.stringify(result, null, 2)}\n`);
    await app.close();
  } finally {
    await database.close();
    await drop();
  }
}

// BENCH_ONLY=pg or BENCH_ONLY=pglite runs one of the two.
if (process.env.BENCH_ONLY !== 'pg') await run('pglite');
if (process.env.BENCH_DATABASE_URL && process.env.BENCH_ONLY !== 'pglite') await run('pg');
