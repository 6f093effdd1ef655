import type { SesEvent, SesEventDetail, SesEventListQuery } from '@admin/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, sesEvents } from '../../db/schema/index.ts';
import { allOf, inList, type SortSpec } from '../../kit/keyset.ts';
import { keysetPage, timeThenId, whereClause } from '../../kit/keyset-page.ts';
import { countMatching } from '../../kit/totals.ts';

type Sort = NonNullable<SesEventListQuery['sort']>;
type Filters = Omit<SesEventListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;
export type PageQuery = Filters & { sort?: Sort | undefined; order?: 'asc' | 'desc' | undefined; cursor?: string | undefined };

/** The one sort ends in (event_at, id): each filter's index ends so too (schema/deliverability.ts). */
const SORTS: Record<Sort, SortSpec> = { event_at: timeThenId(sql`${sesEvents.eventAt}`, sql`${sesEvents.id}`).keys };

/** Blank is no filter; anything else is the address or id as stored (addresses lower-case). */
const exact = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

/**
 * The WHERE of a list or export; dates are whole days in UTC, end date inclusive. The recipient,
 * message id and search match whole values, so each is an index walk among millions of events
 * (docs/decisions/060-ses-screens.md).
 */
function filtersWhere(q: Filters): SQL | undefined {
  const recipient = exact(q.recipient)?.toLowerCase();
  const messageId = exact(q.message_id);
  const search = exact(q.q);
  return allOf([
    inList(sql`${sesEvents.eventType}`, q.event_type),
    inList(sql`${sesEvents.clientId}`, q.client),
    inList(sql`${sesEvents.bounceType}`, q.bounce_type),
    recipient ? sql`${sesEvents.recipient} = ${recipient}` : undefined,
    messageId ? sql`${sesEvents.messageId} = ${messageId}` : undefined,
    search ? sql`(${sesEvents.messageId} = ${search} or ${sesEvents.recipient} = ${search.toLowerCase()})` : undefined,
    q.startDate ? sql`${sesEvents.eventAt} >= ${q.startDate}::date` : undefined,
    q.endDate ? sql`${sesEvents.eventAt} < (${q.endDate}::date + 1)` : undefined,
  ]);
}

const fields = {
  id: sesEvents.id,
  eventAt: sesEvents.eventAt,
  eventType: sesEvents.eventType,
  recipient: sesEvents.recipient,
  source: sesEvents.source,
  subject: sesEvents.subject,
  messageId: sesEvents.messageId,
  configurationSet: sesEvents.configurationSet,
  bounceType: sesEvents.bounceType,
  bounceSubtype: sesEvents.bounceSubtype,
  complaintFeedbackType: sesEvents.complaintFeedbackType,
  diagnosticCode: sesEvents.diagnosticCode,
  reportingMta: sesEvents.reportingMta,
  clientId: sesEvents.clientId,
  clientName: clients.name,
  clientTimezone: clients.timezone,
  notificationId: sesEvents.notificationId,
};

type Row = {
  id: number;
  eventAt: Date;
  eventType: string;
  recipient: string;
  source: string;
  subject: string | null;
  messageId: string;
  configurationSet: string | null;
  bounceType: string | null;
  bounceSubtype: string | null;
  complaintFeedbackType: string | null;
  diagnosticCode: string | null;
  reportingMta: string | null;
  clientId: number | null;
  clientName: string | null;
  clientTimezone: string | null;
  notificationId: number | null;
};

function toRecord(r: Row): SesEvent {
  return {
    id: Number(r.id),
    event_at: r.eventAt.toISOString(),
    event_type: r.eventType,
    recipient: r.recipient,
    source: r.source,
    subject: r.subject,
    message_id: r.messageId,
    configuration_set: r.configurationSet,
    bounce_type: r.bounceType,
    bounce_subtype: r.bounceSubtype,
    complaint_feedback_type: r.complaintFeedbackType,
    diagnostic_code: r.diagnosticCode,
    reporting_mta: r.reportingMta,
    client_id: r.clientId,
    client_name: r.clientName,
    client_timezone: r.clientTimezone,
    notification_id: r.notificationId === null ? null : Number(r.notificationId),
  };
}

/** One keyset page: `limit` events after `cursor`, newest first by default. */
export async function listPage(db: Db, q: PageQuery, limit: number): Promise<{ rows: SesEvent[]; nextCursor: string | null }> {
  const spec = { keys: SORTS[q.sort ?? 'event_at'], order: q.order ?? 'desc', where: filtersWhere(q), cursor: q.cursor, limit };
  const { page, nextCursor } = await keysetPage(spec, (p) =>
    db
      .select({ ...fields, ...p.fields })
      .from(sesEvents)
      .leftJoin(clients, eq(clients.id, sesEvents.clientId))
      .where(p.where)
      .orderBy(...p.orderBy)
      .limit(p.limit),
  );
  return { rows: page.map(toRecord), nextCursor };
}

export function countEvents(db: Db, q: Filters) {
  return countMatching(db, sql`from ${sesEvents}${whereClause(filtersWhere(q))}`);
}

/** One event with the SES JSON as SNS carried it (View raw JSON). */
export async function findEvent(db: Db, id: number): Promise<SesEventDetail | undefined> {
  const [row] = await db
    .select({ ...fields, raw: sesEvents.raw, snsMessageId: sesEvents.snsMessageId, receivedAt: sesEvents.receivedAt })
    .from(sesEvents)
    .leftJoin(clients, eq(clients.id, sesEvents.clientId))
    .where(eq(sesEvents.id, id))
    .limit(1);
  if (!row) return undefined;
  return { ...toRecord(row), raw: row.raw, sns_message_id: row.snsMessageId, received_at: row.receivedAt.toISOString() };
}
