import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { allOf, inList } from '../../kit/keyset.ts';
import { whereClause } from '../../kit/keyset-page.ts';
import { COUNT_KEYS, type Counts, zeroCounts } from '../performance/figures.ts';
import type { KeyKind, Scope } from '../performance/raw.ts';
import type { ReportCounts } from '../performance/report.ts';
import { monthStart, nextMonth, segmentsOf } from './segments.ts';

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

/** The rollup's WHERE for a scope's filters, with `days` saying which rows' dates are in. */
function whereOf(scope: Scope, days: SQL): SQL | undefined {
  const review = sql.raw(`site <> ''`);
  const unlessReview = (condition: SQL | undefined) => (condition ? sql`(${review} or ${condition})` : undefined);
  return allOf([
    days,
    inList(sql.raw('client_id'), scope.clients),
    inList(sql.raw('location_id'), scope.locations),
    unlessReview(inList(sql.raw('survey_id'), scope.surveys)),
    unlessReview(inList(sql.raw('personnel_id'), scope.personnel)),
    unlessReview(scope.channel === 'all' ? undefined : sql`channel = ${scope.channel}`),
  ]);
}

const between = (column: string, range: { from: string; to: string }) =>
  sql`${sql.raw(column)} between ${range.from}::date and ${range.to}::date`;

const SUMS = sql.join(
  COUNT_KEYS.map((k) => sql`sum(${sql.raw(COUNT_COLUMNS[k])})::bigint as ${sql.identifier(k)}`),
  sql`, `,
);

/** Adds one result row (a key's sums for one review site or none) to a map of counts. */
function addRow(out: Map<string, Counts>, key: string, row: Record<string, unknown>): void {
  const counts = out.get(key) ?? zeroCounts();
  for (const k of COUNT_KEYS) counts[k] += Number(row[k] ?? 0);
  if (row.site !== '' && typeof row.site === 'string') {
    const n = Number(row.reviews ?? 0);
    if (n !== 0) counts.bySite[row.site] = (counts.bySite[row.site] ?? 0) + n;
  }
  out.set(key, counts);
}

/** A key whose deltas cancel out (a response excluded after it was counted) is no group. */
function withoutEmpty(out: Map<string, Counts>): Map<string, Counts> {
  for (const [key, counts] of out) if (COUNT_KEYS.every((k) => counts[k] === 0)) out.delete(key);
  return out;
}

/**
 * The counts of a period from the rollup, keyed as rawCounts keys them (performance/raw.ts): its
 * days are already each client's own, so a range is a range of `day`. A review's row (site not
 * '') names no survey, personnel or channel, and those filters leave it as the raw count does.
 */
export async function rollupCounts(db: Db, scope: Scope, kind: KeyKind): Promise<Map<string, Counts>> {
  const rows = rowsOf(
    await db.execute(
      sql`select ${keyOf(kind)} as key, site, ${SUMS} from report_day_counts${whereClause(whereOf(scope, between('day', scope)))} group by 1, 2`,
    ),
  );
  const out = new Map<string, Counts>();
  for (const row of rows) addRow(out, String(row.key ?? ''), row);
  return withoutEmpty(out);
}

const DIMENSIONS = 'client_id, location_id, personnel_id, survey_id, product_id, referral_source_id, site';
const COLUMNS = sql.raw(COUNT_KEYS.map((k) => COUNT_COLUMNS[k]).join(', '));
/** report_month_location_counts' rows with DIMENSIONS' columns: it keeps none of the others. */
const LOCATION_DIMENSIONS = 'client_id, location_id, 0 as personnel_id, 0 as survey_id, 0 as product_id, 0 as referral_source_id, site';

/** Which month rows a report may read: the full key's, or the location grain's (no personnel, survey, product or referral source). */
type MonthGrain = 'full' | 'location';
/** Reports that group by these and filter by no person or survey can read the location grain. */
const LOCATION_GROUPS: readonly KeyKind[] = ['total', 'client', 'location', 'month'];

/** The month rows a report's read may use, or null when it must read days (charted by day). */
function monthGrainOf(scope: Scope, group: KeyKind, bucket: KeyKind): MonthGrain | null {
  // Month rows say nothing of their days: only a read keyed by month or coarser may use them.
  if (bucket !== 'month' || group === 'day') return null;
  const byLocation = LOCATION_GROUPS.includes(group) && scope.surveys.length === 0 && scope.personnel.length === 0;
  return byLocation ? 'location' : 'full';
}

