/**
 * What one test database costs to open, the old way (migrate from empty) against the template
 * (setup/databases.ts), alternated so both see the same machine load. Numbers for bench/README.md
 * ("Test suite time"); not a test. Run: `npx tsx apps/server/test/setup/open-cost.ts [rounds]`
 * (PostgreSQL too when TEST_DATABASE_URL is set).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { dataDirCopy } from './data-dir.ts';
import setup from './databases.ts';

const rounds = Number(process.argv[2] ?? 3);
const adminUrl = process.env.TEST_DATABASE_URL;
const provided: Record<string, string | null> = {};
const teardown = await setup({ provide: (key: string, value: string | null) => (provided[key] = value) } as never);

/** A copy of a PGlite template directory, removed on close (as helpers.ts opens them). */
async function pgliteCopy(template: string | null): Promise<Database> {
  const copy = await dataDirCopy(template ?? '');
  const database = await openDatabase({ kind: 'pglite', dataDir: copy.dataDir });
  return {
    ...database,
    async close() {
      await database.close();
      await copy.remove();
    },
  };
}

async function timed(open: () => Promise<Database>): Promise<number> {
  const start = performance.now();
  const database = await open();
  await database.migrate();
  const ms = performance.now() - start;
  await database.close();
  return ms;
}

async function pgDatabase(template: string | null): Promise<Database> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl ?? '');
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'pg', url: url.toString() });
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

const samples: Record<string, number[]> = {};
const add = (key: string, ms: number) => {
  samples[key] ??= [];
  samples[key].push(ms);
};
for (let round = 0; round < rounds; round++) {
  add('pglite, migrate from empty', await timed(() => openDatabase({ kind: 'pglite', dataDir: null })));
  add('pglite, copy of the migrated directory', await timed(() => pgliteCopy(provided.pgliteTemplate ?? null)));
  add('pglite, copy of the demo directory', await timed(() => pgliteCopy(provided.pgliteDemoTemplate ?? null)));
  if (adminUrl) {
    add('pg, create + migrate', await timed(() => pgDatabase(null)));
    add('pg, create from template', await timed(() => pgDatabase(provided.pgTemplate ?? null)));
  }
}
await teardown();
for (const [key, values] of Object.entries(samples)) {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  console.log(`${key}: median ${median.toFixed(0)} ms (${sorted.map((v) => v.toFixed(0)).join(', ')})`);
}
