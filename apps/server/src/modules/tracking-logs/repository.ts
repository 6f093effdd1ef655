import {
  isIdText,
  maskRecipient,
  type NotificationLog,
  type NotificationLogDetail,
  type NotificationLogListQuery,
  type OptionsAnswer,
  type OptionsQuery,
} from '@admin/shared';
import { asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, locations, notificationAttachments, notificationEvents, notificationLogs } from '../../db/schema/index.ts';
import { allOf, containsPattern, inList, type SortSpec } from '../../kit/keyset.ts';
import { keysetPage, timeThenId, whereClause } from '../../kit/keyset-page.ts';
import { countMatching } from '../../kit/totals.ts';
import { messageTimeline } from './timeline.ts';

type Sort = NonNullable<NotificationLogListQuery['sort']>;
type Filters = Omit<NotificationLogListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;
export type PageQuery = Filters & { sort?: Sort | undefined; order?: 'asc' | 'desc' | undefined; cursor?: string | undefined };

/** Each sort ends in (created_at, id): matching indexes exist (schema/notifications.ts). */
const newest = timeThenId(sql`${notificationLogs.createdAt}`, sql`${notificationLogs.id}`);
const SORTS: Record<Sort, SortSpec> = { created_at: newest.keys, status: newest.after(sql`${notificationLogs.status}`) };

/** The WHERE of a list or export; dates are whole days in UTC, end date inclusive. */
function filtersWhere(q: Filters): SQL | undefined {
  const like = containsPattern(q.q);
  const recipient = containsPattern(q.recipient);
  return allOf([
    inList(sql`${notificationLogs.clientId}`, q.client),
    inList(sql`${notificationLogs.channel}`, q.channel),
    inList(sql`${notificationLogs.type}`, q.type),
    inList(sql`${notificationLogs.status}`, q.status),
    // The address itself is searched here: the answer only ever holds it masked.
    recipient ? sql`${notificationLogs.recipient} ilike ${recipient}` : undefined,
    q.startDate ? sql`${notificationLogs.createdAt} >= ${q.startDate}::date` : undefined,
    q.endDate ? sql`${notificationLogs.createdAt} < (${q.endDate}::date + 1)` : undefined,
    like ? sql`(${notificationLogs.subjectOrTemplate} ilike ${like} or ${notificationLogs.providerMessageId} = ${q.q})` : undefined,
  ]);
}

const fields = {
  id: notificationLogs.id,
  createdAt: notificationLogs.createdAt,
  updatedAt: notificationLogs.updatedAt,
  clientId: notificationLogs.clientId,
  clientName: clients.name,
  clientTimezone: clients.timezone,
  locationId: notificationLogs.locationId,
  locationName: locations.locationname,
  channel: notificationLogs.channel,
  type: notificationLogs.type,
  recipient: notificationLogs.recipient,
  subjectOrTemplate: notificationLogs.subjectOrTemplate,
  providerMessageId: notificationLogs.providerMessageId,
  status: notificationLogs.status,
  relatedType: notificationLogs.relatedType,
  relatedId: notificationLogs.relatedId,
  error: notificationLogs.error,
  // Its invitation was a Send test. The CASE keeps a non-numeric related id from ever being cast.
  test: sql<boolean>`exists (select 1 from survey_processing_items i
    where ${notificationLogs.relatedType} = 'survey_processing_item' and i.source = 'manual_test'
      and i.id = case when ${notificationLogs.relatedId} ~ '^[0-9]{1,18}$' then ${notificationLogs.relatedId}::bigint end)`,
};

type Row = {
  id: number;
  createdAt: Date;
  updatedAt: Date;
  clientId: number | null;
  clientName: string | null;
  clientTimezone: string | null;
  locationId: string | null;
  locationName: string | null;
  channel: string;
  type: string;
  recipient: string;
  subjectOrTemplate: string;
  providerMessageId: string | null;
  status: string;
  relatedType: string | null;
  relatedId: string | null;
  error: string | null;
  test: boolean;
};

