import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { amplifications, reviews } from '../src/db/schema/index.ts';
import { compactKpiCounts, rebuildKpiCounts } from '../src/reputation/kpi-compaction.ts';
import { testDatabaseKinds } from './helpers.ts';
import { type KpiBed, openKpiBed, SITE } from './reputation-kpis-bed.ts';

/**
 * The KPI cards' summary (docs/decisions/053): the route's counts (the summary for whole UTC days,
 * raw rows for the edges) equal the amplifications counted one by one, in Asia/Kolkata (+5:30, so
 * every range of its days has partial UTC days at both ends), after each kind of write and after
 * compaction.
 */

// Invitation times around the zone's and UTC's midnights (Kolkata midnight = 18:30 UTC the day before).
const TIMES = [
  '2025-03-01T18:29:59Z',
  '2025-03-01T18:30:00Z',
  '2025-03-01T23:59:59Z',
  '2025-03-02T00:00:00Z',
  '2025-03-02T05:00:00Z',
  '2025-03-02T18:30:00Z',
  '2025-03-03T00:00:00Z',
  '2025-03-03T12:00:00Z',
  '2025-03-04T18:29:00Z',
  '2025-03-05T00:00:00Z',
  '2025-03-06T10:00:00Z',
  '2025-03-09T18:45:00Z',
];

