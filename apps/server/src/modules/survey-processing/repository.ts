import { maskRecipient } from '@admin/shared';
import type {
  ProcessingItem,
  ProcessingItemDetail,
  ProcessingItemFilters,
  ProcessingItemListQuery,
} from '@admin/shared/resources/survey-processing';
import { asc, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  clients,
  surveyProcessingItems as items,
  locations,
  notificationLogs,
  personnel,
  products,
  referralSources,
  surveys,
} from '../../db/schema/index.ts';
import { afterCursor, allOf, cursorFields, decodeCursor, inList, orderBy, pageOf, prefixPattern, type SortSpec } from '../../kit/keyset.ts';
import { clientDayRange } from '../../kit/local-days.ts';
import { countMatching } from '../../kit/totals.ts';

export type PageQuery = ProcessingItemFilters & {
  sort?: ProcessingItemListQuery['sort'] | undefined;
  order?: 'asc' | 'desc' | undefined;
  cursor?: string | undefined;
};

/**
 * Newest first by (created_at, id): the indexes (created_at, id), (client_id, created_at, id) and
 * (client_id, status, created_at, id) in schema/surveys.ts serve the first page, a page millions of
 * rows deep and the client + status + date range filter (bench/pipeline/processing.ts).
 */
const KEYS: SortSpec = [
  { expr: sql`${items.createdAt}`, cast: 'timestamptz' },
  { expr: sql`${items.id}`, cast: 'integer' },
];

/**
 * The search: invitations whose transaction id, e-mail, phone or name ("first last") starts with
 * the text, case aside ("POS-900" finds "POS-9001"). Only a prefix: each is a range scan of its
 * index in schema/surveys.ts (`*_prefix_idx`), so it stays quick over millions of invitations,
 * where a "contains" search read them all. The expressions are the indexes' own, word for word. A
 * phone may be typed without "+" and, in the US (the default when received), without "+1".
 */
function searchWhere(text: string | undefined): SQL | undefined {
  const term = text?.trim().toLowerCase();
  if (!term) return undefined;
  const prefix = prefixPattern(term);
  const digits = term.replace(/\D/g, '');
  const phones =
    /^\+?[\d\s().-]+$/.test(term) && digits.length >= 3 ? [`+${digits}%`, ...(term.startsWith('+') ? [] : [`+1${digits}%`])] : [];
  return sql`(lower(${items.transactionId}) like ${prefix} or ${items.email} like ${prefix} or lower(${items.firstName} || ' ' || coalesce(${items.lastName}, '')) like ${prefix}${sql.join(
    phones.map((p) => sql` or ${items.phone} like ${p}`),
  )})`;
}

/** The WHERE of a list, count, export or bulk retry; dates are whole days of each item's client, end date inclusive. */
export function filtersWhere(q: ProcessingItemFilters): SQL | undefined {
  const day = q.date_on === 'sent' ? sql`${items.sentAt}` : sql`${items.createdAt}`;
  return allOf([
    inList(sql`${items.clientId}`, q.client?.map(Number)),
    inList(sql`${items.locationId}`, q.location),
    inList(sql`${items.surveyId}`, q.survey?.map(Number)),
    inList(sql`${items.status}`, q.status),
    q.channel ? sql`${items.channel} = ${q.channel}` : undefined,
    inList(sql`${items.personnelId}`, q.personnel?.map(Number)),
    q.test === undefined ? undefined : q.test === 'yes' ? sql`${items.source} = 'manual_test'` : sql`${items.source} <> 'manual_test'`,
    ...clientDayRange(day, sql`${items.clientId}`, q.startDate, q.endDate),
    // The contact itself is searched here: the list only ever answers it masked.
    searchWhere(q.q),
  ]);
}

/**
 * A name shown beside the invitation, looked up by key in a scalar subquery rather than a join:
 * the page query then plans in ~2 ms instead of ~20 ms (six left joins on a table with many
 * indexes; bench/pipeline/processing.ts), and runs the same index lookups.
 */
