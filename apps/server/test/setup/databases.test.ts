import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase, rowsOf } from '../../src/db/client.ts';
import { referralSources } from '../../src/db/schema/index.ts';
import { seedDemoData } from '../../src/seed/demo.ts';
import { openTestDatabase, startTestApp, testDatabaseKinds } from '../helpers.ts';
import { demoSeedConfig } from './demo-seed.ts';

/** Every table, column, index and constraint of the public and drizzle schemas, as text. */
async function catalog(database: Database): Promise<string[]> {
  const result = await database.db.execute(sql`
    select 'column ' || table_schema || '.' || table_name || '.' || column_name || ' ' || data_type || ' ' ||
           is_nullable || ' ' || coalesce(column_default, '') as line
      from information_schema.columns where table_schema in ('public', 'drizzle')
    union all
    select 'index ' || schemaname || '.' || indexname || ' ' || indexdef from pg_indexes
     where schemaname in ('public', 'drizzle')
    union all
    select 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      from pg_constraint where connamespace in ('public'::regnamespace, 'drizzle'::regnamespace)
    order by 1`);
  return rowsOf(result).map((r) => String(r.line));
}

async function migrations(database: Database): Promise<unknown[]> {
  return rowsOf(await database.db.execute(sql`select hash, created_at from drizzle.__drizzle_migrations order by id`));
}

/** Rows in every table of the public schema (a template must hold none: files never share rows). */
async function rowCounts(database: Database): Promise<Record<string, number>> {
  const tables = rowsOf(await database.db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`)).map(
    (r) => String(r.tablename),
  );
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = rowsOf(await database.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`));
    counts[table] = Number(row?.n);
  }
  return counts;
}

describe('test databases from the run template (setup/databases.ts)', () => {
  it('the run made a template for each database kind it tests', () => {
    expect(inject('pgliteTemplate')).toMatch(/admin-test-pglite-[0-9a-f]{16}$/);
    if (process.env.TEST_DATABASE_URL) expect(inject('pgTemplate')).toMatch(/^t_template_[0-9a-f]{12}$/);
  });

  it("each engine's demo copy holds the rows of one demo seeded here at the same anchor, and the anchor is recent", async () => {
    // One demo seeded here, on the last engine the run tests (PostgreSQL when there is one, where a
    // seed costs least), and each engine's copy compared with it: the two templates are seeded apart.
    const kinds = testDatabaseKinds();
    const seeded = await openTestDatabase(kinds.at(-1) ?? 'pglite');
    try {
      const anchor = new Date(inject('demoAnchor'));
      await seedDemoData(seeded.db, demoSeedConfig(), anchor);
      const here = await rowCounts(seeded);
      expect(Date.now() - anchor.getTime()).toBeLessThan(6 * 3_600_000);
      for (const kind of kinds) {
        const ctx = await startTestApp(kind);
        const copied = await rowCounts(ctx.database);
        await ctx.close();
        expect(copied.clients, kind).toBeGreaterThan(0);
        expect(copied.ses_events, kind).toBeGreaterThan(0);
        // Known, not yet explained: a demo seeded minutes after its anchor has one SES event (with its
        // timeline line and rollup delta) more than one seeded at once, so the demo is not wholly a
        // function of its anchor. Those three tables may differ by that much; every other is exact.
        const drifting = ['ses_events', 'notification_events', 'report_day_counts'];
        for (const table of drifting)
          expect(Math.abs((copied[table] ?? 0) - (here[table] ?? 0)), `${kind}: ${table}`).toBeLessThanOrEqual(1);
        const exact = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([t]) => !drifting.includes(t)));
        expect(exact(copied), kind).toEqual(exact(here));
      }
    } finally {
      await seeded.close();
    }
    // A whole demo seeded here, its year of history included (seed/history.ts): minutes on a busy machine.
  }, 300_000);

  for (const kind of testDatabaseKinds()) {
    describe(kind, () => {
      const opened: Database[] = [];
      afterAll(async () => {
        for (const database of opened) await database.close();
      });

      it('matches a database migrated from empty: same catalog, same migration rows, no rows', async () => {
        const fromTemplate = await openTestDatabase(kind);
        opened.push(fromTemplate);
        const fresh = kind === 'pglite' ? await openDatabase({ kind: 'pglite', dataDir: null }) : await freshPg();
        opened.push(fresh);
        await fresh.migrate();
        expect(await catalog(fromTemplate)).toEqual(await catalog(fresh));
        const applied = await migrations(fromTemplate);
        expect(applied.length).toBeGreaterThan(30);
        expect(applied).toEqual(await migrations(fresh));
        const counts = await rowCounts(fromTemplate);
        expect(Object.keys(counts).length).toBeGreaterThan(30);
        expect(Object.values(counts).every((n) => n === 0)).toBe(true);
        // Every migration replayed from empty: a minute on PGlite when the machine is busy.
      }, 300_000);

      it('a write in one database is not seen by the next one opened', async () => {
        const first = await openTestDatabase(kind);
        opened.push(first);
        await first.db.insert(referralSources).values({ clientId: null, name: 'Template leak', code: 'LEAK', type: 'online' });
        const second = await openTestDatabase(kind);
        opened.push(second);
        const [row] = rowsOf(await second.db.execute(sql`select count(*)::int as n from referral_sources`));
        expect(Number(row?.n)).toBe(0);
      });
    });
  }
});

/** A PostgreSQL database migrated from empty, the way openTestDatabase made every one before the template. */
async function freshPg(): Promise<Database> {
  const { default: pg } = await import('pg');
  const { randomBytes } = await import('node:crypto');
  const adminUrl = process.env.TEST_DATABASE_URL ?? '';
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
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