for (const kind of testDatabaseKinds()) {
  describe(`Reputation KPI summary (${kind})`, () => {
    let bed: KpiBed;
    beforeAll(async () => {
      bed = await openKpiBed(kind);
    });
    afterAll(() => bed.ctx.close());

    it('the triggers keep the summary in the writing transaction; a rolled-back write leaves nothing', async () => {
      const before = await bed.summary();
      await bed.invite(TIMES[0] ?? '', 0);
      expect((await bed.summary()).invited).toBe(before.invited + 1);
      await bed.ctx.database.db
        .transaction(async (tx) => {
          await tx.execute(
            sql`update amplifications set status = 'clicked', clicked_at = invited_at where client_id = ${bed.clientId} and site = ${SITE}`,
          );
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      expect((await bed.summary()).invited).toBe(before.invited + 1);
      await bed.expectSameEverywhere();
    });

    it('inserts, clicks, matches, rating changes, unmatches, moves and deletes: the same numbers before and after compaction', async () => {
      const db = bed.ctx.database.db;
      const ids: number[] = [];
      for (const [i, at] of TIMES.entries()) ids.push(await bed.invite(at, i));
      await bed.expectSameEverywhere();
      // Clicks.
      for (const id of ids.slice(0, 8)) {
        await db
          .update(amplifications)
          .set({ status: 'clicked', clickedAt: new Date('2025-03-10T00:00:00Z') })
          .where(eq(amplifications.id, id));
      }
      // Matches (posted, with a review), one without a rating.
      for (const [k, id] of ids.slice(1, 5).entries()) {
        await db
          .update(amplifications)
          .set({ status: 'posted', reviewId: bed.reviewIds[k] ?? null, matchedBy: 'auto' })
          .where(eq(amplifications.id, id));
      }
      await db
        .update(reviews)
        .set({ rating: null })
        .where(eq(reviews.id, bed.reviewIds[3] ?? 0));
      await bed.expectSameEverywhere();
      expect((await bed.route('&status=posted')).average_rating).toBe(4);
      // A rating changes; an unmatch; a manual match of another; a move to another day and personnel.
      await db
        .update(reviews)
        .set({ rating: 1 })
        .where(eq(reviews.id, bed.reviewIds[0] ?? 0));
      await db
        .update(amplifications)
        .set({ status: 'clicked', reviewId: null, matchedBy: null })
        .where(eq(amplifications.id, ids[2] ?? 0));
      await db
        .update(amplifications)
        .set({ status: 'posted', reviewId: bed.reviewIds[1] ?? null, matchedBy: 'manual' })
        .where(eq(amplifications.id, ids[9] ?? 0));
      await db
        .update(amplifications)
        .set({ invitedAt: new Date('2025-03-03T20:00:00Z'), personnelId: bed.person })
        .where(eq(amplifications.id, ids[10] ?? 0));
      await db
        .update(reviews)
        .set({ rating: 2 })
        .where(eq(reviews.id, bed.reviewIds[3] ?? 0));
      await bed.expectSameEverywhere();
      // Reviews arriving around the edges, one moved to another day and location, one deleted.
      const arrived: number[] = [];
      for (const [i, at] of TIMES.entries()) {
        const [r] = await db
          .insert(reviews)
          .values({
            clientId: bed.clientId,
            locationId: bed.places[i % 2] ?? '',
            site: SITE,
            externalId: `kpi-edge-${i}`,
            authorName: 'Edge',
            rating: 1 + (i % 5),
            text: 'On the edge.',
            reviewCreatedAt: new Date(at),
            source: 'api',
            fetchedAt: new Date(at),
          })
          .returning({ id: reviews.id });
        arrived.push(Number(r?.id));
      }
      await db
        .update(reviews)
        .set({ reviewCreatedAt: new Date('2025-03-04T19:00:00Z'), locationId: bed.places[1] ?? '' })
        .where(eq(reviews.id, arrived[0] ?? 0));
      await db.delete(reviews).where(eq(reviews.id, arrived[5] ?? 0));
      // The not_posted sweep's kind of update, then deletes.
      await db
        .update(amplifications)
        .set({ status: 'not_posted' })
        .where(eq(amplifications.id, ids[11] ?? 0));
      await db.delete(amplifications).where(eq(amplifications.id, ids[7] ?? 0));
      await db.delete(amplifications).where(eq(amplifications.id, ids[3] ?? 0));
      await bed.expectSameEverywhere();
      const before = await bed.summary();
      expect(before.deltas).toBeGreaterThan(0);
      const folded = await compactKpiCounts(db);
      expect(folded).toBeGreaterThanOrEqual(before.deltas);
      const after = await bed.summary();
      expect(after).toEqual({ invited: before.invited, deltas: 0, empty: 0, reviews: before.reviews });
      await bed.expectSameEverywhere();
      // A second pass over nothing folds nothing; the counts equal a rebuild from the rows.
      expect(await compactKpiCounts(db)).toBe(0);
      const kept = rowsOf(
        await db.execute(sql`select day::text, location_id, personnel_id, status, invited, clicked, posted, rating_sum, rated
          from amplification_day_counts where site = ${SITE} order by 1, 2, 3, 4`),
      );
      await rebuildKpiCounts(db);
      const rebuilt = rowsOf(
        await db.execute(sql`select day::text, location_id, personnel_id, status, invited, clicked, posted, rating_sum, rated
          from amplification_day_counts where site = ${SITE} and (invited, clicked, posted, rating_sum, rated) <> (0, 0, 0, 0, 0) order by 1, 2, 3, 4`),
      );
      expect(kept).toEqual(rebuilt);
    });

    it('compaction in small batches, with writes between, keeps the counts', async () => {
      const db = bed.ctx.database.db;
      const id = await bed.invite('2025-03-02T19:00:00Z', 1);
      await db.update(amplifications).set({ status: 'clicked', clickedAt: new Date() }).where(eq(amplifications.id, id));
      await db
        .update(amplifications)
        .set({ status: 'posted', reviewId: bed.reviewIds[2] ?? null })
        .where(eq(amplifications.id, id));
      await db
        .update(reviews)
        .set({ rating: 5 })
        .where(eq(reviews.id, bed.reviewIds[2] ?? 0));
      while ((await compactKpiCounts(db, 1)) > 0) await bed.expectSameEverywhere();
      await db.delete(amplifications).where(eq(amplifications.id, id));
      await compactKpiCounts(db);
      await bed.expectSameEverywhere();
      expect((await bed.summary()).empty).toBe(0);
    });

    it('without the trigger the summary misses a write, and the cards would differ from the rows', async () => {
      // The summary only counts because of the trigger: dropped, an invitation does not reach it.
      const db = bed.ctx.database.db;
      const [trigger] = rowsOf(
        await db.execute(sql`select count(*)::int as n from pg_trigger where tgname like 'amplification_day_counts_%'`),
      );
      expect(Number(trigger?.n)).toBe(2);
      await db
        .transaction(async (tx) => {
          await tx.execute(sql`alter table amplifications disable trigger amplification_day_counts_amplification`);
          const before = Number(
            rowsOf(await tx.execute(sql`select coalesce(sum(invited), 0)::int as n from amplification_day_counts where site = ${SITE}`))[0]
              ?.n,
          );
          await tx.insert(amplifications).values({
            clientId: bed.clientId,
            locationId: bed.places[0] ?? '',
            responseId: bed.nextResponseId(),
            site: SITE,
            channel: 'email',
            token: `kpi-${kind}-untracked`,
            invitedAt: new Date('2025-03-03T06:00:00Z'),
          });
          const after = Number(
            rowsOf(await tx.execute(sql`select coalesce(sum(invited), 0)::int as n from amplification_day_counts where site = ${SITE}`))[0]
              ?.n,
          );
          expect(after).toBe(before);
          tx.rollback();
        })
        .catch((err: unknown) => {
          if (!(err instanceof Error) || !/rollback/i.test(err.message)) throw err;
        });
      await bed.expectSameEverywhere();
    });
  });
}
