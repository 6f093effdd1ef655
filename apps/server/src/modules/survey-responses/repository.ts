import type { SurveyResponse, SurveyResponseDetail, SurveyResponseListQuery } from '@admin/shared/resources/survey-responses';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, locations, personnel, surveyProcessingItems, surveyResponses, surveys } from '../../db/schema/index.ts';
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
import { clientDayRange } from '../../kit/local-days.ts';
import { countMatching } from '../../kit/totals.ts';

type Sort = NonNullable<SurveyResponseListQuery['sort']>;
type Filters = Omit<SurveyResponseListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;
export type PageQuery = Filters & { sort?: Sort | undefined; order?: 'asc' | 'desc' | undefined; cursor?: string | undefined };

/** Each sort ends in (submitted_at, id); the indexes are in schema/responses.ts. */
const SORTS: Record<Sort, SortSpec> = {
  submitted_at: [
    { expr: sql`${surveyResponses.submittedAt}`, cast: 'timestamptz' },
    { expr: sql`${surveyResponses.id}`, cast: 'bigint' },
  ],
  key_score: [
    { expr: sql`coalesce(${surveyResponses.keyScore}, -1)`, cast: 'integer' },
    { expr: sql`${surveyResponses.submittedAt}`, cast: 'timestamptz' },
    { expr: sql`${surveyResponses.id}`, cast: 'bigint' },
  ],
};

/** The WHERE of a list, count or export; dates are whole days of each response's client, end date inclusive. */
function filtersWhere(q: Filters): SQL | undefined {
  const like = containsPattern(q.q);
  return allOf([
    inList(sql`${surveyResponses.clientId}`, q.client?.map(Number)),
    inList(sql`${surveyResponses.locationId}`, q.location),
    inList(sql`${surveyResponses.surveyId}`, q.survey?.map(Number)),
    inList(sql`${surveyResponses.personnelId}`, q.personnel?.map(Number)),
    inList(sql`${surveyResponses.npsClass}`, q.class),
    q.score_min !== undefined ? sql`${surveyResponses.keyScore} >= ${Number(q.score_min)}` : undefined,
    q.score_max !== undefined ? sql`${surveyResponses.keyScore} <= ${Number(q.score_max)}` : undefined,
    q.has_comment === 'yes' ? sql`${surveyResponses.comment} is not null` : undefined,
    q.excluded === undefined ? undefined : sql`${surveyResponses.excluded} = ${q.excluded === 'yes'}`,
    q.test === undefined ? undefined : sql`${surveyResponses.test} = ${q.test === 'yes'}`,
    ...clientDayRange(sql`${surveyResponses.submittedAt}`, sql`${surveyResponses.clientId}`, q.startDate, q.endDate),
    like
      ? sql`(${surveyResponses.comment} ilike ${like} or (${surveyProcessingItems.firstName} || ' ' || coalesce(${surveyProcessingItems.lastName}, '')) ilike ${like})`
      : undefined,
  ]);
}

const fields = {
  id: surveyResponses.id,
  processingItemId: surveyResponses.processingItemId,
  surveyId: surveyResponses.surveyId,
  surveyName: surveys.name,
  clientId: surveyResponses.clientId,
  clientName: clients.name,
  clientTimezone: clients.timezone,
  locationId: surveyResponses.locationId,
  locationName: locations.locationname,
  personnelId: surveyResponses.personnelId,
  personnelFirst: personnel.firstName,
  personnelLast: personnel.lastName,
  firstName: surveyProcessingItems.firstName,
  lastName: surveyProcessingItems.lastName,
  keyScore: surveyResponses.keyScore,
  npsClass: surveyResponses.npsClass,
  comment: surveyResponses.comment,
  testimonialConsent: surveyResponses.testimonialConsent,
  excluded: surveyResponses.excluded,
  excludedReason: surveyResponses.excludedReason,
  test: surveyResponses.test,
  submittedAt: surveyResponses.submittedAt,
};

