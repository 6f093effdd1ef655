import type { FeedMapping } from '@admin/shared';
import type {
  FeedRun,
  FeedRunDetail,
  FeedRunListQuery,
  SurveyChange,
  SurveyChangeListQuery,
} from '@admin/shared/resources/survey-manager-logs';
import { asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  clients,
  dataFeedRowErrors,
  dataFeedRuns,
  dataFeeds,
  surveyChangeLogs,
  surveyProcessingItems,
  surveys,
  users,
} from '../../db/schema/index.ts';
import {
  afterCursor,
  allOf,
  containsPattern,
  cursorFields,
  decodeCursor,
  inList,
  orderBy,
  pageOf,
  type SortSpec,
} from '../../kit/keyset.ts';
import { countMatching } from '../../kit/totals.ts';
import { rejectedColumns } from './rejected-rows.ts';

type Paging = { order?: 'asc' | 'desc' | undefined; cursor?: string | undefined };
type RunFilters = Omit<FeedRunListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;
type ChangeFilters = Omit<SurveyChangeListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;

/** Newest first; the indexes (client_id, started_at, id) and (client_id, at, id) are in schema/pipeline.ts. */
const RUN_KEYS: SortSpec = [
  { expr: sql`${dataFeedRuns.startedAt}`, cast: 'timestamptz' },
  { expr: sql`${dataFeedRuns.id}`, cast: 'integer' },
];
const CHANGE_KEYS: SortSpec = [
  { expr: sql`${surveyChangeLogs.at}`, cast: 'timestamptz' },
  { expr: sql`${surveyChangeLogs.id}`, cast: 'bigint' },
];

/** Whole days in UTC, end date inclusive. */
const dayRange = (column: SQL, q: { startDate?: string | undefined; endDate?: string | undefined }) => [
  q.startDate ? sql`${column} >= ${q.startDate}::date` : undefined,
  q.endDate ? sql`${column} < (${q.endDate}::date + 1)` : undefined,
];

/** Keyset page of any query: `limit` rows after the cursor, and the next cursor. */
async function keysetPage<T extends Record<string, unknown>, R>(
  rows: (keys: SortSpec, order: 'asc' | 'desc', after: SQL | undefined) => Promise<T[]>,
  keys: SortSpec,
  q: Paging,
  limit: number,
  toRecord: (row: T) => R,
): Promise<{ rows: R[]; nextCursor: string | null }> {
  const order = q.order ?? 'desc';
  const found = await rows(keys, order, q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined);
  const { page, nextCursor } = pageOf(found, limit, keys);
  return { rows: page.map(toRecord), nextCursor };
}

// Runs ----------------------------------------------------------------------------------------

function runsWhere(q: RunFilters): SQL | undefined {
  const like = containsPattern(q.q);
  return allOf([
    inList(sql`${dataFeedRuns.clientId}`, q.client?.map(Number)),
    inList(sql`${dataFeedRuns.dataFeedId}`, q.feed?.map(Number)),
    inList(sql`${dataFeeds.surveyId}`, q.survey?.map(Number)),
    inList(sql`${dataFeedRuns.status}`, q.status),
    inList(sql`${dataFeedRuns.startedBy}`, q.user?.map(Number)),
    ...dayRange(sql`${dataFeedRuns.startedAt}`, q),
    like ? sql`${dataFeedRuns.sourceName} ilike ${like}` : undefined,
  ]);
}

const errorCount = sql<number>`(select count(*)::int from ${dataFeedRowErrors} where ${dataFeedRowErrors.runId} = ${dataFeedRuns.id})`;

/**
 * Invitations of the run that went out, counted when read (the run_id index,
 * survey_processing_items_run_idx) rather than kept in data_feed_runs.sent: sends happen after the
 * run ended (send engine, Send now, Retry), and a counter would need every one of them to update it.
 */
const sentCount = sql<number>`(select count(*)::int from ${surveyProcessingItems} where ${surveyProcessingItems.runId} = ${dataFeedRuns.id} and ${surveyProcessingItems.sentAt} is not null)`;

const runFields = {
  run: dataFeedRuns,
  clientName: clients.name,
  clientTimezone: clients.timezone,
  feedName: dataFeeds.name,
  surveyId: dataFeeds.surveyId,
  startedByName: users.name,
  errors: errorCount,
  sent: sentCount,
};

function selectRuns<T extends Record<string, SQL>>(db: Db, extra: T) {
  return db
    .select({ ...runFields, ...extra })
    .from(dataFeedRuns)
    .leftJoin(dataFeeds, eq(dataFeeds.id, dataFeedRuns.dataFeedId))
    .leftJoin(clients, eq(clients.id, dataFeedRuns.clientId))
    .leftJoin(users, eq(users.id, dataFeedRuns.startedBy));
}

type RunRow = {
  run: typeof dataFeedRuns.$inferSelect;
  clientName: string | null;
  clientTimezone: string | null;
  feedName: string | null;
  surveyId: number | null;
  startedByName: string | null;
  errors: number;
  sent: number;
};

function toRun({ run, ...r }: RunRow): FeedRun {
  return {
    id: run.id,
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
    duration_s: run.finishedAt ? Math.round((run.finishedAt.getTime() - run.startedAt.getTime()) / 1000) : null,
    client_id: run.clientId,
    client_name: r.clientName,
    client_timezone: r.clientTimezone,
    data_feed_id: run.dataFeedId,
    feed_name: r.feedName,
    survey_id: r.surveyId,
    source: run.source,
    source_name: run.sourceName,
    rows_read: run.rowsRead,
    rows_done: run.rowsDone,
    received: run.receivedAt !== null,
    rows_accepted: run.rowsAccepted,
    rows_skipped: run.rowsSkipped,
    rows_invalid: run.rowsInvalid,
    scheduled: run.scheduled,
    sent: Number(r.sent),
    errors: Number(r.errors),
    run_status: run.status,
    error: run.error,
    rerun_of: run.rerunOf,
    started_by_name: r.startedByName,
  };
}