/**
 * The rollup rows of one period, marked with `current`: all from report_day_counts, or (`months`)
 * its whole months from report_month_counts or its location grain (their first day as `day`) with the deltas of those
 * months not yet folded, and only the partial months' days from report_day_counts — or, for the
 * last month up to a day with nothing after it, its month row (`monthToDate`).
 */
function periodRows(scope: Scope, period: { from: string; to: string }, current: boolean, months: MonthGrain | null): SQL[] {
  const flag = sql.raw(current ? 'true' : 'false');
  const columns = sql`${flag} as current, day, ${sql.raw(DIMENSIONS)}, ${COLUMNS}`;
  const dayRows = (days: SQL) => sql`select ${columns} from report_day_counts${whereClause(whereOf(scope, days))}`;
  const split = months ? segmentsOf(period.from, period.to) : null;
  if (!split?.months || !split.monthsEnd) return [dayRows(between('day', period))];
  const monthCols = sql`${flag} as current, month as day, ${sql.raw(months === 'location' ? LOCATION_DIMENSIONS : DIMENSIONS)}, ${COLUMNS}`;
  const monthTable = sql.raw(months === 'location' ? 'report_month_location_counts' : 'report_month_counts');
  return [
    sql`select ${monthCols} from ${monthTable}${whereClause(whereOf(scope, between('month', split.months)))}`,
    dayRows(sql`not folded and ${between('day', { from: split.months.from, to: split.monthsEnd })}`),
    ...split.days.flatMap((range) => (range.from === monthStart(range.from) ? monthToDate(range) : [dayRows(between('day', range))])),
  ];
  /**
   * The days of a month from its first day to `range.to`: when the rollup holds nothing later in
   * that month (a range ending today), they are the month's row and its unfolded deltas, else the
   * day rows. Both branches are in the statement and `later` picks one, under the statement's one
   * snapshot, so a delta committed meanwhile cannot be counted twice or missed.
   */
  function monthToDate(range: { from: string; to: string }): SQL[] {
    const later = sql`exists (select 1 from report_day_counts where day > ${range.to}::date and day < ${nextMonth(range.from)}::date)`;
    return [
      sql`select ${monthCols} from ${monthTable}${whereClause(whereOf(scope, sql`month = ${range.from}::date and not ${later}`))}`,
      dayRows(sql`not folded and ${between('day', range)} and not ${later}`),
      dayRows(sql`${between('day', range)} and ${later}`),
    ];
  }
}

/**
 * A whole report's counts in one statement (what the Performance Report's route reads): the period
 * and the previous one together, grouped two ways at once by grouping sets — by the table's group
 * and by the chart's bucket — where three reads scanned the year twice. Charted by month, whole
 * months come from report_month_counts (decision 071). The previous period's total is the sum of its groups.
 */
export const rollupReportCounts: ReportCounts = async (db, scope, { group, bucket, previous }) => {
  const months = monthGrainOf(scope, group, bucket);
  const rows = [...periodRows(scope, previous, false, months), ...periodRows(scope, scope, true, months)];
  const sets = group === bucket ? sql`(current, group_key, site)` : sql`(current, group_key, site), (current, bucket_key, site)`;
  const bucketKey = group === bucket ? sql`null` : sql`bucket_key`;
  const statement = sql`select current, grouping(group_key) as by_bucket, group_key, ${bucketKey} as bucket_key, site, ${SUMS}
    from (select current, ${keyOf(group)} as group_key, ${keyOf(bucket)} as bucket_key, site, ${COLUMNS}
      from (${sql.join(rows, sql` union all `)}) u) t
    group by grouping sets (${sets})`;
  const grouped = new Map<string, Counts>();
  const byBucket = new Map<string, Counts>();
  const before = new Map<string, Counts>();
  for (const row of rowsOf(await db.execute(statement))) {
    const bySet = Number(row.by_bucket) === 1;
    if (row.current !== true) {
      if (!bySet) addRow(before, '', row);
    } else if (bySet) addRow(byBucket, String(row.bucket_key ?? ''), row);
    else {
      addRow(grouped, String(row.group_key ?? ''), row);
      if (group === bucket) addRow(byBucket, String(row.group_key ?? ''), row);
    }
  }
  return { grouped: withoutEmpty(grouped), byBucket: withoutEmpty(byBucket), before: withoutEmpty(before) };
};
