import { DEFAULT_REVIEW_SITE } from '@admin/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { amplifications as a, reviews, amplificationDayCounts as s } from '../../db/schema/index.ts';
import { allOf, inList } from '../../kit/keyset.ts';
import { whereClause } from '../../kit/keyset-page.ts';
import { amplificationsWhere, type Filters, type Scope } from './repository.ts';

/** A day of the client's zone as the moment it starts (as repository.ts reads the range). */
export const dayStart = (day: string, zone: string): SQL => sql`((${day}::date)::timestamp at time zone ${zone})`;

/** The amplification counts the KPI cards show; the average is `ratingSum / rated`. */
export type AmplificationCounts = { invited: number; clicked: number; posted: number; ratingSum: number; rated: number };

/** The counts of the raw rows `where` finds, each posted row's review read by its id. */
const rawCounts = (where: SQL | undefined): SQL => sql`
  select count(*)::bigint as invited, count(${a.clickedAt})::bigint as clicked,
    count(*) filter (where ${a.status} = 'posted')::bigint as posted,
    coalesce(sum(r.rating), 0)::bigint as rating_sum, count(r.rating)::bigint as rated
  from ${a} left join ${reviews} r on r.id = ${a.reviewId} and ${a.status} = 'posted'${whereClause(where)}`;

/**
 * The KPI cards' amplification counts for the list's filters, exact. Without a name search, the
 * UTC days lying wholly inside the range come from the summary `amplification_day_counts` (kept
 * by triggers, migration 0032), and only the partial UTC days at the range's two edges are
 * counted from the amplifications, over their (client_id, site, invited_at, id) index: at most
 * two days of rows, whatever the range and the client's zone (docs/decisions/053). The name
 * search is not in the summary's key: it counts the raw rows.
 */
export async function amplificationCounts(db: Db, scope: Scope, q: Filters): Promise<AmplificationCounts> {
  const { startDate, endDate, ...rest } = q;
  const statement = q.q?.trim() ? rawCounts(amplificationsWhere(scope, q)) : summedCounts(scope, rest, startDate, endDate);
  const [row] = rowsOf(await db.execute(statement));
  return {
    invited: Number(row?.invited ?? 0),
    clicked: Number(row?.clicked ?? 0),
    posted: Number(row?.posted ?? 0),
    ratingSum: Number(row?.rating_sum ?? 0),
    rated: Number(row?.rated ?? 0),
  };
}

function summedCounts(scope: Scope, rest: Filters, startDate: string | undefined, endDate: string | undefined): SQL {
  // The range as moments: [from, to). first = the first UTC day starting at or after `from`;
  // last = the UTC day `to` falls in, so the summary's days are first ≤ day < last.
  const from = startDate ? dayStart(startDate, scope.timezone) : undefined;
  const to = endDate ? sql`(${dayStart(endDate, scope.timezone)} + interval '1 day')` : undefined;
  const first = from ? sql`((((${from}) - interval '1 microsecond') at time zone 'UTC')::date + 1)` : undefined;
  const last = to ? sql`((${to} at time zone 'UTC')::date)` : undefined;
  const utc = (day: SQL) => sql`((${day})::timestamp at time zone 'UTC')`;
  const summaryWhere = allOf([
    sql`${s.clientId} = ${scope.clientId}`,
    sql`${s.site} = ${rest.site ?? DEFAULT_REVIEW_SITE}`,
    inList(sql`${s.locationId}`, rest.endpoint),
    inList(sql`${s.locationId}`, rest.location),
    inList(sql`${s.personnelId}`, rest.personnel?.map(Number)),
    inList(sql`${s.status}`, rest.status),
    first ? sql`${s.day} >= ${first}` : undefined,
    last ? sql`${s.day} < ${last}` : undefined,
  ]);
  const parts: SQL[] = [
    sql`select coalesce(sum(${s.invited}), 0)::bigint, coalesce(sum(${s.clicked}), 0)::bigint, coalesce(sum(${s.posted}), 0)::bigint,
      coalesce(sum(${s.ratingSum}), 0)::bigint, coalesce(sum(${s.rated}), 0)::bigint
    from ${s}${whereClause(summaryWhere)}`,
  ];
  const rows = amplificationsWhere(scope, rest);
  // The lower edge [from, first), cut at `to` when the range ends before `first`.
  if (from && first) {
    const end = to ? sql`least(${utc(first)}, ${to})` : utc(first);
    parts.push(rawCounts(allOf([rows, sql`${a.invitedAt} >= ${from}`, sql`${a.invitedAt} < ${end}`])));
  }
  // The upper edge [last, to), begun at `first` when the range holds no whole UTC day.
  if (to && last) {
    const begin = first ? sql`greatest(${utc(last)}, ${utc(first)})` : utc(last);
    parts.push(rawCounts(allOf([rows, sql`${a.invitedAt} >= ${begin}`, sql`${a.invitedAt} < ${to}`])));
  }
  return sql`select sum(invited) as invited, sum(clicked) as clicked, sum(posted) as posted, sum(rating_sum) as rating_sum, sum(rated) as rated
    from (${sql.join(
      parts.map((p) => sql`(${p})`),
      sql` union all `,
    )}) t(invited, clicked, posted, rating_sum, rated)`;
}

/**
 * The same counts from the amplifications alone, for the tests and the bench to compare with:
 * the path the cards took before the summary.
 */
export async function amplificationCountsRaw(db: Db, scope: Scope, q: Filters): Promise<AmplificationCounts> {
  const [row] = rowsOf(await db.execute(rawCounts(amplificationsWhere(scope, q))));
  return {
    invited: Number(row?.invited ?? 0),
    clicked: Number(row?.clicked ?? 0),
    posted: Number(row?.posted ?? 0),
    ratingSum: Number(row?.rating_sum ?? 0),
    rated: Number(row?.rated ?? 0),
  };
}
