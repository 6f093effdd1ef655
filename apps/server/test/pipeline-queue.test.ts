import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { jobs } from '../src/db/schema/index.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { backoffMs, createQueue } from '../src/pipeline/queue.ts';
import { openTestDatabase, testDatabaseKinds } from './helpers.ts';

const START = new Date('2026-03-02T15:00:00Z');

for (const kind of testDatabaseKinds()) {
  describe(`Job queue (${kind})`, () => {
    let database: Database;
    const clock = movableClock(START);

    beforeAll(async () => {
      database = await openTestDatabase(kind);
    });
    afterAll(async () => database?.close());
    beforeEach(async () => {
      await database.db.delete(jobs);
      clock.set(START);
    });

    const jobOf = async (id: number | null) => {
      const [row] = await database.db
        .select()
        .from(jobs)
        .where(eq(jobs.id, id ?? 0));
      if (!row) throw new Error(`no job ${id}`);
      return row;
    };

    it('runs a due job once and marks it done; a job due later waits for the clock', async () => {
      const queue = createQueue(database.db, clock);
      const seen: unknown[] = [];
      queue.register('q.echo', async (payload) => {
        seen.push(payload.n);
      });
      const now = await queue.enqueue('q.echo', { n: 1 });
      const later = await queue.enqueue('q.echo', { n: 2 }, { runAt: new Date(START.getTime() + 60_000) });
      expect(await queue.runDue()).toBe(1);
      expect(seen).toEqual([1]);
      expect((await jobOf(now)).status).toBe('done');
      expect((await jobOf(later)).status).toBe('pending');
      clock.advance(60_000);
      expect(await queue.runDue()).toBe(1);
      expect(seen).toEqual([1, 2]);
    });

    it('retries a failing job with exponential back-off, then fails it with the error', async () => {
      const queue = createQueue(database.db, clock);
      let calls = 0;
      queue.register('q.flaky', async () => {
        calls++;
        throw new Error(`boom ${calls}`);
      });
      const id = await queue.enqueue('q.flaky', {}, { maxAttempts: 3 });
      await queue.runDue();
      let job = await jobOf(id);
      expect(job).toMatchObject({ status: 'pending', attempts: 1, lastError: 'boom 1' });
      expect(job.runAt.getTime()).toBe(START.getTime() + backoffMs(1));
      // Not yet due: a moment before the back-off ends nothing runs.
      clock.advance(backoffMs(1) - 1);
      expect(await queue.runDue()).toBe(0);
      clock.advance(1);
      await queue.runDue();
      job = await jobOf(id);
      expect(job).toMatchObject({ status: 'pending', attempts: 2, lastError: 'boom 2' });
      expect(backoffMs(2)).toBe(2 * backoffMs(1));
      clock.advance(backoffMs(2));
      await queue.runDue();
      job = await jobOf(id);
      expect(job).toMatchObject({ status: 'failed', attempts: 3, lastError: 'boom 3' });
      expect(job.finishedAt?.getTime()).toBe(clock.now().getTime());
      clock.advance(backoffMs(10));
      expect(await queue.runDue()).toBe(0);
      expect(calls).toBe(3);
    });

    it('keeps one pending job per singleton key', async () => {
      const queue = createQueue(database.db, clock);
      const first = await queue.enqueue('q.single', {}, { singletonKey: 'feed:1' });
      const second = await queue.enqueue('q.single', {}, { singletonKey: 'feed:1' });
      expect(first).not.toBeNull();
      expect(second).toBeNull();
      queue.register('q.single', async () => undefined);
      await queue.runDue();
      // Done, the key is free again.
      expect(await queue.enqueue('q.single', {}, { singletonKey: 'feed:1' })).not.toBeNull();
    });

    it('two workers racing never take the same job', async () => {
      const taken: number[] = [];
      const workers = ['a', 'b'].map((workerId) => {
        const queue = createQueue(database.db, clock, { workerId, batchSize: 7 });
        queue.register('q.race', async (_payload, job) => {
          taken.push(job.id);
        });
        return queue;
      });
      const ids: (number | null)[] = [];
      for (let i = 0; i < 60; i++) ids.push((await workers[0]?.enqueue('q.race', { i })) ?? null);
      await Promise.all(workers.map((w) => w.runDue()));
      expect(taken.toSorted((x, y) => x - y)).toEqual(ids.toSorted((x, y) => (x ?? 0) - (y ?? 0)));
      expect(new Set(taken).size).toBe(60);
    });

    it('takes back a job whose worker died once its lease expires', async () => {
      const dead = createQueue(database.db, clock, { workerId: 'dead', leaseMs: 60_000 });
      dead.register('q.lease', async () => {
        throw new Error('never finishes');
      });
      const id = await dead.enqueue('q.lease', {});
      // The dead worker claimed it and vanished: simulate with a lease in place.
      await database.db
        .update(jobs)
        .set({ status: 'running', attempts: 1, lockedBy: 'dead', lockedUntil: new Date(START.getTime() + 60_000) })
        .where(eq(jobs.id, id ?? 0));
      const alive = createQueue(database.db, clock, { workerId: 'alive' });
      let ran = 0;
      alive.register('q.lease', async () => {
        ran++;
      });
      expect(await alive.runDue()).toBe(0);
      clock.advance(60_001);
      expect(await alive.runDue()).toBe(1);
      expect(ran).toBe(1);
      expect(await jobOf(id)).toMatchObject({ status: 'done', attempts: 2 });
    });

    it('runs a claimed batch through the batch handler at once and marks every job done', async () => {
      const queue = createQueue(database.db, clock);
      const batches: unknown[][] = [];
      const single: unknown[] = [];
      queue.register(
        'q.many',
        async (payload) => {
          single.push(payload.n);
        },
        { batchSize: 3, batch: async (payloads) => void batches.push(payloads.map((p) => p.n)) },
      );
      const ids = [];
      for (const n of [1, 2, 3, 4]) ids.push(await queue.enqueue('q.many', { n }));
      expect(await queue.runDue()).toBe(4);
      // Three claimed together go as one batch; the fourth, alone, through the job handler.
      expect(batches).toEqual([[1, 2, 3]]);
      expect(single).toEqual([4]);
      for (const id of ids) expect((await jobOf(id)).status).toBe('done');
    });

    it('when a batch fails, runs its jobs one by one so only the bad one is retried', async () => {
      const errors: string[] = [];
      const queue = createQueue(database.db, clock, { onError: (_err, what) => errors.push(what) });
      const single: unknown[] = [];
      queue.register(
        'q.poisoned',
        async (payload) => {
          if (payload.n === 2) throw new Error('bad payload');
          single.push(payload.n);
        },
        {
          batchSize: 10,
          batch: async (payloads) => {
            if (payloads.some((p) => p.n === 2)) throw new Error('bad payload in batch');
          },
        },
      );
      const ids = [];
      for (const n of [1, 2, 3]) ids.push(await queue.enqueue('q.poisoned', { n }));
      await queue.runDue();
      expect(single).toEqual([1, 3]);
      expect((await jobOf(ids[0] ?? null)).status).toBe('done');
      expect((await jobOf(ids[2] ?? null)).status).toBe('done');
      const bad = await jobOf(ids[1] ?? null);
      expect(bad.status).toBe('pending');
      expect(bad.lastError).toBe('bad payload');
      expect(errors[0]).toMatch(/^batch q\.poisoned of 3/);
    });
  });
}
