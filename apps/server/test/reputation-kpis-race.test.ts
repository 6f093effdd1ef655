import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { amplifications, reviews } from '../src/db/schema/index.ts';
import { compactKpiCounts } from '../src/reputation/kpi-compaction.ts';
import { type KpiBed, openKpiBed, SITE } from './reputation-kpis-bed.ts';

/**
 * The KPI summary under concurrent writers on PostgreSQL (docs/decisions/053): writers inviting,
 * clicking, matching, unmatching and deleting, another changing the matched reviews' ratings, and
 * compaction passes, all at once on the pool's connections; afterwards the summary equals the rows
 * counted one by one, key by key, and the route equals the raw count. A lost delta (a trigger not
 * seeing a concurrent rating change, a compaction dropping an uncommitted delta) would show here.
 */
const WRITERS = 4;
const ROUNDS = 12;

describe.skipIf(!process.env.TEST_DATABASE_URL)('Reputation KPI summary under concurrent writers (pg)', () => {
  let bed: KpiBed;
  beforeAll(async () => {
    bed = await openKpiBed('pg');
  });
  afterAll(() => bed.ctx.close());

  it('concurrent writers, rating changes and compaction lose nothing', async () => {
    const db = bed.ctx.database.db;
    let writing = true;
    const matched: number[] = [];
    const writer = async (w: number) => {
      for (let i = 0; i < ROUNDS; i++) {
        const at = `2025-03-0${1 + ((w + i) % 9)}T${String((w * 7 + i * 5) % 24).padStart(2, '0')}:${i % 2 ? '30' : '10'}:00Z`;
        const id = await bed.invite(at, w + i);
        await db
          .update(amplifications)
          .set({ status: 'clicked', clickedAt: new Date(at) })
          .where(eq(amplifications.id, id));
        const [review] = await db
          .insert(reviews)
          .values({
            clientId: bed.clientId,
            locationId: bed.places[0] ?? '',
            site: SITE,
            externalId: `race-${w}-${i}`,
            authorName: 'Racer',
            rating: 1 + ((w + i) % 5),
            text: 'Quick.',
            reviewCreatedAt: new Date(at),
            source: 'api',
            fetchedAt: new Date(at),
          })
          .returning({ id: reviews.id });
        const reviewId = Number(review?.id);
        // Matching, as the matcher writes it: the invitation posted with its review in one transaction.
        await db.transaction(async (tx) => {
          await tx.update(amplifications).set({ status: 'posted', reviewId, matchedBy: 'auto' }).where(eq(amplifications.id, id));
        });
        matched.push(reviewId);
        if (i % 4 === 1) {
          await db.update(amplifications).set({ status: 'clicked', reviewId: null, matchedBy: null }).where(eq(amplifications.id, id));
        }
        if (i % 4 === 2) await db.delete(amplifications).where(eq(amplifications.id, id));
      }
    };
    const rater = async () => {
      let n = 0;
      while (writing) {
        const some = matched.slice(-6);
        if (some.length > 0) {
          await db
            .update(reviews)
            .set({ rating: sql`1 + (coalesce(${reviews.rating}, 0) + ${n}) % 5` })
            .where(inArray(reviews.id, some));
        }
        n++;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };
    const compactor = async () => {
      let passes = 0;
      while (writing) {
        await compactKpiCounts(db, 7);
        passes++;
      }
      return passes;
    };
    const background = Promise.all([rater(), compactor(), compactor()]);
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    writing = false;
    const [, passes] = await background;
    expect(passes).toBeGreaterThan(0);
    await bed.expectSameEverywhere();
    await compactKpiCounts(db);
    // Key by key, the summary equals the rows.
    const diff = rowsOf(
      await db.execute(sql`
        with kept as (
          select day, location_id, personnel_id, status, sum(invited) invited, sum(clicked) clicked, sum(posted) posted,
            sum(rating_sum) rating_sum, sum(rated) rated
          from amplification_day_counts where client_id = ${bed.clientId} and site = ${SITE} group by 1, 2, 3, 4
          having (sum(invited), sum(clicked), sum(posted), sum(rating_sum), sum(rated)) <> (0, 0, 0, 0, 0)
        ), counted as (
          select (a.invited_at at time zone 'UTC')::date as day, a.location_id, coalesce(a.personnel_id, 0) as personnel_id, a.status,
            count(*) invited, count(a.clicked_at) clicked, count(*) filter (where a.status = 'posted') posted,
            coalesce(sum(r.rating), 0) rating_sum, count(r.rating) rated
          from amplifications a left join reviews r on r.id = a.review_id and a.status = 'posted'
          where a.client_id = ${bed.clientId} and a.site = ${SITE} group by 1, 2, 3, 4
        )
        (select 'kept' as side, * from kept except select 'kept', * from counted)
        union all (select 'counted', * from counted except select 'counted', * from kept)`),
    );
    expect(diff).toEqual([]);
    const [left] = rowsOf(await db.execute(sql`select count(*)::int as n from amplification_day_counts where not folded`));
    expect(Number(left?.n)).toBe(0);
    await bed.expectSameEverywhere();
  });
});
