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
 * Folds up to COMPACT_BATCH delta rows of each summary table (`amplification_day_counts` and
 * `review_day_counts`: the triggers of migrations 0032 and 0033 append them) into their key's one folded row, in one transaction, and drops folded rows
 * left all zero; answers how many deltas it folded. The KPI cards sum every row of a key, so the
 * counts read the same before, during and after. Several workers may fold at once: a delta is
 * deleted once (the second delete waits for the first and finds it gone) and the folded row's
 * unique index makes the second add to the first's row. Deltas of transactions not yet committed
 * are not seen and are folded by a later pass (docs/decisions/053).
 */
export async function compactKpiCounts(db: Db, limit = COMPACT_BATCH): Promise<number> {
  return (await fold(db, AMPLIFICATION_COUNTS, limit)) + (await fold(db, REVIEW_COUNTS, limit));
}

/** A summary table: its name, its key columns and the counts summed per key (constants, never input). */
type Summary = { table: string; key: string[]; counts: string[] };
const AMPLIFICATION_COUNTS: Summary = {
  table: 'amplification_day_counts',
  key: ['client_id', 'site', 'day', 'location_id', 'personnel_id', 'status'],
  counts: ['invited', 'clicked', 'posted', 'rating_sum', 'rated'],
};
const REVIEW_COUNTS: Summary = { table: 'review_day_counts', key: ['client_id', 'site', 'day', 'location_id'], counts: ['reviews'] };

async function fold(db: Db, summary: Summary, limit: number): Promise<number> {
  const t = sql.raw(summary.table);
  const key = sql.raw(summary.key.join(', '));
  const counts = sql.raw(summary.counts.join(', '));
  const sums = sql.raw(summary.counts.map((c) => `sum(${c})::int as ${c}`).join(', '));
  const add = sql.raw(summary.counts.map((c) => `${c} = ${summary.table}.${c} + excluded.${c}`).join(', '));
  const zero = sql.raw(summary.counts.map((c) => `${c} = 0`).join(' and '));
  return db.transaction(async (tx) => {
    const rows = rowsOf(
      await tx.execute(sql`
        with gone as (
          delete from ${t} where id in (select id from ${t} where not folded order by id limit ${limit})
          returning ${key}, ${counts}
        ), sums as (
          select ${key}, count(*)::int as deltas, ${sums} from gone group by ${key}
        ), folded as (
          insert into ${t} (${key}, ${counts}, folded)
          select ${key}, ${counts}, true from sums
          on conflict (${key}) where folded do update set ${add}
          returning id, ${zero} as empty
        )
        select (select coalesce(sum(deltas), 0)::int from sums) as deltas,
          (select coalesce(json_agg(id), '[]') from folded where empty) as empty_ids`),
    );
    // A statement's CTEs do not see each other's writes: the rows left at zero go in a second one.
    await tx.execute(sql`
      delete from ${t}
      where id in (select jsonb_array_elements_text(${JSON.stringify(rows[0]?.empty_ids ?? [])}::jsonb)::bigint) and folded and ${zero}`);
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
