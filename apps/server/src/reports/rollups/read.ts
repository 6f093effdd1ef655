import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { allOf, inList } from '../../kit/keyset.ts';
import { whereClause } from '../../kit/keyset-page.ts';
import { COUNT_KEYS, type Counts, zeroCounts } from '../performance/figures.ts';
import type { KeyKind, Scope } from '../performance/raw.ts';

/** Each count's column in report_day_counts (schema/report-counts.ts). */
export const COUNT_COLUMNS: Record<(typeof COUNT_KEYS)[number], string> = {
  sent: 'sent',
  delivered: 'delivered',
  opened: 'opened',
  responses: 'responses',
  promoters: 'promoters',
  passives: 'passives',
  detractors: 'detractors',
  scoreSum: 'score_sum',
  scoreCount: 'score_count',
  csatPositive: 'csat_positive',
  csatAnswers: 'csat_answers',
  alertsFired: 'alerts_fired',
  alertsUnsent: 'alerts_unsent',
  invites: 'invites',
  posted: 'posted',
  reviews: 'reviews',
  ratingSum: 'rating_sum',
  rated: 'rated',
};

/** An id column where 0 stands for none, as a group key ('' = none, as raw.ts keys it). */
const idKey = (column: string) => sql.raw(`case when ${column} = 0 then '' else ${column}::text end`);

function keyOf(kind: KeyKind): SQL {
  switch (kind) {
    case 'total':
      return sql`''`;
    case 'client':
      return sql.raw('client_id::text');
    case 'location':
      return sql.raw('location_id');
    case 'personnel':
      return idKey('personnel_id');
    case 'survey':
      return idKey('survey_id');
    case 'product':
      return idKey('product_id');
    case 'referral_source':
      return idKey('referral_source_id');
    case 'month':
      return sql.raw(`to_char(day, 'YYYY-MM')`);
    case 'day':
      return sql.raw(`to_char(day, 'YYYY-MM-DD')`);
  }
}

/**
 * The counts of a period from the rollup, keyed as rawCounts keys them (performance/raw.ts): its
 * days are already each client's own, so a range is a range of `day`. A review's row (site not
 * '') names no survey, personnel or channel, and those filters leave it as the raw count does.
 */
export async function rollupCounts(db: Db, scope: Scope, kind: KeyKind): Promise<Map<string, Counts>> {
  const review = sql.raw(`site <> ''`);
  const unlessReview = (condition: SQL | undefined) => (condition ? sql`(${review} or ${condition})` : undefined);
  const where = allOf([
    sql`day between ${scope.from}::date and ${scope.to}::date`,
    inList(sql.raw('client_id'), scope.clients),
    inList(sql.raw('location_id'), scope.locations),
    unlessReview(inList(sql.raw('survey_id'), scope.surveys)),
    unlessReview(inList(sql.raw('personnel_id'), scope.personnel)),
    unlessReview(scope.channel === 'all' ? undefined : sql`channel = ${scope.channel}`),
  ]);
  const sums = COUNT_KEYS.map((k) => sql`sum(${sql.raw(COUNT_COLUMNS[k])})::bigint as ${sql.identifier(k)}`);
  const rows = rowsOf(
    await db.execute(
      sql`select ${keyOf(kind)} as key, site, ${sql.join(sums, sql`, `)} from report_day_counts${whereClause(where)} group by 1, 2`,
    ),
  );
  const out = new Map<string, Counts>();
  for (const row of rows) {
    const key = String(row.key ?? '');
    const counts = out.get(key) ?? zeroCounts();
    for (const k of COUNT_KEYS) counts[k] += Number(row[k] ?? 0);
    if (row.site !== '' && typeof row.site === 'string') {
      const n = Number(row.reviews ?? 0);
      if (n !== 0) counts.bySite[row.site] = (counts.bySite[row.site] ?? 0) + n;
    }
    out.set(key, counts);
  }
  // A key whose deltas cancel out (a response excluded after it was counted) is no group.
  for (const [key, counts] of out) if (COUNT_KEYS.every((k) => counts[k] === 0)) out.delete(key);
  return out;
}
