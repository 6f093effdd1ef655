import { DEFAULT_REVIEW_SITE, REVIEW_EXCERPT_MAX, type ReputationItem, type ReputationListQuery } from '@admin/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { amplifications, locations, personnel, reviews } from '../../db/schema/index.ts';
import { allOf, inList } from '../../kit/keyset.ts';
import { keysetPage, timeThenId } from '../../kit/keyset-page.ts';
import type { Page } from '../../kit/list-routes.ts';

/** The panel's scope: one client (checked against the tab's, routes.ts) and its zone, for whole days. */
export type Scope = { clientId: number; timezone: string };
export type Filters = Omit<ReputationListQuery, 'sort' | 'order' | 'perPage' | 'cursor' | 'clientId'>;

/**
 * A day of the client's zone as the moment it starts: the date range's days are the client's, as
 * the screen shows its times (decision 041), so "today" is the client's today.
 */
const dayStart = (day: string, zone: string): SQL => sql`((${day}::date)::timestamp at time zone ${zone})`;

/**
 * The list's, the export's and the KPI cards' WHERE on amplifications: the client and site first,
 * so `amplifications_client_site_invited_idx` (client_id, site, invited_at, id) serves them all.
 * API endpoints and Locations both narrow the location: a row must be in each list given.
 */
export function amplificationsWhere(scope: Scope, q: Filters): SQL | undefined {
  const search = q.q?.trim();
  return allOf([
    sql`${amplifications.clientId} = ${scope.clientId}`,
    sql`${amplifications.site} = ${q.site ?? DEFAULT_REVIEW_SITE}`,
    inList(sql`${amplifications.locationId}`, q.endpoint),
    inList(sql`${amplifications.locationId}`, q.location),
    inList(sql`${amplifications.personnelId}`, q.personnel?.map(Number)),
    inList(sql`${amplifications.status}`, q.status),
    q.startDate ? sql`${amplifications.invitedAt} >= ${dayStart(q.startDate, scope.timezone)}` : undefined,
    q.endDate ? sql`${amplifications.invitedAt} < ${dayStart(q.endDate, scope.timezone)} + interval '1 day'` : undefined,
    // A prefix of the customer's name, as typed (case aside); LIKE's own characters are taken literally.
    search ? sql`lower(${amplifications.customerName}) like ${`${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined,
  ]);
}

/** Newest invitation first by default; (invited_at, id) is the index's own order. */
const SORT = timeThenId(sql`${amplifications.invitedAt}`, sql`${amplifications.id}`).keys;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** One keyset page of the panel, each row with its matched review (by `review_id`). */
export async function listPage(db: Db, scope: Scope, q: ReputationListQuery, limit: number): Promise<Page<ReputationItem>> {
  const spec = { keys: SORT, order: q.order ?? 'desc', where: amplificationsWhere(scope, q), cursor: q.cursor, limit };
  const { page, nextCursor } = await keysetPage(spec, (p) =>
    db
      .select({
        ...p.fields,
        a: amplifications,
        locationName: locations.locationname,
        personnelName: sql<string | null>`${personnel.firstName} || ' ' || ${personnel.lastName}`,
        reviewCreatedAt: reviews.createdAt,
        rating: reviews.rating,
        recommend: reviews.recommend,
        excerpt: sql<string | null>`left(${reviews.text}, ${REVIEW_EXCERPT_MAX + 1})`,
        url: reviews.url,
      })
      .from(amplifications)
      .leftJoin(locations, eq(locations.id, amplifications.locationId))
      .leftJoin(personnel, eq(personnel.id, amplifications.personnelId))
      .leftJoin(reviews, eq(reviews.id, amplifications.reviewId))
      .where(p.where)
      .orderBy(...p.orderBy)
      .limit(p.limit),
  );
  const rows = page.map(({ a, ...r }): ReputationItem => {
    // A text longer than the excerpt ends in an ellipsis, so the cell does not read as the whole review.
    const excerpt = r.excerpt !== null && r.excerpt.length > REVIEW_EXCERPT_MAX ? `${r.excerpt.slice(0, REVIEW_EXCERPT_MAX)}…` : r.excerpt;
    return {
      id: Number(a.id),
      client_id: a.clientId,
      client_timezone: scope.timezone,
      invited_at: a.invitedAt.toISOString(),
      location_id: a.locationId,
      location_name: r.locationName,
      personnel_id: a.personnelId,
      personnel_name: r.personnelName,
      customer_name: a.customerName,
      survey_score: a.surveyScore,
      site: a.site,
      channel: a.channel,
      clicked_at: iso(a.clickedAt),
      reminder_sent_at: iso(a.reminderSentAt),
      review_id: a.reviewId === null ? null : Number(a.reviewId),
      review_detected_at: iso(r.reviewCreatedAt),
      review_rating: r.rating,
      review_recommend: r.recommend,
      review_excerpt: excerpt,
      review_url: r.url,
      match_confidence: a.matchConfidence,
      suggested_review_id: a.suggestedReviewId === null ? null : Number(a.suggestedReviewId),
      suggested_confidence: a.suggestedConfidence,
      status: a.status as ReputationItem['status'],
      status_reason: a.statusReason,
    };
  });
  return { rows, nextCursor };
}
