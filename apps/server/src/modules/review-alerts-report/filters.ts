import { MAX_REPORT_DAYS, NEGATIVE_MAX_RATING, type ReviewAlertReportQuery } from '@admin/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type Db, rowsOf } from '../../db/client.ts';
import { clients, reviewAlertDeliveries, reviews } from '../../db/schema/index.ts';
import { allOf, inList } from '../../kit/keyset.ts';
import { fieldsRefused } from '../../lib/http-error.ts';

/** The report's filters as its screen labels them: every 422 names a field by these. */
export const REPORT_LABELS = {
  client: 'Clients',
  location: 'Locations',
  site: 'Sites',
  rating: 'Rating',
  startDate: 'Date from',
  endDate: 'Date to',
  delivery_status: 'Delivery status',
  responded: 'Responded',
} as const;

export type Filters = Omit<ReviewAlertReportQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;

const DAY_MS = 86_400_000;

/**
 * Reads the report's query string (the definition's list or export schema) or throws the 422
 * naming each field it refuses by its label: a value of no option, an end before the start, a range
 * over 366 days, locations of no chosen client (or that do not exist). The kit's own check would
 * answer a 400 "Invalid query"; a report's filters are a form, so they are refused as one.
 */
export async function readFilters<Q extends Filters>(db: Db, schema: z.ZodType<Q>, raw: unknown): Promise<Q> {
  const parsed = schema.safeParse(raw);
  const errors: Record<string, string[]> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'query');
      const label = Object.hasOwn(REPORT_LABELS, field) ? REPORT_LABELS[field as keyof typeof REPORT_LABELS] : field;
      const message =
        field === 'endDate' && issue.code === 'custom'
          ? `The ${REPORT_LABELS.endDate} field must be on or after the ${REPORT_LABELS.startDate}`
          : `The ${label} field is not valid: ${issue.message}`;
      errors[field] = [...(errors[field] ?? []), message];
    }
    throw fieldsRefused(errors, REPORT_LABELS);
  }
  const q = parsed.data;
  if (q.startDate && q.endDate) {
    const days = Math.round((Date.parse(`${q.endDate}T00:00:00Z`) - Date.parse(`${q.startDate}T00:00:00Z`)) / DAY_MS) + 1;
    if (days > MAX_REPORT_DAYS)
      errors.endDate = [`The ${REPORT_LABELS.endDate} field must be at most ${MAX_REPORT_DAYS} days after the ${REPORT_LABELS.startDate}`];
  }
  const locationIds = q.location ?? [];
  if (locationIds.length > 0) {
    const clientIds = (q.client ?? []).map(Number);
    const rows = rowsOf(
      await db.execute(sql`select v.id from unnest(${sql.param([...locationIds])}::text[]) as v(id)
        left join locations l on l._id = v.id
        where l._id is null${clientIds.length > 0 ? sql` or not (l.client_id = any(${sql.param(clientIds)}::int[]))` : sql``}`),
    );
    if (rows.length > 0)
      errors.location = [
        `The ${REPORT_LABELS.location} field holds ${rows.length === 1 ? 'a location' : `${rows.length} locations`} ${clientIds.length > 0 ? 'of no chosen client' : 'that does not exist'}: ${rows.map((r) => String(r.id)).join(', ')}`,
      ];
  }
  if (Object.keys(errors).length > 0) throw fieldsRefused(errors, REPORT_LABELS);
  return q;
}

/** Blank is no filter; anything else is the recipient as stored (addresses lower-case). */
const exact = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

/**
 * The WHERE of the list, export and cards over deliveries joined to their review and client. Dates are whole days in the client's zone, end date included; test sends are no
 * alerts of a review and never count.
 */
export function filtersWhere(q: Filters): SQL | undefined {
  const d = reviewAlertDeliveries;
  const search = exact(q.q);
  return allOf([
    sql`not ${d.test}`,
    inList(sql`${d.clientId}`, q.client?.map(Number)),
    inList(sql`${reviews.locationId}`, q.location),
    inList(sql`${reviews.site}`, q.site),
    inList(sql`${reviews.rating}`, q.rating?.map(Number)),
    inList(sql`${d.status}`, q.delivery_status),
    q.responded === 'yes' ? sql`${reviews.repliedAt} is not null` : undefined,
    q.responded === 'no' ? sql`${reviews.repliedAt} is null` : undefined,
    search ? sql`${d.recipient} = ${search.includes('@') ? search.toLowerCase() : search}` : undefined,
    q.startDate ? sql`${d.createdAt} >= (${q.startDate}::date::timestamp at time zone ${clients.timezone})` : undefined,
    q.endDate ? sql`${d.createdAt} < ((${q.endDate}::date + 1)::timestamp at time zone ${clients.timezone})` : undefined,
  ]);
}

/** A review counts as negative at this rating or below. */
export const negative = sql`${reviews.rating} <= ${NEGATIVE_MAX_RATING}`;
