import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import type { WorkerLoop } from '../../pipeline/queue.ts';
import { COUNT_KEYS } from '../performance/figures.ts';
import { COUNT_COLUMNS } from './read.ts';

/** How often (clock time) a worker folds the rollup's deltas, unless the last pass left some. */
const COMPACT_EVERY_MS = 60_000;
/** Delta rows one pass folds: one short transaction, whatever piled up meanwhile. */
export const ROLLUP_COMPACT_BATCH = 50_000;

/**
 * Held by a fold and by a rebuild (and by a client's zone change, migration 0041), one at a time:
 * both write folded rows of the same keys, and two at once broke the folded rows' unique index.
 */
const REBUILD_LOCK = 7_245_039;

const KEY = sql.raw('client_id, day, location_id, personnel_id, survey_id, channel, product_id, referral_source_id, site');
const DIMENSIONS = sql.raw('location_id, personnel_id, survey_id, channel, product_id, referral_source_id, site');
/** report_month_counts' key (its unique index): a key's folded deltas are added to its month's row too. */
const MONTH_KEY = sql.raw('client_id, month, location_id, personnel_id, survey_id, channel, product_id, referral_source_id, site');
/** report_month_location_counts' key: the same sums by client, month, location, channel and site. */
const LOCATION_KEY = sql.raw('client_id, month, location_id, channel, site');
const COUNTS = COUNT_KEYS.map((k) => COUNT_COLUMNS[k]);

/**
 * Folds up to `limit` deltas of report_day_counts into their key's one folded row, adds the same
 * sums to the key's month rows (report_month_counts and its location grain: a month is the sum of
 * its folded days), and drops rows left all zero, as reputation/kpi-compaction.ts folds the KPI summary (decision 053:
 * several folders at once are safe; uncommitted deltas wait for a later pass). Answers how many
 * deltas it folded.
 */
export async function compactReportCounts(db: Db, limit = ROLLUP_COMPACT_BATCH): Promise<number> {
  const counts = sql.raw(COUNTS.join(', '));
  const sums = sql.raw(COUNTS.map((c) => `sum(${c})::int as ${c}`).join(', '));
  const add = sql.raw(COUNTS.map((c) => `${c} = report_day_counts.${c} + excluded.${c}`).join(', '));
  const addMonth = sql.raw(COUNTS.map((c) => `${c} = report_month_counts.${c} + excluded.${c}`).join(', '));
  const addLocation = sql.raw(COUNTS.map((c) => `${c} = report_month_location_counts.${c} + excluded.${c}`).join(', '));
  const zero = sql.raw(COUNTS.map((c) => `${c} = 0`).join(' and '));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${REBUILD_LOCK})`);
    const rows = rowsOf(
      await tx.execute(sql`
        with gone as (
          delete from report_day_counts where id in (select id from report_day_counts where not folded order by id limit ${limit})
          returning ${KEY}, ${counts}
        ), sums as (
          select ${KEY}, count(*)::int as deltas, ${sums} from gone group by ${KEY}
        ), folded as (
          insert into report_day_counts (${KEY}, ${counts}, folded)
          select ${KEY}, ${counts}, true from sums
          on conflict (${KEY}) where folded do update set ${add}
          returning id, ${zero} as empty
        ), monthly as (
          insert into report_month_counts (${MONTH_KEY}, ${counts})
          select client_id, date_trunc('month', day)::date, ${DIMENSIONS}, ${sums} from sums
          group by client_id, date_trunc('month', day)::date, ${DIMENSIONS}
          on conflict (${MONTH_KEY}) do update set ${addMonth}
          returning id, ${zero} as empty
        ), by_location as (
          insert into report_month_location_counts (${LOCATION_KEY}, ${counts})
          select client_id, date_trunc('month', day)::date, location_id, channel, site, ${sums} from sums
          group by client_id, date_trunc('month', day)::date, location_id, channel, site
          on conflict (${LOCATION_KEY}) do update set ${addLocation}
          returning id, ${zero} as empty
        )
        select (select coalesce(sum(deltas), 0)::int from sums) as deltas,
          (select coalesce(json_agg(id), '[]') from folded where empty) as empty_ids,
          (select coalesce(json_agg(id), '[]') from monthly where empty) as empty_month_ids,
          (select coalesce(json_agg(id), '[]') from by_location where empty) as empty_location_ids`),
    );
    // A statement's CTEs do not see each other's writes: the rows left at zero go in a second one.
    await tx.execute(sql`
      delete from report_day_counts
      where id in (select jsonb_array_elements_text(${JSON.stringify(rows[0]?.empty_ids ?? [])}::jsonb)::bigint) and folded and ${zero}`);
    for (const [table, ids] of [
      ['report_month_counts', rows[0]?.empty_month_ids],
      ['report_month_location_counts', rows[0]?.empty_location_ids],
    ] as const)
      await tx.execute(sql`
        delete from ${sql.identifier(table)}
        where id in (select jsonb_array_elements_text(${JSON.stringify(ids ?? [])}::jsonb)::bigint) and ${zero}`);
    return Number(rows[0]?.deltas ?? 0);
  });
}

/**
 * Rebuilds the rollup from the raw tables for a range of days (each client's own) and one client
 * or all (the SQL function of migration 0039: it locks the clients' rows so writers wait and
 * nothing is lost). For rows written with triggers off (a bench's `replica` load), or a repair.
 */
export async function rebuildReportCounts(db: Db, range: { from?: string | null; to?: string | null; clientId?: number | null } = {}) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${REBUILD_LOCK})`);
    await tx.execute(
      sql`select report_counts_rebuild(${range.clientId ?? null}::int, ${range.from ?? null}::date, ${range.to ?? null}::date)`,
    );
  });
}

/** The worker loop folding the rollup (pipeline/worker.ts installs it), as the KPI summary's is. */
export function reportCompaction(db: Db): WorkerLoop {
  let lastPass: number | null = null;
  return {
    name: 'report-rollup-compaction',
    async run(now) {
      const at = now.getTime();
      if (lastPass !== null && at >= lastPass && at - lastPass < COMPACT_EVERY_MS) return 0;
      const folded = await compactReportCounts(db);
      if (folded < ROLLUP_COMPACT_BATCH) lastPass = at;
      return folded;
    },
  };
}
