import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../src/db/client.ts';
import { dataFeedRuns, surveyProcessingItems } from '../src/db/schema/index.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { processRun } from '../src/pipeline/ingest/process.ts';
import { startRun } from '../src/pipeline/ingest/run.ts';
import { markReceived, newLease, openRun, RUN_LEASE_MS, stageBatch } from '../src/pipeline/ingest/run-store.ts';
import { feedRunLoop } from '../src/pipeline/ingest/runs-loop.ts';
import { insertTestFeed } from './feed-fixture.ts';
import { openDemoDatabase, testDatabaseKinds } from './helpers.ts';

const records = (tag: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    rowNumber: i + 1,
    raw: {
      first_name: `Row${i + 1}`,
      email: `${tag}.${i + 1}@example.com`,
      transaction_id: `${tag}-${i + 1}`,
      transaction_date: '2026-11-20',
    },
  }));

/** `db` whose first raw query (the loop's look for runs cut off while arriving) runs `after` once it answered. */
function afterFirstExecute(db: Db, after: () => Promise<void>): Db {
  let fired = false;
  return new Proxy(db, {
    get(target, prop) {
      if (prop !== 'execute') return Reflect.get(target, prop, target);
      return async (query: Parameters<Db['execute']>[0]) => {
        const answer = await target.execute(query);
        if (!fired) {
          fired = true;
          await after();
        }
        return answer;
      };
    },
  });
}

