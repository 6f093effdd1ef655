/**
 * bench/merge: Merge Personnel Data's suggestions and the Personnel "possible duplicates" filter
 * for one client with many personnel, on PGlite (and on PostgreSQL with BENCH_DATABASE_URL).
 *
 *   npm run bench:merge                       # 100,000 personnel on PGlite
 *   BENCH_PEOPLE=300000 BENCH_DATABASE_URL=postgres://… npm run bench:merge
 *
 * Adds BENCH_PEOPLE people to the first demo client, one in a hundred a feed duplicate of the
 * person before (same name), then measures through the real routes (app.inject, no network):
 * the suggestions, the filtered Personnel page, the first Personnel page and a merge preview.
 * Results: bench/results/merge-<db>.json; table: bench/README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { seedDemoData } from '../../apps/server/src/seed/demo.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 100_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const PASSWORD = 'demo-password';

async function run(kind: 'pglite' | 'pg') {
  const database = await openDatabase(kind === 'pglite' ? { kind, dataDir: null } : { kind, url: process.env.BENCH_DATABASE_URL ?? '' });
  await database.migrate();
  await database.db.execute(sql`drop table if exists bench_marker`);
  const config = testConfig({ demoPassword: PASSWORD });
  await seedDemoData(database.db, config);
  const t0 = performance.now();
  // Letters-only names from md5 (digits mapped to letters), so normalised names differ; every
  // hundredth person repeats the name of the one before: a feed duplicate.
  await database.db.execute(sql`
    insert into personnel (client_id, first_name, last_name, employee_code, email, phone)
    select 1,
      substr(translate(md5((i - (i % 100 = 0)::int)::text), '0123456789', 'ghijklmnop'), 1, 8),
      substr(translate(md5((i - (i % 100 = 0)::int)::text), '0123456789', 'ghijklmnop'), 9, 8),
      'B' || i, 'p' || i || '@bench.example.com', '+1' || (2000000000 + i)::text
    from generate_series(1, ${PEOPLE}) as i`);
  await database.db.execute(sql`analyze personnel`);
  console.log(`  ${kind}: added ${PEOPLE.toLocaleString()} personnel in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const app = await buildApp(config, { database });
  await app.ready();
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: 'admin@example.com', password: PASSWORD } });
  const headers = { authorization: `Bearer ${login.json().data.token}` };
  await app.inject({ method: 'PUT', url: '/api/users/switch-client/1', headers });

  async function time(method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
    const ms: number[] = [];
    let body: unknown;
    for (let i = 0; i < REPEAT; i++) {
      const t = performance.now();
      const res = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      ms.push(performance.now() - t);
      if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      body = res.json();
    }
    ms.sort((a, b) => a - b);
    return { p50: Math.round(ms[Math.floor(ms.length / 2)] ?? 0), max: Math.round(ms[ms.length - 1] ?? 0), body };
  }

  const suggestions = await time('GET', '/api/get-merge-personnel?perPage=50');
  const groups = suggestions.body as { total: number; data: { personnel_ids: number[] }[] };
  const duplicatesFilter = await time('GET', '/api/personnel?duplicates=yes&perPage=50');
  const firstPage = await time('GET', '/api/personnel?perPage=50');
  const [a, b] = groups.data[0]?.personnel_ids ?? [];
  const preview = await time('POST', '/api/get-merge-personnel/preview', { survivor_id: a ?? 0, duplicate_ids: [b ?? 0] });
  const result = {
    database: kind,
    people: PEOPLE,
    groups: groups.total,
    ms: {
      suggestions: { p50: suggestions.p50, max: suggestions.max },
      duplicatesFilter: { p50: duplicatesFilter.p50, max: duplicatesFilter.max },
      firstPage: { p50: firstPage.p50, max: firstPage.max },
      preview: { p50: preview.p50, max: preview.max },
    },
  };
  console.log(JSON.stringify(result));
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, `bench/results/merge-${kind}.json`), `${JSON.stringify(result, null, 2)}\n`);
  await app.close();
  await database.close();
}

await run('pglite');
if (process.env.BENCH_DATABASE_URL) await run('pg');