const nameOf = (table: PgTable, name: SQL | PgColumn, match: SQL) => sql<string | null>`(select ${name} from ${table} where ${match})`;

const fields = {
  id: items.id,
  createdAt: items.createdAt,
  clientId: items.clientId,
  clientName: nameOf(clients, clients.name, sql`${clients.id} = ${items.clientId}`),
  clientTimezone: nameOf(clients, clients.timezone, sql`${clients.id} = ${items.clientId}`),
  locationId: items.locationId,
  locationName: nameOf(locations, locations.locationname, sql`${locations.id} = ${items.locationId}`),
  firstName: items.firstName,
  lastName: items.lastName,
  email: items.email,
  phone: items.phone,
  transactionId: items.transactionId,
  transactionDate: items.transactionDate,
  personnelId: items.personnelId,
  personnelName: nameOf(
    personnel,
    sql`coalesce(${personnel.displayName}, ${personnel.firstName} || ' ' || ${personnel.lastName})`,
    sql`${personnel.id} = ${items.personnelId}`,
  ),
  productName: nameOf(products, products.name, sql`${products.id} = ${items.productId}`),
  referralSourceName: nameOf(referralSources, referralSources.name, sql`${referralSources.id} = ${items.referralSourceId}`),
  surveyId: items.surveyId,
  surveyName: nameOf(surveys, surveys.name, sql`${surveys.id} = ${items.surveyId}`),
  channel: items.channel,
  scheduledAt: items.scheduledAt,
  sentAt: items.sentAt,
  attempts: items.attempts,
  status: items.status,
  skipReason: items.skipReason,
  lastError: items.lastError,
  source: items.source,
};

type Row = {
  id: number;
  createdAt: Date;
  clientId: number;
  clientName: string | null;
  clientTimezone: string | null;
  locationId: string | null;
  locationName: string | null;
  firstName: string;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  transactionId: string | null;
  transactionDate: string | null;
  personnelId: number | null;
  personnelName: string | null;
  productName: string | null;
  referralSourceName: string | null;
  surveyId: number;
  surveyName: string | null;
  channel: ProcessingItem['channel'];
  scheduledAt: Date | null;
  sentAt: Date | null;
  attempts: number;
  status: ProcessingItem['item_status'];
  skipReason: string | null;
  lastError: string | null;
  source: ProcessingItem['source'];
};

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

function toRecord(r: Row): ProcessingItem {
  return {
    id: r.id,
    created_at: r.createdAt.toISOString(),
    client_id: r.clientId,
    client_name: r.clientName,
    client_timezone: r.clientTimezone,
    location_id: r.locationId,
    location_name: r.locationName,
    customer: `${r.firstName} ${r.lastName ?? ''}`.trim(),
    email: r.email === null ? null : maskRecipient(r.email),
    phone: r.phone === null ? null : maskRecipient(r.phone),
    transaction_id: r.transactionId,
    transaction_date: r.transactionDate,
    personnel_id: r.personnelId,
    personnel_name: r.personnelName,
    product_name: r.productName,
    referral_source_name: r.referralSourceName,
    survey_id: r.surveyId,
    survey_name: r.surveyName,
    channel: r.channel,
    scheduled_at: iso(r.scheduledAt),
    sent_at: iso(r.sentAt),
    attempts: r.attempts,
    item_status: r.status,
    reason: r.status === 'failed' ? (r.lastError ?? r.skipReason) : (r.skipReason ?? r.lastError),
    source: r.source,
  };
}

/** The list's rows with the names they show. */
function selectItems<T extends SelectedFields>(db: Db, extra: T) {
  return db.select({ ...fields, ...extra }).from(items);
}

/** Up to this many matches, a search's page is read from its matches (see `matchedIds`). */
const SEARCH_MATCHES_READ = 2000;

