import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import type { WorkerLoop } from '../pipeline/queue.ts';

/** How often (clock time) a worker folds the KPI summary's deltas, unless the last pass left some. */
const COMPACT_EVERY_MS = 60_000;
/** Delta rows one pass folds: one short transaction, whatever piled up meanwhile. */
export const COMPACT_BATCH = 50_000;

const KEY = sql.raw('client_id, site, day, location_id, personnel_id, status');
const REVIEW_KEY = sql.raw('client_id, site, day, location_id');

/**
 * Folds up to COMPACT_BATCH delta rows of `amplification_day_counts` (the triggers of migration
 * 0032 append them) into their key's one folded row, in one transaction, and drops folded rows
 * left all zero; answers how many deltas it folded. The KPI cards sum every row of a key, so the
 * counts read the same before, during and after. Several workers may fold at once: a delta is
 * deleted once (the second delete waits for the first and finds it gone) and the folded row's
 * unique index makes the second add to the first's row. Deltas of transactions not yet committed
 * are not seen and are folded by a later pass (docs/decisions/053).
 */
export async function compactKpiCounts(db: Db, limit = COMPACT_BATCH): Promise<number> {
  const invitations = await foldAmplificationCounts(db, limit);
  return invitations + (await foldReviewCounts(db, limit));
}

async function foldAmplificationCounts(db: Db, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = rowsOf(
      await tx.execute(sql`
        with gone as (
          delete from amplification_day_counts
          where id in (select id from amplification_day_counts where not folded order by id limit ${limit})
          returning ${KEY}, invited, clicked, posted, rating_sum, rated
        ), sums as (
          select ${KEY}, count(*)::int as deltas, sum(invited)::int as invited, sum(clicked)::int as clicked, sum(posted)::int as posted,
            sum(rating_sum)::int as rating_sum, sum(rated)::int as rated
          from gone group by ${KEY}
        ), folded as (
          insert into amplification_day_counts (${KEY}, invited, clicked, posted, rating_sum, rated, folded)
          select ${KEY}, invited, clicked, posted, rating_sum, rated, true from sums
          on conflict (${KEY}) where folded do update set
            invited = amplification_day_counts.invited + excluded.invited,
            clicked = amplification_day_counts.clicked + excluded.clicked,
            posted = amplification_day_counts.posted + excluded.posted,
            rating_sum = amplification_day_counts.rating_sum + excluded.rating_sum,
            rated = amplification_day_counts.rated + excluded.rated
          returning id, invited = 0 and clicked = 0 and posted = 0 and rating_sum = 0 and rated = 0 as empty
        )
        select (select coalesce(sum(deltas), 0)::int from sums) as deltas,
          (select coalesce(json_agg(id), '[]') from folded where empty) as empty_ids`),
    );
    const emptyIds = JSON.stringify(rows[0]?.empty_ids ?? []);
    await tx.execute(sql`
      delete from amplification_day_counts
      where id in (select jsonb_array_elements_text(${emptyIds}::jsonb)::bigint)
        and folded and invited = 0 and clicked = 0 and posted = 0 and rating_sum = 0 and rated = 0`);
    return Number(rows[0]?.deltas ?? 0);
  });
}

/** The same fold for `review_day_counts` (migration 0033), the New reviews card's summary. */
async function foldReviewCounts(db: Db, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = rowsOf(
      await tx.execute(sql`
        with gone as (
          delete from review_day_counts
          where id in (select id from review_day_counts where not folded order by id limit ${limit})
          returning ${REVIEW_KEY}, reviews
        ), sums as (
          select ${REVIEW_KEY}, count(*)::int as deltas, sum(reviews)::int as reviews from gone group by ${REVIEW_KEY}
        ), folded as (
          insert into review_day_counts (${REVIEW_KEY}, reviews, folded)
          select ${REVIEW_KEY}, reviews, true from sums
          on conflict (${REVIEW_KEY}) where folded do update set reviews = review_day_counts.reviews + excluded.reviews
          returning id, reviews = 0 as empty
        )
        select (select coalesce(sum(deltas), 0)::int from sums) as deltas,
          (select coalesce(json_agg(id), '[]') from folded where empty) as empty_ids`),
    );
    // A statement's CTEs do not see each other's writes: the rows left at zero go in a second one.
    await tx.execute(sql`
      delete from review_day_counts
      where id in (select jsonb_array_elements_text(${JSON.stringify(rows[0]?.empty_ids ?? [])}::jsonb)::bigint) and folded and reviews = 0`);
    return Number(rows[0]?.deltas ?? 0);
  });
}

/**
 * The summaries rebuilt from the amplifications and reviews, as migrations 0032 and 0033 backfill them: for rows written
 * with the triggers off (bench/reputation/panel.ts generates its rows as `replica`).
 */
export async function rebuildKpiCounts(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`lock table amplifications in share mode`);
    await tx.execute(sql`delete from amplification_day_counts`);
    await tx.execute(sql`
      insert into amplification_day_counts (${KEY}, invited, clicked, posted, rating_sum, rated, folded)
      select a.client_id, a.site, (a.invited_at at time zone 'UTC')::date, a.location_id, coalesce(a.personnel_id, 0), a.status,
        count(*)::int, count(a.clicked_at)::int, count(*) filter (where a.status = 'posted')::int,
        coalesce(sum(r.rating) filter (where a.status = 'posted'), 0)::int, count(r.rating) filter (where a.status = 'posted')::int, true
      from amplifications a left join reviews r on r.id = a.review_id
      group by 1, 2, 3, 4, 5, 6`);
    await tx.execute(sql`lock table reviews in share mode`);
    await tx.execute(sql`delete from review_day_counts`);
    await tx.execute(sql`
      insert into review_day_counts (${REVIEW_KEY}, reviews, folded)
      select client_id, site, (review_created_at at time zone 'UTC')::date, location_id, count(*)::int, true
      from reviews group by 1, 2, 3, 4`);
  });
}

/**
 * The worker loop folding the KPI summary (apps/server/src/pipeline/worker.ts installs it): on a
 * poll at most every COMPACT_EVERY_MS, at once again while a pass leaves deltas behind.
 */
export function kpiCompaction(db: Db): WorkerLoop {
  let lastPass: number | null = null;
  return {
    name: 'reputation-kpi-compaction',
    async run(now) {
      const at = now.getTime();
      if (lastPass !== null && at >= lastPass && at - lastPass < COMPACT_EVERY_MS) return 0;
      const folded = await compactKpiCounts(db);
      if (folded < COMPACT_BATCH) lastPass = at;
      return folded;
    },
  };
}