for (const kind of testDatabaseKinds()) {
  describe(`Feed run leases (${kind})`, () => {
    let database: Database;
    beforeAll(async () => {
      database = await openDemoDatabase(kind);
    });
    afterAll(() => database?.close());

    it('a slow receiver that finishes just after the loop found its lease lapsed keeps its run', async () => {
      const clock = movableClock(new Date('2026-11-20T15:00:00Z'));
      const deps = { db: database.db, clock };
      const feed = await insertTestFeed(database.db, 'Slow receiver');
      const lease = newLease();
      const runId = await openRun(deps, feed, { source: 'csv_upload', sourceName: 'slow.csv', startedBy: null }, lease);
      await stageBatch(deps, runId, 0, records('SLOW', 3), lease);
      // The receiver is slow, not stopped: its lease lapses, then it stores the last piece.
      clock.advance(RUN_LEASE_MS + 1000);
      const receivedMeanwhile = () => markReceived(deps, runId, lease, { feedId: feed.id, release: true }).then(() => undefined);
      const loop = feedRunLoop({ db: afterFirstExecute(database.db, receivedMeanwhile), clock });
      for (let turn = 0; turn < 3; turn++) await loop.run(clock.now());
      const [run] = await database.db.select().from(dataFeedRuns).where(eq(dataFeedRuns.id, runId));
      expect(run).toMatchObject({ status: 'succeeded', error: null, rowsRead: 3, rowsDone: 3 });
      const items = await database.db.select().from(surveyProcessingItems).where(eq(surveyProcessingItems.runId, runId));
      expect(items).toHaveLength(3);
    });

    it('a run resumed by another worker after its first worker stopped counts every row once', async () => {
      const clock = movableClock(new Date('2026-11-21T15:00:00Z'));
      const deps = { db: database.db, clock };
      const feed = await insertTestFeed(database.db, 'Resumed counts');
      const lease = newLease();
      const runId = await openRun(deps, feed, { source: 'csv_upload', sourceName: 'resume.csv', startedBy: null }, lease);
      // Three batches, each with a good row, a repeated transaction and a row without a contact.
      for (let seq = 0; seq < 3; seq++) {
        const base = seq * 3;
        await stageBatch(
          deps,
          runId,
          seq,
          [
            {
              rowNumber: base + 1,
              raw: { first_name: 'Good', email: `resume.${seq}@example.com`, transaction_id: `RES-${seq}`, transaction_date: '2026-11-20' },
            },
            {
              rowNumber: base + 2,
              raw: { first_name: 'Again', email: `again.${seq}@example.com`, transaction_id: `RES-${seq}`, transaction_date: '2026-11-20' },
            },
            { rowNumber: base + 3, raw: { first_name: 'Nobody', transaction_id: `NONE-${seq}`, transaction_date: '2026-11-20' } },
          ],
          lease,
        );
      }
      await markReceived(deps, runId, lease, { feedId: feed.id, release: false });
      // The first worker admits one batch, then stops; the loop takes the run over once its lease lapsed.
      expect(await processRun(deps, runId, lease, { maxBatches: 1 })).toBe(false);
      clock.advance(RUN_LEASE_MS + 1000);
      await feedRunLoop(deps).run(clock.now());
      const [run] = await database.db.select().from(dataFeedRuns).where(eq(dataFeedRuns.id, runId));
      const items = await database.db.select().from(surveyProcessingItems).where(eq(surveyProcessingItems.runId, runId));
      expect(items.map((i) => i.rowNumber ?? 0).sort((a, b) => a - b)).toEqual([1, 2, 4, 5, 7, 8]);
      const skipped = Object.values(run?.rowsSkipped ?? {}).reduce((a, b) => a + b, 0);
      expect(run).toMatchObject({ status: 'partial', rowsRead: 9, rowsDone: 9, rowsInvalid: 3, rowsSkipped: { skipped_duplicate: 3 } });
      expect((run?.rowsAccepted ?? 0) + skipped + (run?.rowsInvalid ?? 0)).toBe(9);
      expect(run?.scheduled).toBe(items.filter((i) => i.status === 'scheduled').length);
    });

    it('a run cut off while arriving tells how to send its rows again for its source', async () => {
      const clock = movableClock(new Date('2026-11-22T15:00:00Z'));
      const deps = { db: database.db, clock };
      const feed = await insertTestFeed(database.db, 'Cut off sources');
      const expected = {
        csv_upload: /Upload it again\.$/,
        sftp: /taken again at the next pull\.$/,
        api: /Send the call again\.$/,
        rerun: /Re-run the failed rows of run 1 again\.$/,
      } as const;
      const runs = new Map<keyof typeof expected, number>();
      for (const source of Object.keys(expected) as (keyof typeof expected)[]) {
        const lease = newLease();
        const start = { source, sourceName: `cut ${source}`, startedBy: null, ...(source === 'rerun' ? { rerunOf: 1 } : {}) };
        const runId = await openRun(deps, feed, start, lease);
        await stageBatch(deps, runId, 0, records(`CUT-${source}`, 2), lease);
        runs.set(source, runId);
      }
      clock.advance(RUN_LEASE_MS + 1000);
      await feedRunLoop(deps).run(clock.now());
      for (const [source, runId] of runs) {
        const [run] = await database.db.select().from(dataFeedRuns).where(eq(dataFeedRuns.id, runId));
        expect(run?.status).toBe('failed');
        expect(run?.error, source).toMatch(expected[source]);
      }
    });

    it('two workers taking a run from each other between any two batches admit each row once', async () => {
      // Every reading of this clock is a lease later: whatever one worker holds, the other may take.
      let at = new Date('2026-11-23T15:00:00Z').getTime();
      const clock = {
        now: () => {
          at += RUN_LEASE_MS + 1;
          return new Date(at);
        },
      };
      const deps = { db: database.db, clock, batchSize: 7 };
      const feed = await insertTestFeed(database.db, 'Contested run');
      const runId = await startRun(
        deps,
        feed,
        { source: 'csv_upload', sourceName: 'contested.csv', startedBy: null },
        records('RACE', 140),
      );
      const [a, b] = [feedRunLoop(deps), feedRunLoop(deps)];
      for (let turn = 0; turn < 40; turn++) await Promise.all([a.run(clock.now()), b.run(clock.now())]);
      const [run] = await database.db.select().from(dataFeedRuns).where(eq(dataFeedRuns.id, runId));
      const items = await database.db.select().from(surveyProcessingItems).where(eq(surveyProcessingItems.runId, runId));
      expect(items.map((i) => i.rowNumber ?? 0).sort((x, y) => x - y)).toEqual(Array.from({ length: 140 }, (_, i) => i + 1));
      expect(run).toMatchObject({ status: 'succeeded', rowsRead: 140, rowsDone: 140, rowsAccepted: 140 });
    });
  });
}