/**
 * A search's matches by id when they are few: left alone, the planner may walk the newest-first
 * index for a page of them and, when they are old, read most of the table (605 ms over 1,000,000
 * invitations on PostgreSQL for 1,111 matches five days old); read through the prefix indexes and
 * sorted, the same page took 6 ms. Many matches are dense enough for that walk to find a page at
 * once, so above the limit the search is left to it (undefined).
 */
async function matchedIds(db: Db, text: string | undefined): Promise<SQL | undefined> {
  const search = searchWhere(text);
  if (!search) return undefined;
  const rows = await db
    .select({ id: items.id })
    .from(items)
    .where(search)
    .limit(SEARCH_MATCHES_READ + 1);
  if (rows.length > SEARCH_MATCHES_READ) return undefined;
  return rows.length === 0
    ? sql`false`
    : inList(
        sql`${items.id}`,
        rows.map((r) => r.id),
      );
}

/** One keyset page: `limit` invitations after `cursor`, newest first unless `order=asc`. */
export async function listPage(db: Db, q: PageQuery, limit: number): Promise<{ rows: ProcessingItem[]; nextCursor: string | null }> {
  const order = q.order ?? 'desc';
  const matched = await matchedIds(db, q.q);
  const rows = await selectItems(db, cursorFields(KEYS))
    .where(allOf([filtersWhere(q), matched, q.cursor ? afterCursor(KEYS, order, decodeCursor(q.cursor, KEYS)) : undefined]))
    .orderBy(...orderBy(KEYS, order))
    .limit(limit + 1);
  const { page, nextCursor } = pageOf(rows, limit, KEYS);
  return { rows: page.map(toRecord), nextCursor };
}

export function countItems(db: Db, q: ProcessingItemFilters) {
  const where = filtersWhere(q);
  return countMatching(db, sql`from ${items}${where ? sql` where ${where}` : sql``}`);
}

/** One invitation in full: the row as received, the mapped fields, the rule's outcome and its messages. */
export async function findItem(db: Db, id: number): Promise<ProcessingItemDetail | undefined> {
  const [row] = await selectItems(db, {
    amount: items.amount,
    smsOptIn: items.smsOptIn,
    dataFeedId: items.dataFeedId,
    runId: items.runId,
    rowNumber: items.rowNumber,
    raw: items.raw,
    remindersSent: items.remindersSent,
    expiresAt: items.expiresAt,
  })
    .where(eq(items.id, id))
    .limit(1);
  if (!row) return undefined;
  const messages = await db
    .select({
      id: notificationLogs.id,
      createdAt: notificationLogs.createdAt,
      channel: notificationLogs.channel,
      type: notificationLogs.type,
      recipient: notificationLogs.recipient,
      subjectOrTemplate: notificationLogs.subjectOrTemplate,
      status: notificationLogs.status,
      error: notificationLogs.error,
    })
    .from(notificationLogs)
    .where(sql`${notificationLogs.relatedType} = 'survey_processing_item' and ${notificationLogs.relatedId} = ${String(id)}`)
    .orderBy(asc(notificationLogs.createdAt), asc(notificationLogs.id));
  return {
    ...toRecord(row),
    first_name: row.firstName,
    last_name: row.lastName,
    email_full: row.email,
    phone_full: row.phone,
    amount: row.amount,
    sms_opt_in: row.smsOptIn,
    data_feed_id: row.dataFeedId,
    run_id: row.runId,
    row_number: row.rowNumber,
    raw: row.raw,
    skip_reason: row.skipReason,
    last_error: row.lastError,
    reminders_sent: row.remindersSent,
    expires_at: row.expiresAt.toISOString(),
    messages: messages.map((m) => ({
      id: Number(m.id),
      created_at: m.createdAt.toISOString(),
      channel: m.channel,
      type: m.type,
      recipient: maskRecipient(m.recipient),
      subject_or_template: m.subjectOrTemplate,
      delivery_status: m.status,
      error: m.error,
    })),
  };
}
