import type { OptionsAnswer, OptionsQuery, SurveyAlertEvent, SurveyAlertEventListQuery } from '@admin/shared';
import { UNSENT_EVENT_STATES } from '@admin/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { clients, locations, surveyAlertEvents, surveyAlertRules, surveyResponses, surveys } from '../../db/schema/index.ts';
import { allOf, containsPattern, inList, type SortSpec } from '../../kit/keyset.ts';
import { keysetPage, timeThenId, whereClause } from '../../kit/keyset-page.ts';
import { countMatching } from '../../kit/totals.ts';

type Sort = NonNullable<SurveyAlertEventListQuery['sort']>;
export type Filters = Omit<SurveyAlertEventListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;
export type PageQuery = Filters & { sort?: Sort | undefined; order?: 'asc' | 'desc' | undefined; cursor?: string | undefined };

const newest = timeThenId(sql`${surveyAlertEvents.createdAt}`, sql`${surveyAlertEvents.id}`);
const SORTS: Record<Sort, SortSpec> = { created_at: newest.keys, state: newest.after(sql`${surveyAlertEvents.state}`) };

/**
 * The WHERE of a list, export or bulk Resend: events that did not reach their recipient (or were
 * handled here), never a rule's Test; dates are whole days in UTC, end date inclusive.
 */
export function filtersWhere(q: Filters): SQL | undefined {
  const like = containsPattern(q.q);
  return allOf([
    sql`not ${surveyAlertEvents.test}`,
    inList(sql`${surveyAlertEvents.state}`, q.state && q.state.length > 0 ? q.state : [...UNSENT_EVENT_STATES]),
    inList(sql`${surveyAlertEvents.clientId}`, q.client),
    inList(sql`coalesce(${surveyResponses.locationId}, '')`, q.location),
    inList(sql`${surveyResponses.surveyId}`, q.survey),
    inList(sql`${surveyAlertEvents.reason}`, q.reason),
    inList(sql`${surveyAlertEvents.channel}`, q.channel),
    q.startDate ? sql`${surveyAlertEvents.createdAt} >= ${q.startDate}::date` : undefined,
    q.endDate ? sql`${surveyAlertEvents.createdAt} < (${q.endDate}::date + 1)` : undefined,
    like
      ? sql`(${surveyAlertEvents.recipient} ilike ${like} or ${surveyAlertRules.name} ilike ${like} or ${surveyResponses.comment} ilike ${like})`
      : undefined,
  ]);
}

const fields = {
  id: surveyAlertEvents.id,
  createdAt: surveyAlertEvents.createdAt,
  clientId: surveyAlertEvents.clientId,
  clientName: clients.name,
  clientTimezone: clients.timezone,
  locationId: surveyResponses.locationId,
  locationName: locations.locationname,
  surveyId: surveyResponses.surveyId,
  surveyName: surveys.name,
  responseId: surveyAlertEvents.responseId,
  score: surveyResponses.keyScore,
  comment: sql<string | null>`left(${surveyResponses.comment}, 120)`,
  ruleId: surveyAlertEvents.ruleId,
  ruleName: surveyAlertRules.name,
  channel: surveyAlertEvents.channel,
  recipient: surveyAlertEvents.recipient,
  reason: surveyAlertEvents.reason,
  attempts: surveyAlertEvents.attempts,
  lastAttemptAt: surveyAlertEvents.lastAttemptAt,
  nextRetryAt: surveyAlertEvents.nextRetryAt,
  state: surveyAlertEvents.state,
  resentTo: surveyAlertEvents.resentTo,
  note: surveyAlertEvents.note,
};

const from = (db: Db, extra: Record<string, SQL> = {}) =>
  db
    .select({ ...fields, ...extra })
    .from(surveyAlertEvents)
    .innerJoin(clients, eq(clients.id, surveyAlertEvents.clientId))
    .innerJoin(surveyAlertRules, eq(surveyAlertRules.id, surveyAlertEvents.ruleId))
    .leftJoin(surveyResponses, eq(surveyResponses.id, surveyAlertEvents.responseId))
    .leftJoin(surveys, eq(surveys.id, surveyResponses.surveyId))
    .leftJoin(locations, eq(locations.id, surveyResponses.locationId));