/** The record as answered: the recipient masked, the enums as the one sender wrote them (messaging/send.ts). */
function toRecord(r: Row): NotificationLog {
  return {
    id: Number(r.id),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    client_id: r.clientId,
    client_name: r.clientName,
    client_timezone: r.clientTimezone,
    location_id: r.locationId,
    location_name: r.locationName,
    channel: r.channel as NotificationLog['channel'],
    type: r.type as NotificationLog['type'],
    recipient: maskRecipient(r.recipient),
    subject_or_template: r.subjectOrTemplate,
    provider_message_id: r.providerMessageId,
    delivery_status: r.status as NotificationLog['delivery_status'],
    related_type: r.relatedType,
    related_id: r.relatedId,
    error: r.error,
    test: r.test,
  };
}

/** One keyset page: `limit` rows after `cursor` in the chosen sort (newest first by default). */
export async function listPage(db: Db, q: PageQuery, limit: number): Promise<{ rows: NotificationLog[]; nextCursor: string | null }> {
  const spec = { keys: SORTS[q.sort ?? 'created_at'], order: q.order ?? 'desc', where: filtersWhere(q), cursor: q.cursor, limit };
  const { page, nextCursor } = await keysetPage(spec, (p) =>
    db
      .select({ ...fields, ...p.fields })
      .from(notificationLogs)
      .leftJoin(clients, eq(clients.id, notificationLogs.clientId))
      .leftJoin(locations, eq(locations.id, notificationLogs.locationId))
      .where(p.where)
      .orderBy(...p.orderBy)
      .limit(p.limit),
  );
  return { rows: page.map(toRecord), nextCursor };
}

export function countLogs(db: Db, q: Filters) {
  const where = filtersWhere(q);
  return countMatching(db, sql`from ${notificationLogs}${whereClause(where)}`);
}

/** One message with its rendered body, status history and merged timeline (oldest first, timeline.ts). */
export async function findLog(db: Db, id: number): Promise<NotificationLogDetail | undefined> {
  const [row] = await db
    .select({ ...fields, bodyText: notificationLogs.bodyText, bodyHtml: notificationLogs.bodyHtml })
    .from(notificationLogs)
    .leftJoin(clients, eq(clients.id, notificationLogs.clientId))
    .leftJoin(locations, eq(locations.id, notificationLogs.locationId))
    .where(eq(notificationLogs.id, id))
    .limit(1);
  if (!row) return undefined;
  const events = await db
    .select({ status: notificationEvents.status, at: notificationEvents.at, detail: notificationEvents.detail })
    .from(notificationEvents)
    .where(eq(notificationEvents.notificationId, id))
    .orderBy(asc(notificationEvents.at), asc(notificationEvents.id));
  const { timeline, sesAddress } = await messageTimeline(db, { id, providerMessageId: row.providerMessageId });
  const files = await db
    .select({
      filename: notificationAttachments.filename,
      content_type: notificationAttachments.contentType,
      size_bytes: notificationAttachments.sizeBytes,
    })
    .from(notificationAttachments)
    .where(eq(notificationAttachments.notificationId, id))
    .orderBy(asc(notificationAttachments.id));
  return {
    ...toRecord(row),
    body_text: row.bodyText,
    body_html: row.bodyHtml,
    events: events.map((e) => ({ status: e.status as NotificationLog['delivery_status'], at: e.at.toISOString(), detail: e.detail })),
    timeline,
    ses_address: sesAddress,
    attachments: files,
  };
}

/**
 * The Clients filter's options, paged on the server (`optionsQuerySchema`): by name, at most
 * `perPage` matching what was typed, then the chosen ones, so their labels show.
 */
export async function clientOptions(db: Db, q: OptionsQuery): Promise<OptionsAnswer> {
  const like = containsPattern(q.q);
  const pick = () => db.select({ id: clients.id, name: clients.name }).from(clients);
  const rows = await pick()
    .where(like ? sql`${clients.name} ilike ${like}` : undefined)
    .orderBy(sql`lower(${clients.name})`, clients.id)
    .limit(q.perPage + 1);
  const found = rows.slice(0, q.perPage).map((r) => ({ value: String(r.id), label: r.name }));
  // Only ids an int4 column can hold are looked up: anything else chosen matches no client.
  const missing = (q.value ?? []).filter((v) => isIdText(v) && !found.some((o) => o.value === v));
  const chosen = missing.length === 0 ? [] : await pick().where(inList(sql`${clients.id}`, missing.map(Number)));
  return { data: [...found, ...chosen.map((r) => ({ value: String(r.id), label: r.name }))], more: rows.length > q.perPage };
}
