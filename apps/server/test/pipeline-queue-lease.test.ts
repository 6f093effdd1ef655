import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { jobs } from '../src/db/schema/index.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { createQueue } from '../src/pipeline/queue.ts';
import { openTestDatabase, testDatabaseKinds } from './helpers.ts';
import { gate, LEASE_MS, MINUTE } from './pipeline-send-claims-bed.ts';

const START = new Date('2026-03-02T15:00:00Z');

/** A job that runs longer than its lease (docs/decisions/075-send-claims.md): renewed while it runs, never taken twice. */
for (const kind of testDatabaseKinds()) {
  describe(`Job queue leases (${kind})`, () => {
    let database: Database;
    const clock = movableClock(START);

    beforeAll(async () => {
      database = await openTestDatabase(kind);
    });
    afterAll(async () => database?.close());

    const jobOf = async (id: number | null) => {
      const [row] = await database.db
        .select()
        .from(jobs)
        .where(eq(jobs.id, id ?? 0));
      if (!row) throw new Error(`no job ${id}`);
      return row;
    };

    it('renews a long job lease while its handler runs, so another worker does not take it', async () => {
      const held = gate();
      const slow = createQueue(database.db, clock, { workerId: 'slow', renewEveryMs: 20 });
      const runs: string[] = [];
      slow.register('q.long', async () => {
        held.enter();
        await held.opened;
        runs.push('slow');
      });
      const other = createQueue(database.db, clock, { workerId: 'other' });
      other.register('q.long', async () => {
        runs.push('other');
      });
      const id = await slow.enqueue('q.long', {});
      const running = slow.runDue();
      await held.reached;
      expect((await jobOf(id)).lockedUntil?.getTime()).toBe(START.getTime() + LEASE_MS);
      for (const minutes of [4, 4]) {
        clock.advance(minutes * MINUTE);
        await vi.waitFor(async () => expect((await jobOf(id)).lockedUntil?.getTime()).toBe(clock.now().getTime() + LEASE_MS), {
          timeout: 5000,
          interval: 20,
        });
      }
      // Eight minutes in, past the first lease: the other worker finds nothing to take.
      expect(await other.runDue()).toBe(0);
      held.open();
      expect(await running).toBe(1);
      expect(await jobOf(id)).toMatchObject({ status: 'done', attempts: 1, lockedBy: null, lockedUntil: null });
      expect(runs).toEqual(['slow']);
    });
  });
}