type Row = Awaited<ReturnType<typeof from>>[number];

function toRecord(r: Row): SurveyAlertEvent {
  return {
    id: Number(r.id),
    created_at: r.createdAt.toISOString(),
    client_id: r.clientId,
    client_name: r.clientName,
    client_timezone: r.clientTimezone,
    location_id: r.locationId,
    location_name: r.locationName,
    survey_id: r.surveyId,
    survey_name: r.surveyName,
    response_id: r.responseId,
    score: r.score,
    comment: r.comment,
    rule_id: r.ruleId,
    rule_name: r.ruleName,
    channel: r.channel === 'sms' ? 'sms' : 'email',
    recipient: r.recipient,
    reason: r.reason,
    attempts: r.attempts,
    last_attempt_at: r.lastAttemptAt?.toISOString() ?? null,
    next_retry_at: r.nextRetryAt?.toISOString() ?? null,
    state: r.state,
    resent_to: r.resentTo,
    note: r.note,
  };
}

export async function listPage(db: Db, q: PageQuery, limit: number): Promise<{ rows: SurveyAlertEvent[]; nextCursor: string | null }> {
  const spec = { keys: SORTS[q.sort ?? 'created_at'], order: q.order ?? 'desc', where: filtersWhere(q), cursor: q.cursor, limit };
  const { page, nextCursor } = await keysetPage(spec, (p) =>
    from(db, p.fields)
      .where(p.where)
      .orderBy(...p.orderBy)
      .limit(p.limit),
  );
  return { rows: page.map(toRecord), nextCursor };
}

export function countEvents(db: Db, q: Filters) {
  const where = filtersWhere(q);
  return countMatching(
    db,
    sql`from ${surveyAlertEvents} join ${surveyAlertRules} on ${surveyAlertRules.id} = ${surveyAlertEvents.ruleId}
      left join ${surveyResponses} on ${surveyResponses.id} = ${surveyAlertEvents.responseId}${whereClause(where)}`,
  );
}

export async function findEvent(db: Db, id: number): Promise<SurveyAlertEvent | undefined> {
  const [row] = await from(db).where(eq(surveyAlertEvents.id, id)).limit(1);
  return row ? toRecord(row) : undefined;
}

/** Options of a filter, by name, paged on the server, then the chosen ones so their labels show. */
function optionsOf(table: 'clients' | 'locations' | 'surveys') {
  const spec = {
    clients: { id: sql`${clients.id}::text`, name: sql`${clients.name}`, from: sql`${clients}` },
    locations: { id: sql`${locations.id}`, name: sql`${locations.locationname}`, from: sql`${locations}` },
    surveys: { id: sql`${surveys.id}::text`, name: sql`${surveys.name}`, from: sql`${surveys}` },
  }[table];
  return async (db: Db, q: OptionsQuery): Promise<OptionsAnswer> => {
    const like = containsPattern(q.q);
    const rows = rowsOf(
      await db.execute(sql`
      select ${spec.id} as value, ${spec.name} as label from ${spec.from}
      where ${like ? sql`${spec.name} ilike ${like}` : sql`true`}
        or ${spec.id} in (select jsonb_array_elements_text(${JSON.stringify(q.value ?? [])}::jsonb))
      order by lower(${spec.name}), 1 limit ${q.perPage + 1 + (q.value?.length ?? 0)}`),
    );
    const data = rows.map((r) => ({ value: String(r.value), label: String(r.label) }));
    return { data: data.slice(0, q.perPage + (q.value?.length ?? 0)), more: data.length > q.perPage + (q.value?.length ?? 0) };
  };
}
export const clientOptions = optionsOf('clients');
export const locationOptions = optionsOf('locations');
export const surveyOptions = optionsOf('surveys');
