import { DEFAULT_REVIEW_SITE } from '@admin/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { amplifications as a, reviewDayCounts as rd, reviews, amplificationDayCounts as s } from '../../db/schema/index.ts';
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

/**
 * A range of the client's days cut at UTC midnights: `days(day)` is the WHERE of the summary's
 * whole UTC days (first ≤ day < last), `edges(time)` the WHEREs of the partial days at either end
 * ([from, first) and [last, to), the first cut at `to` and the second begun at `first` when the
 * range holds no whole UTC day), for the raw rows.
 */
function cutRange(scope: Scope, startDate: string | undefined, endDate: string | undefined) {
  const from = startDate ? dayStart(startDate, scope.timezone) : undefined;
  const to = endDate ? sql`(${dayStart(endDate, scope.timezone)} + interval '1 day')` : undefined;
  const first = from ? sql`((((${from}) - interval '1 microsecond') at time zone 'UTC')::date + 1)` : undefined;
  const last = to ? sql`((${to} at time zone 'UTC')::date)` : undefined;
  const utc = (day: SQL) => sql`((${day})::timestamp at time zone 'UTC')`;
  return {
    days: (day: SQL) => [first ? sql`${day} >= ${first}` : undefined, last ? sql`${day} < ${last}` : undefined],
    edges: (time: SQL): SQL[][] => [
      ...(from && first ? [[sql`${time} >= ${from}`, sql`${time} < ${to ? sql`least(${utc(first)}, ${to})` : utc(first)}`]] : []),
      ...(to && last ? [[sql`${time} >= ${first ? sql`greatest(${utc(last)}, ${utc(first)})` : utc(last)}`, sql`${time} < ${to}`]] : []),
    ],
  };
}

const unionAll = (parts: SQL[]) =>
  sql.join(
    parts.map((p) => sql`(${p})`),
    sql` union all `,
  );

function summedCounts(scope: Scope, rest: Filters, startDate: string | undefined, endDate: string | undefined): SQL {
  const range = cutRange(scope, startDate, endDate);
  const summaryWhere = allOf([
    sql`${s.clientId} = ${scope.clientId}`,
    sql`${s.site} = ${rest.site ?? DEFAULT_REVIEW_SITE}`,
    inList(sql`${s.locationId}`, rest.endpoint),
    inList(sql`${s.locationId}`, rest.location),
    inList(sql`${s.personnelId}`, rest.personnel?.map(Number)),
    // 0 stands for "no personnel" in the summary: a Personnel filter never matches those rows (the query refuses 0 too).
    rest.personnel?.length ? sql`${s.personnelId} <> 0` : undefined,
    inList(sql`${s.status}`, rest.status),
    ...range.days(sql`${s.day}`),
  ]);
  const rows = amplificationsWhere(scope, rest);
  const parts: SQL[] = [
    sql`select coalesce(sum(${s.invited}), 0)::bigint, coalesce(sum(${s.clicked}), 0)::bigint, coalesce(sum(${s.posted}), 0)::bigint,
      coalesce(sum(${s.ratingSum}), 0)::bigint, coalesce(sum(${s.rated}), 0)::bigint
    from ${s}${whereClause(summaryWhere)}`,
    ...range.edges(sql`${a.invitedAt}`).map((edge) => rawCounts(allOf([rows, ...edge]))),
  ];
  return sql`select sum(invited) as invited, sum(clicked) as clicked, sum(posted) as posted, sum(rating_sum) as rating_sum, sum(rated) as rated
    from (${unionAll(parts)}) t(invited, clicked, posted, rating_sum, rated)`;
}

/**
 * The New reviews card: the site's reviews, amplified or not, with the location filters and the
 * range (not the status or personnel filters: they are not the review's). Whole UTC days from
 * `review_day_counts` (migration 0033), the edges' partial days from `reviews` over its
 * (client_id, site, review_created_at, id) index.
 */
export async function newReviewsCount(db: Db, scope: Scope, q: Filters): Promise<number> {
  const range = cutRange(scope, q.startDate, q.endDate);
  const where = (clientId: SQL, site: SQL, location: SQL) => [
    sql`${clientId} = ${scope.clientId}`,
    sql`${site} = ${q.site ?? DEFAULT_REVIEW_SITE}`,
    inList(location, q.endpoint),
    inList(location, q.location),
  ];
  const parts: SQL[] = [
    sql`select coalesce(sum(${rd.reviews}), 0)::bigint from ${rd}${whereClause(
      allOf([...where(sql`${rd.clientId}`, sql`${rd.site}`, sql`${rd.locationId}`), ...range.days(sql`${rd.day}`)]),
    )}`,
    ...range
      .edges(sql`${reviews.reviewCreatedAt}`)
      .map(
        (edge) =>
          sql`select count(*)::bigint from ${reviews}${whereClause(
            allOf([...where(sql`${reviews.clientId}`, sql`${reviews.site}`, sql`${reviews.locationId}`), ...edge]),
          )}`,
      ),
  ];
  const [row] = rowsOf(await db.execute(sql`select sum(n) as n from (${unionAll(parts)}) t(n)`));
  return Number(row?.n ?? 0);
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
