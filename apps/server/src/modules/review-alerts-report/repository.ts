import { REPLY_WINDOW_HOURS, type ReviewAlertReportCards, type ReviewAlertReportQuery, type ReviewAlertReportRow } from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { clients, locations, reviewAlertDeliveries, reviewAlertRules, reviews } from '../../db/schema/index.ts';
import { keysetPage, timeThenId, whereClause } from '../../kit/keyset-page.ts';
import { countMatching } from '../../kit/totals.ts';
import { boundedRead } from '../../lib/bounded-read.ts';
import { type Filters, filtersWhere, negative } from './filters.ts';

export type PageQuery = Filters & Pick<ReviewAlertReportQuery, 'sort' | 'order' | 'cursor'>;

const d = reviewAlertDeliveries;
/** Newest alert first: (created_at, id), the order review_alert_deliveries_client_idx keeps per client. */
const SORT = timeThenId(sql`${d.createdAt}`, sql`${d.id}`).keys;
/** How much of a review's text the row shows. */
const EXCERPT_CHARS = 140;
const hoursToReply = sql<
  number | null
>`round((extract(epoch from (${reviews.repliedAt} - ${reviews.reviewCreatedAt})) / 3600)::numeric, 1)::float8`;

const fields = {
  id: d.id,
  reviewId: d.reviewId,
  reviewCreatedAt: reviews.reviewCreatedAt,
  clientId: d.clientId,
  clientName: clients.name,
  clientTimezone: clients.timezone,
  locationName: locations.locationname,
  site: reviews.site,
  rating: reviews.rating,
  reviewer: reviews.authorName,
  excerpt: sql<string | null>`left(${reviews.text}, ${EXCERPT_CHARS})`,
  url: reviews.url,
  ruleName: reviewAlertRules.name,
  channel: d.channel,
  recipient: d.recipient,
  sentAt: d.sentAt,
  status: d.status,
  reason: d.reason,
  repliedAt: reviews.repliedAt,
  hoursToReply,
};

type Row = {
  id: number;
  reviewId: number | null;
  reviewCreatedAt: Date | null;
  clientId: number;
  clientName: string;
  clientTimezone: string;
  locationName: string | null;
  site: string | null;
  rating: number | null;
  reviewer: string | null;
  excerpt: string | null;
  url: string | null;
  ruleName: string;
  channel: string;
  recipient: string;
  sentAt: Date | null;
  status: string;
  reason: string | null;
  repliedAt: Date | null;
  hoursToReply: number | null;
};

const iso = (v: Date | null): string | null => (v === null ? null : v.toISOString());

function toRecord(r: Row): ReviewAlertReportRow {
  return {
    id: Number(r.id),
    review_id: r.reviewId === null ? null : Number(r.reviewId),
    review_created_at: iso(r.reviewCreatedAt),
    client_id: r.clientId,
    client_name: r.clientName,
    client_timezone: r.clientTimezone,
    location_name: r.locationName,
    site: r.site,
    rating: r.rating,
    reviewer: r.reviewer,
    excerpt: r.excerpt,
    url: r.url,
    rule_name: r.ruleName,
    channel: r.channel,
    recipient: r.recipient,
    sent_at: iso(r.sentAt),
    delivery_status: r.status,
    reason: r.reason,
    replied_at: iso(r.repliedAt),
    hours_to_reply: r.hoursToReply === null ? null : Number(r.hoursToReply),
  };
}

/** The joins every read shares: a delivery's rule, client, review and the review's location. */
const joined = sql`from ${d}
  join ${reviewAlertRules} on ${reviewAlertRules.id} = ${d.ruleId}
  join ${clients} on ${clients.id} = ${d.clientId}
  left join ${reviews} on ${reviews.id} = ${d.reviewId}`;

/** One keyset page: `limit` deliveries after `cursor`, newest alert first by default. */
export async function listPage(db: Db, q: PageQuery, limit: number): Promise<{ rows: ReviewAlertReportRow[]; nextCursor: string | null }> {
  const spec = { keys: SORT, order: q.order ?? 'desc', where: filtersWhere(q), cursor: q.cursor, limit };
  const { page, nextCursor } = await keysetPage(spec, (p) =>
    db
      .select({ ...fields, ...p.fields })
      .from(d)
      .innerJoin(reviewAlertRules, eq(reviewAlertRules.id, d.ruleId))
      .innerJoin(clients, eq(clients.id, d.clientId))
      .leftJoin(reviews, eq(reviews.id, d.reviewId))
      .leftJoin(locations, eq(locations.id, reviews.locationId))
      .where(p.where)
      .orderBy(...p.orderBy)
      .limit(p.limit),
  );
  return { rows: page.map(toRecord), nextCursor };
}

export async function countDeliveries(db: Db, q: Filters) {
  return countMatching(db, sql`${joined}${whereClause(filtersWhere(q))}`);
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * The cards over the whole filter (domain.md §27), in one pass over the matching deliveries and
 * then over their distinct reviews; bounded by the reports' statement timeout (lib/bounded-read.ts: a 503 saying how
 * to narrow it).
 */
export async function reportCards(db: Db, q: Filters, timeoutMs?: number): Promise<ReviewAlertReportCards> {
  return boundedRead(
    db,
    async (tx) => {
      const [row] = rowsOf(
        await tx.execute(sql`
        with matching as (
          select ${d.reviewId} as review_id, ${d.status} as status, (${negative}) as negative,
            ${reviews.reviewCreatedAt} as created_at, ${reviews.repliedAt} as replied_at
          ${joined}${whereClause(filtersWhere(q))}),
        alerted as (
          select distinct on (review_id) review_id, negative, created_at, replied_at
          from matching where review_id is not null)
        select
          (select count(*) from matching where status = 'failed') as delivery_failures,
          count(*) as reviews_alerted,
          count(*) filter (where negative) as negative_alerted,
          count(*) filter (where negative and replied_at is not null
            and replied_at - created_at <= make_interval(hours => ${REPLY_WINDOW_HOURS})) as negative_replied,
          percentile_cont(0.5) within group (order by extract(epoch from (replied_at - created_at)) / 3600)
            filter (where replied_at is not null) as median_hours
        from alerted`),
      );
      const negativeAlerted = Number(row?.negative_alerted ?? 0);
      const replied = Number(row?.negative_replied ?? 0);
      const median = num(row?.median_hours);
      return {
        reviews_alerted: Number(row?.reviews_alerted ?? 0),
        negative_alerted: negativeAlerted,
        delivery_failures: Number(row?.delivery_failures ?? 0),
        negative_replied_48h_pct: negativeAlerted === 0 ? null : Math.round((replied / negativeAlerted) * 1000) / 10,
        median_hours_to_reply: median === null ? null : Math.round(median * 10) / 10,
      };
    },
    { what: "The Review Alerts Report's cards", timeoutMs },
  );
}