type Row = {
  id: number;
  processingItemId: number;
  surveyId: number;
  surveyName: string | null;
  clientId: number;
  clientName: string | null;
  clientTimezone: string | null;
  locationId: string | null;
  locationName: string | null;
  personnelId: number | null;
  personnelFirst: string | null;
  personnelLast: string | null;
  firstName: string;
  lastName: string | null;
  keyScore: number | null;
  npsClass: SurveyResponse['nps_class'];
  comment: string | null;
  testimonialConsent: boolean;
  excluded: boolean;
  excludedReason: string | null;
  test: boolean;
  submittedAt: Date;
};

function toRecord(r: Row): SurveyResponse {
  return {
    id: Number(r.id),
    processing_item_id: r.processingItemId,
    survey_id: r.surveyId,
    survey_name: r.surveyName,
    client_id: r.clientId,
    client_name: r.clientName,
    client_timezone: r.clientTimezone,
    location_id: r.locationId,
    location_name: r.locationName,
    personnel_id: r.personnelId,
    personnel_name: r.personnelFirst === null ? null : `${r.personnelFirst} ${r.personnelLast ?? ''}`.trim(),
    customer: `${r.firstName} ${r.lastName ?? ''}`.trim(),
    key_score: r.keyScore,
    nps_class: r.npsClass,
    comment: r.comment,
    testimonial_consent: r.testimonialConsent,
    excluded: r.excluded,
    excluded_reason: r.excludedReason,
    test: r.test,
    submitted_at: r.submittedAt.toISOString(),
  };
}

export async function listPage(db: Db, q: PageQuery, limit: number): Promise<{ rows: SurveyResponse[]; nextCursor: string | null }> {
  const keys = SORTS[q.sort ?? 'submitted_at'];
  const order = q.order ?? 'desc';
  const rows = await db
    .select({ ...fields, ...cursorFields(keys) })
    .from(surveyResponses)
    .innerJoin(surveyProcessingItems, eq(surveyProcessingItems.id, surveyResponses.processingItemId))
    .leftJoin(surveys, eq(surveys.id, surveyResponses.surveyId))
    .leftJoin(clients, eq(clients.id, surveyResponses.clientId))
    .leftJoin(locations, eq(locations.id, surveyResponses.locationId))
    .leftJoin(personnel, eq(personnel.id, surveyResponses.personnelId))
    .where(allOf([filtersWhere(q), q.cursor ? afterCursor(keys, order, decodeCursor(q.cursor, keys)) : undefined]))
    .orderBy(...orderBy(keys, order))
    .limit(limit + 1);
  const { page, nextCursor } = pageOf(rows, limit, keys);
  return { rows: page.map(toRecord), nextCursor };
}

export function countResponses(db: Db, q: Filters) {
  const where = filtersWhere(q);
  return countMatching(
    db,
    sql`from ${surveyResponses} join ${surveyProcessingItems} on ${surveyProcessingItems.id} = ${surveyResponses.processingItemId}${where ? sql` where ${where}` : sql``}`,
  );
}

/** One response with every answer, worded as the respondent read the questions. */
export async function findResponse(db: Db, id: number): Promise<SurveyResponseDetail | undefined> {
  const [row] = await db
    .select({ ...fields, answers: surveyResponses.answers, questions: surveyResponses.questions })
    .from(surveyResponses)
    .innerJoin(surveyProcessingItems, eq(surveyProcessingItems.id, surveyResponses.processingItemId))
    .leftJoin(surveys, eq(surveys.id, surveyResponses.surveyId))
    .leftJoin(clients, eq(clients.id, surveyResponses.clientId))
    .leftJoin(locations, eq(locations.id, surveyResponses.locationId))
    .leftJoin(personnel, eq(personnel.id, surveyResponses.personnelId))
    .where(eq(surveyResponses.id, id))
    .limit(1);
  if (!row) return undefined;
  return {
    ...toRecord(row),
    answers: row.questions.map((q) => ({
      question_id: q.id,
      type: q.type,
      text: q.text,
      is_key_metric: q.is_key_metric,
      value: row.answers[String(q.id)] ?? null,
    })),
  };
}
