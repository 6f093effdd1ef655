import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, rowsOf } from '../src/db/client.ts';
import { surveyProcessingItems } from '../src/db/schema/index.ts';
import { admitRows } from '../src/pipeline/admit.ts';
import { capCountStatement } from '../src/pipeline/admit-lookups.ts';
import type { AdmitContext } from '../src/pipeline/types.ts';
import { testDatabaseKinds } from './helpers.ts';
import { type AdmitWorld, admitContext, DAY, NOW, openAdmitWorld, rowMaker } from './pipeline-admit-bed.ts';

/** admitRows on several rows: the order of the rules, a batch's own repeats, the daily cap and dates ahead. */
for (const kind of testDatabaseKinds()) {
  describe(`admitRows: batches and schedules (${kind})`, () => {
    let world: AdmitWorld;
    let database: Database;

    beforeAll(async () => {
      world = await openAdmitWorld(kind);
      ({ database } = world);
    });
    afterAll(async () => database?.close());

    const row = rowMaker();
    const ctxOf = (overrides: Partial<AdmitContext> = {}) => admitContext(world, overrides);

    it('the first rule that matches wins: a paused location with a duplicate transaction is skipped_paused', async () => {
      const [outcome] = await admitRows(
        database.db,
        ctxOf(),
        [row({ locationId: 'L-PAUSED', transactionId: 'T-OLD', email: 'out@x.test' })],
        NOW,
      );
      expect(outcome?.status).toBe('skipped_paused');
    });

    it('within one batch: a repeated transaction is a duplicate and a repeated contact over-surveyed', async () => {
      const first = row({ transactionId: 'T-BATCH', email: 'batch@x.test' });
      const again = row({ transactionId: 'T-BATCH', email: 'batch2@x.test' });
      const sameContact = row({ email: 'batch@x.test' });
      const outcomes = await admitRows(database.db, ctxOf(), [first, again, sameContact], NOW);
      expect(outcomes.map((o) => o.status)).toEqual(['scheduled', 'skipped_duplicate', 'skipped_over_survey']);
      expect(outcomes.map((o) => o.rowNumber)).toEqual([first.rowNumber, again.rowNumber, sameContact.rowNumber]);
    });

    it('schedules at once in the send window, then past the daily cap on the next send day', async () => {
      const outcomes = await admitRows(
        database.db,
        ctxOf(),
        [row({ locationId: 'L-CAP' }), row({ locationId: 'L-CAP' }), row({ locationId: 'L-CAP' })],
        NOW,
      );
      expect(outcomes.map((o) => o.scheduledAt?.toISOString())).toEqual([
        NOW.toISOString(),
        NOW.toISOString(),
        // Cap 2 reached on Monday: Tuesday at the end of the quiet hours, 08:00 CST.
        '2026-03-03T14:00:00.000Z',
      ]);
      // The next batch counts what the database already holds for that day.
      const [later] = await admitRows(database.db, ctxOf(), [row({ locationId: 'L-CAP' })], NOW);
      expect(later?.scheduledAt?.toISOString()).toBe('2026-03-03T14:00:00.000Z');
      const [item] = await database.db
        .select({ expiresAt: surveyProcessingItems.expiresAt })
        .from(surveyProcessingItems)
        .where(eq(surveyProcessingItems.id, later?.itemId ?? 0));
      expect(item?.expiresAt.toISOString()).toBe(new Date(Date.parse('2026-03-03T14:00:00Z') + 30 * DAY).toISOString());
    });

    it("the daily cap counts the batch's locations per local day through their index, not every live invitation", async () => {
      const since = new Date(NOW.getTime() - DAY);
      const counts = rowsOf(await database.db.execute(capCountStatement(['L-CAP'], since, 'America/Chicago')));
      expect(counts.map((r) => [r.id, r.day, r.n]).sort()).toEqual([
        ['L-CAP', '2026-03-02', 2],
        ['L-CAP', '2026-03-03', 2],
      ]);
      const plan = await database.db.transaction(async (tx) => {
        // Tiny tables are cheaper to scan, so the planner is told not to: what is left is whether the index can serve it.
        await tx.execute(sql`set local enable_seqscan = off`);
        return rowsOf(await tx.execute(sql`explain ${capCountStatement(['L-CAP'], since, 'America/Chicago')}`))
          .map((r) => String(r['QUERY PLAN']))
          .join('\n');
      });
      expect(plan).toContain('survey_processing_items_location_live_idx');
    });

    it('a transaction dated ahead waits for its day', async () => {
      const [outcome] = await admitRows(database.db, ctxOf(), [row({ transactionDate: '2026-03-04', locationId: 'L-AHEAD' })], NOW);
      // Wednesday 00:00 CST is quiet: 08:00.
      expect(outcome?.scheduledAt?.toISOString()).toBe('2026-03-04T14:00:00.000Z');
    });
  });
}
