import { randomBytes } from 'node:crypto';
import { MAX_REVIEW_IMPORT_LINES } from '@admin/shared';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../src/db/client.ts';
import { type DemoStore, demoStore } from './crash/demo-store.ts';
import { apiClient, type ServerProcess, signIn, startServer, waitFor } from './crash/server-process.ts';
import { DEMO_PASSWORD, testDatabaseKinds } from './helpers.ts';

/**
 * kill -9 in the middle of a review import (issue 21, finishing list item 10; docs/decisions/057):
 * the real server in its own process takes the largest CSV the Reputation Panel imports, is killed
 * while writing it, and after a restart holds none of it (the import is one transaction with its
 * jobs and audit entry: all or nothing); the same file then imports whole. On PostgreSQL the kill
 * waits until the import's transaction is seen open (pg_stat_activity); PGlite runs inside the
 * server process, so there it comes half-way through the time a dry run of the same file took,
 * and sooner on each retry if the import beat it.
 */

type Envelope<T> = { data: T };
type Counts = { created: number; updated: number; unchanged: number; refused: number };
type ImportAnswer = { dryRun: boolean; counts: Counts };

const LINES = MAX_REVIEW_IMPORT_LINES;

for (const kind of testDatabaseKinds()) {
  describe(`A review import cut off by kill -9 (${kind})`, { timeout: 400_000 }, () => {
    let server: ServerProcess;
    let token = '';
    let env: Record<string, string>;
    let dataDir: string | null = null;
    let store: DemoStore | undefined;
    let databaseUrl: string | null = null;
    const call = apiClient(
      () => server,
      () => token,
    );
    let locationId = '';
    /** The file of every attempt: the largest the panel takes, every line new under its own tag. */
    const csvOf = (tag: string) => {
      const created = new Date(Date.now() - 86_400_000).toISOString();
      return [
        'review_id,site,location,reviewer,rating,comment,created',
        ...Array.from(
          { length: LINES },
          (_, i) => `${tag}-${i},google,${locationId},Reviewer ${i},${(i % 5) + 1},"Visit number ${i}, all fine",${created}`,
        ),
      ].join('\n');
    };
    /** The tag of the import the kill cut off, and how many imports finished before their kill came. */
    let tag = '';
    let finishedFirst = 0;

    const start = async () => {
      server = await startServer(env);
      token = await signIn(server, 'admin@example.com', DEMO_PASSWORD);
    };
    const importCsv = (csv: string, dryRun: boolean) =>
      call<Envelope<ImportAnswer>>('POST', '/api/reviews/import', { csv, dry_run: dryRun });
    /** The import's transaction seen open on PostgreSQL: a backend of the test database inside a transaction writing reviews. */
    const importOpen = async (): Promise<boolean> => {
      const admin = new pg.Client({ connectionString: databaseUrl ?? '' });
      await admin.connect();
      try {
        const result = await admin.query(
          `select count(*)::int as n from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null
              and query ilike '%insert into reviews%'`,
        );
        return Number(result.rows[0]?.n ?? 0) > 0;
      } finally {
        await admin.end();
      }
    };

    beforeAll(async () => {
      store = await demoStore(kind);
      ({ dataDir, databaseUrl } = store);
      env = { ...store.env, WORKERS: 'off' };
      await start();
      const locations = await call<Envelope<{ _id: string }[]>>('GET', '/api/endpoints?perPage=1');
      locationId = locations.json.data[0]?._id ?? '';
      expect(locationId).not.toBe('');
    });

    afterAll(async () => {
      await server?.stop();
      await store?.remove();
    });

    it('holds none of an import killed while it was written, then imports the same file whole', async () => {
      // The dry run: what Import would do (all new), and how long the same transaction takes.
      const first = `crash${randomBytes(3).toString('hex')}`;
      const began = Date.now();
      const dry = await importCsv(csvOf(first), true);
      const took = Date.now() - began;
      expect(dry.status, JSON.stringify(dry.json).slice(0, 500)).toBe(200);
      expect(dry.json.data.counts).toEqual({ created: LINES, updated: 0, unchanged: 0, refused: 0 });

      // On PGlite nothing outside the process sees the transaction, and a dry run's time only
      // roughly foretells the import's (a cold first call once took twice as long as the import).
      // An import that finishes before its kill stays whole under its own tag, and the next
      // attempt, with a new tag, kills four times sooner.
      for (let attempt = 0, wait = took / 2; ; attempt += 1, wait /= 4) {
        tag = attempt === 0 ? first : `crash${randomBytes(3).toString('hex')}`;
        const importing = importCsv(csvOf(tag), false).then(
          (res) => ({ answered: true as const, status: res.status }),
          () => ({ answered: false as const, status: 0 }),
        );
        if (kind === 'pg') await waitFor(importOpen, (open) => open, 60_000, "the import's transaction");
        else await new Promise((r) => setTimeout(r, wait));
        await server.kill();
        const cut = await importing;
        if (!cut.answered) break;
        expect(cut.status).toBe(200);
        finishedFirst += 1;
        expect(attempt, 'an import must still be running when the server is killed').toBeLessThan(3);
        await start();
      }

      await start();
      // Nothing half-written: a dry run finds every line new again (a stored one would be unchanged).
      const csv = csvOf(tag);
      const after = await importCsv(csv, true);
      expect(after.status).toBe(200);
      expect(after.json.data.counts).toEqual({ created: LINES, updated: 0, unchanged: 0, refused: 0 });

      const real = await importCsv(csv, false);
      expect(real.status, JSON.stringify(real.json).slice(0, 500)).toBe(200);
      expect(real.json.data.counts).toEqual({ created: LINES, updated: 0, unchanged: 0, refused: 0 });
      const again = await importCsv(csv, true);
      expect(again.json.data.counts).toEqual({ created: 0, updated: 0, unchanged: LINES, refused: 0 });
    });

    it('holds each review of the file once, with one set of jobs and one audit entry', async () => {
      await server.stop();
      const database = await openDatabase(kind === 'pglite' ? { kind: 'pglite', dataDir } : { kind: 'pg', url: databaseUrl ?? '' });
      try {
        const [counted] = rowsOf(
          await database.db.execute(sql`
            select count(*)::int as reviews, count(distinct external_id)::int as ids,
              (select count(*)::int from jobs j where j.payload->>'reviewId' in
                (select id::text from reviews where external_id like ${`${tag}-%`})) as jobs,
              (select count(*)::int from system_logs where action = 'reviews.import') as audits
            from reviews where external_id like ${`${tag}-%`}`),
        );
        // One audit entry per import that finished: the one above, and any that beat their kill.
        expect(counted).toEqual({ reviews: LINES, ids: LINES, jobs: LINES * 2, audits: 1 + finishedFirst });
      } finally {
        await database.close();
      }
      await start();
    });
  });
}
