import { DEFAULT_REVIEW_SITE, type ReputationFilters, type ReputationKpis } from '@admin/shared';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { amplifications, endpointConfigs, locations, personnel, reviews } from '../../db/schema/index.ts';
import { allOf, inList } from '../../kit/keyset.ts';
import { whereClause } from '../../kit/keyset-page.ts';
import { amplificationsWhere, type Filters, type Scope } from './repository.ts';

const dayStart = (day: string, zone: string) => sql`((${day}::date)::timestamp at time zone ${zone})`;

/**
 * The KPI cards for the list's filters: the amplification counts in one grouped pass over the
 * rows the list's index finds (no count per card), and the site's new reviews, amplified or not,
 * over the reviews' (client_id, site, review_created_at) index. The posted reviews' ratings are
 * read only for posted rows: the FILTER is tested before the aggregate's argument is evaluated.
 */
export async function kpisOf(db: Db, scope: Scope, q: Filters): Promise<ReputationKpis> {
  return db.transaction(async (tx) => {
    // The per-row review lookup makes the planner cost this pass high enough to JIT-compile it:
    // ~450 ms of compiling for ~40 ms of work on 80,000 rows (bench/README.md, Reputation Panel).
    await tx.execute(sql`set local jit = off`);
    return kpisIn(tx, scope, q);
  });
}

async function kpisIn(db: Db, scope: Scope, q: Filters): Promise<ReputationKpis> {
  const [counts] = rowsOf(
    await db.execute(sql`
      select count(*)::int as invited,
        count(${amplifications.clickedAt})::int as clicked,
        count(*) filter (where ${amplifications.status} = 'posted')::int as posted,
        avg((select r.rating from ${reviews} r where r.id = ${amplifications.reviewId}))
          filter (where ${amplifications.status} = 'posted')::float8 as average_rating
      from ${amplifications}${whereClause(amplificationsWhere(scope, q))}`),
  );
  const reviewsWhere = allOf([
    sql`${reviews.clientId} = ${scope.clientId}`,
    sql`${reviews.site} = ${q.site ?? DEFAULT_REVIEW_SITE}`,
    inList(sql`${reviews.locationId}`, q.endpoint),
    inList(sql`${reviews.locationId}`, q.location),
    q.startDate ? sql`${reviews.reviewCreatedAt} >= ${dayStart(q.startDate, scope.timezone)}` : undefined,
    q.endDate ? sql`${reviews.reviewCreatedAt} < ${dayStart(q.endDate, scope.timezone)} + interval '1 day'` : undefined,
  ]);
  const [site] = rowsOf(await db.execute(sql`select count(*)::int as n from ${reviews}${whereClause(reviewsWhere)}`));
  const average = counts?.average_rating;
  return {
    invited: Number(counts?.invited ?? 0),
    clicked: Number(counts?.clicked ?? 0),
    posted: Number(counts?.posted ?? 0),
    average_rating: average === null || average === undefined ? null : Math.round(Number(average) * 100) / 100,
    new_reviews: Number(site?.n ?? 0),
  };
}

/**
 * The filters' options (`GET /api/v1/reputation/filters`): the client's locations with an API
 * endpoint set up (`{ _id, locationname }`, as `GET /api/endpoints` answers), its locations and
 * its personnel, archived ones left out, by name. They do not depend on the site.
 */
export async function filterOptions(db: Db, clientId: number): Promise<ReputationFilters> {
  const open = and(eq(locations.clientId, clientId), ne(locations.status, 'inactive'));
  const [endpoints, places, people] = await Promise.all([
    db
      .select({ _id: locations.id, locationname: locations.locationname })
      .from(locations)
      .innerJoin(endpointConfigs, eq(endpointConfigs.locationId, locations.id))
      .where(open)
      .orderBy(asc(locations.locationname), asc(locations.id)),
    db
      .select({ value: locations.id, label: locations.locationname })
      .from(locations)
      .where(open)
      .orderBy(asc(locations.locationname), asc(locations.id)),
    db
      .select({ id: personnel.id, first: personnel.firstName, last: personnel.lastName })
      .from(personnel)
      .where(and(eq(personnel.clientId, clientId), ne(personnel.status, 'inactive')))
      .orderBy(asc(personnel.lastName), asc(personnel.firstName), asc(personnel.id)),
  ]);
  return {
    apiEndpoints: endpoints,
    locations: places,
    personnels: people.map((p) => ({ value: String(p.id), label: `${p.first} ${p.last}` })),
  };
}