export const listRuns = (db: Db, q: RunFilters & Paging, limit: number) =>
  keysetPage(
    (keys, order, after) =>
      selectRuns(db, cursorFields(keys))
        .where(allOf([runsWhere(q), after]))
        .orderBy(...orderBy(keys, order))
        .limit(limit + 1),
    RUN_KEYS,
    q,
    limit,
    toRun,
  );

export function countRuns(db: Db, q: RunFilters) {
  const where = runsWhere(q);
  return countMatching(
    db,
    sql`from ${dataFeedRuns} left join ${dataFeeds} on ${dataFeeds.id} = ${dataFeedRuns.dataFeedId}${where ? sql` where ${where}` : sql``}`,
  );
}

/** The detail shows the first rows' errors; the rejected-rows CSV has every one. */
const DETAIL_ERRORS = 500;

/** The run that re-ran this one's failed rows, if any. */
export async function findRerun(db: Db, id: number): Promise<{ id: number } | undefined> {
  const [rerun] = await db.select({ id: dataFeedRuns.id }).from(dataFeedRuns).where(eq(dataFeedRuns.rerunOf, id)).limit(1);
  return rerun;
}

export async function findRun(db: Db, id: number): Promise<FeedRunDetail | undefined> {
  const [row] = await selectRuns(db, {
    mapping: sql<FeedMapping | null>`${dataFeeds.fieldMapping}`,
    hasHeader: sql<boolean | null>`${dataFeeds.hasHeader}`,
  })
    .where(eq(dataFeedRuns.id, id))
    .limit(1);
  if (!row) return undefined;
  const errors = await rowErrors(db, id, DETAIL_ERRORS);
  // The row as received in the rejected-rows CSV's column order (a stored row keeps none).
  const order = rejectedColumns(row.mapping ?? {}, row.hasHeader ?? true, [...new Set(errors.flatMap((e) => Object.keys(e.raw)))]);
  const inOrder = (raw: Record<string, string>) =>
    Object.fromEntries(order.filter((c) => Object.hasOwn(raw, c)).map((c) => [c, raw[c] ?? '']));
  return {
    ...toRun(row),
    row_errors: errors.map((e) => ({ row_number: e.rowNumber, column: e.column, message: e.message, raw: inOrder(e.raw) })),
  };
}

/** A run's refused rows in row order (at most `limit`), each with the row as received. */
export function rowErrors(db: Db, runId: number, limit: number) {
  return db
    .select({
      rowNumber: dataFeedRowErrors.rowNumber,
      column: dataFeedRowErrors.column,
      message: dataFeedRowErrors.message,
      raw: dataFeedRowErrors.raw,
    })
    .from(dataFeedRowErrors)
    .where(eq(dataFeedRowErrors.runId, runId))
    .orderBy(asc(dataFeedRowErrors.rowNumber), asc(dataFeedRowErrors.id))
    .limit(limit);
}

// Changes -------------------------------------------------------------------------------------

function changesWhere(q: ChangeFilters): SQL | undefined {
  const like = containsPattern(q.q);
  return allOf([
    inList(sql`${surveyChangeLogs.clientId}`, q.client?.map(Number)),
    inList(sql`${surveyChangeLogs.surveyId}`, q.survey?.map(Number)),
    inList(sql`${surveyChangeLogs.action}`, q.action),
    inList(sql`${surveyChangeLogs.userId}`, q.user?.map(Number)),
    ...dayRange(sql`${surveyChangeLogs.at}`, q),
    like ? sql`${surveys.name} ilike ${like}` : undefined,
  ]);
}

const changeFrom = sql`from ${surveyChangeLogs} left join ${surveys} on ${surveys.id} = ${surveyChangeLogs.surveyId}`;

export const listChanges = (db: Db, q: ChangeFilters & Paging, limit: number) =>
  keysetPage(
    (keys, order, after) =>
      db
        .select({
          change: surveyChangeLogs,
          surveyName: surveys.name,
          clientName: clients.name,
          clientTimezone: clients.timezone,
          userName: users.name,
          ...cursorFields(keys),
        })
        .from(surveyChangeLogs)
        .leftJoin(surveys, eq(surveys.id, surveyChangeLogs.surveyId))
        .leftJoin(clients, eq(clients.id, surveyChangeLogs.clientId))
        .leftJoin(users, eq(users.id, surveyChangeLogs.userId))
        .where(allOf([changesWhere(q), after]))
        .orderBy(...orderBy(keys, order))
        .limit(limit + 1),
    CHANGE_KEYS,
    q,
    limit,
    ({ change, ...r }): SurveyChange => ({
      id: Number(change.id),
      at: change.at.toISOString(),
      user_id: change.userId,
      user_name: r.userName,
      client_id: change.clientId,
      client_name: r.clientName,
      client_timezone: r.clientTimezone,
      survey_id: change.surveyId,
      survey_name: r.surveyName,
      action: change.action,
      diff: change.diff,
    }),
  );

export function countChanges(db: Db, q: ChangeFilters) {
  const where = changesWhere(q);
  return countMatching(db, sql`${changeFrom}${where ? sql` where ${where}` : sql``}`);
}
