import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { notFound } from '../../lib/http-error.ts';

/** One amplification of a client, with what the row actions need of its response and invitation. */
export type Amp = {
  id: number;
  clientId: number;
  clientName: string;
  clientTimezone: string;
  locationId: string;
  locationName: string;
  responseId: number;
  site: string;
  channel: string;
  status: string;
  customerName: string;
  invitedAt: Date;
  clickedAt: Date | null;
  reminderSentAt: Date | null;
  reviewId: number | null;
  suggestedReviewId: number | null;
  comment: string | null;
  firstName: string;
  email: string | null;
  phone: string | null;
  smsOptIn: boolean;
};

const dateOr = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));
const textOr = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The amplification `id` of `clientId` (another client's is not found, as an unknown one). */
export async function findAmp(db: Db, clientId: number, id: number): Promise<Amp> {
  const [r] = rowsOf(
    await db.execute(sql`
      select a.id, a.client_id, c.name as client_name, c.timezone, a.location_id, l.locationname, a.response_id, a.site, a.channel,
             a.status, a.customer_name, a.invited_at, a.clicked_at, a.reminder_sent_at, a.review_id, a.suggested_review_id,
             sr.comment, i.first_name, i.email, i.phone, i.sms_opt_in
        from amplifications a
        join clients c on c.id = a.client_id
        join locations l on l._id = a.location_id
        join survey_responses sr on sr.id = a.response_id
        join survey_processing_items i on i.id = sr.processing_item_id
       where a.id = ${id} and a.client_id = ${clientId}`),
  );
  if (!r) throw notFound('Review invitation');
  return {
    id: Number(r.id),
    clientId: Number(r.client_id),
    clientName: String(r.client_name),
    clientTimezone: typeof r.timezone === 'string' ? r.timezone : 'UTC',
    locationId: String(r.location_id),
    locationName: String(r.locationname),
    responseId: Number(r.response_id),
    site: String(r.site),
    channel: String(r.channel),
    status: String(r.status),
    customerName: String(r.customer_name),
    invitedAt: dateOr(r.invited_at) ?? new Date(0),
    clickedAt: dateOr(r.clicked_at),
    reminderSentAt: dateOr(r.reminder_sent_at),
    reviewId: r.review_id === null ? null : Number(r.review_id),
    suggestedReviewId: r.suggested_review_id === null ? null : Number(r.suggested_review_id),
    comment: textOr(r.comment),
    firstName: String(r.first_name),
    email: textOr(r.email),
    phone: textOr(r.phone),
    smsOptIn: r.sms_opt_in === true,
  };
}
