import type { ReputationFilters, ReputationKpis } from '@admin/shared';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { endpointConfigs, locations, personnel } from '../../db/schema/index.ts';
import { amplificationCounts, newReviewsCount } from './kpi-counts.ts';
import type { Filters, Scope } from './repository.ts';

/**
 * The KPI cards for the list's filters: the amplification counts (kpi-counts.ts: the summary for
 * whole UTC days, the raw rows for the range's edges), and the site's new reviews, amplified or
 * not, counted the same way (newReviewsCount).
 */
export async function kpisOf(db: Db, scope: Scope, q: Filters): Promise<ReputationKpis> {
  return db.transaction(async (tx) => {
    // The raw paths' per-row review lookup makes the planner cost them high enough to JIT-compile:
    // ~450 ms of compiling for ~40 ms of work on 80,000 rows (bench/README.md, Reputation Panel).
    await tx.execute(sql`set local jit = off`);
    return kpisIn(tx, scope, q);
  });
}

async function kpisIn(db: Db, scope: Scope, q: Filters): Promise<ReputationKpis> {
  const counts = await amplificationCounts(db, scope, q);
  const newReviews = await newReviewsCount(db, scope, q);
  return {
    invited: counts.invited,
    clicked: counts.clicked,
    posted: counts.posted,
    average_rating: counts.rated === 0 ? null : Math.round((counts.ratingSum / counts.rated) * 100) / 100,
    new_reviews: newReviews,
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
