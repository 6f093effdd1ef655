import { checkSurvey, type Survey, type SurveyBody, type SurveyListQuery, surveyResource } from '@admin/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, locations, smsTemplates, surveyLocations, surveyProcessingItems, surveys } from '../../db/schema/index.ts';
import { score30d } from '../../kit/counted-responses.ts';
import { clientScopeOf, inClientScope } from '../../kit/current-client.ts';
import { allOf, containsPattern, inList, type KeyColumn } from '../../kit/keyset.ts';
import { keysetPage, resourceSort, whereClause } from '../../kit/keyset-page.ts';
import type { ResourceStore } from '../../kit/resource-store.ts';
import { countMatching } from '../../kit/totals.ts';
import { fieldsRefused, notFound } from '../../lib/http-error.ts';
import { logSurveyChanges, statusAction, surveyChanges } from './change-log.ts';

export type SurveyRow = typeof surveys.$inferSelect;

/**
 * What a survey's own row does not hold: its locations, its SMS template's name (a template of the
 * survey's client, which the current client's option list does not name) and its last 30 days of
 * real invitations.
 */
type Extras = { locationIds: string[]; smsTemplateName: string | null; sent30d: number; responded30d: number; score30d: number | null };
const NO_EXTRAS: Extras = { locationIds: [], smsTemplateName: null, sent30d: 0, responded30d: 0, score30d: null };

export function toSurvey(row: SurveyRow, clientName: string | null = null, extras: Extras = NO_EXTRAS): Survey {
  return {
    id: row.id,
    client_id: row.clientId,
    client_name: clientName,
    name: row.name,
    type: row.type as Survey['type'],
    language: row.language as Survey['language'],
    channel: row.channel as Survey['channel'],
    location_ids: extras.locationIds,
    questions: row.questions,
    email_subject: row.emailSubject,
    email_body: row.emailBody,
    sms_template_id: row.smsTemplateId,
    sms_template_name: row.smsTemplateId === null ? null : extras.smsTemplateName,
    sender_name: row.senderName,
    reply_to: row.replyTo,
    send_delay_hours: row.sendDelayHours,
    reminder_count: row.reminderCount,
    reminder_interval_days: row.reminderIntervalDays,
    link_expires_days: row.linkExpiresDays,
    over_survey_days: row.overSurveyDays,
    review_invite_mode: row.reviewInviteMode as Survey['review_invite_mode'],
    review_invite_threshold: row.reviewInviteThreshold,
    review_sites: row.reviewSites,
    testimonial_consent_text: row.testimonialConsentText,
    question_count: row.questions.length,
    location_count: extras.locationIds.length,
    sent_30d: extras.sent30d,
    responded_30d: extras.responded30d,
    score_30d: extras.score30d,
    status: row.status as Survey['status'],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Locations, 30-day counts and score of some surveys, by survey id; test sends (`manual_test`) and
 * their responses are not counted, nor responses excluded from reports.
 */
async function extrasOf(db: Db, ids: number[]): Promise<Map<number, Extras>> {
  const found = new Map<number, Extras>(ids.map((id) => [id, { ...NO_EXTRAS, locationIds: [] }]));
  if (ids.length === 0) return found;
  const links = await db
    .select({ surveyId: surveyLocations.surveyId, locationId: surveyLocations.locationId })
    .from(surveyLocations)
    .where(inArray(surveyLocations.surveyId, ids))
    .orderBy(surveyLocations.surveyId, surveyLocations.locationId);
  for (const link of links) found.get(link.surveyId)?.locationIds.push(link.locationId);
  const templates = await db
    .select({ surveyId: surveys.id, name: smsTemplates.name })
    .from(surveys)
    .innerJoin(smsTemplates, eq(smsTemplates.id, surveys.smsTemplateId))
    .where(inArray(surveys.id, ids));
  for (const t of templates) {
    const extras = found.get(t.surveyId);
    if (extras) extras.smsTemplateName = t.name;
  }
  const counts = await db
    .select({
      surveyId: surveyProcessingItems.surveyId,
      sent: sql<number>`count(*) filter (where ${surveyProcessingItems.sentAt} is not null)::int`,
      responded: sql<number>`count(*) filter (where ${surveyProcessingItems.status} = 'responded')::int`,
    })
    .from(surveyProcessingItems)
    .where(
      and(
        inArray(surveyProcessingItems.surveyId, ids),
        sql`${surveyProcessingItems.source} <> 'manual_test'`,
        sql`${surveyProcessingItems.createdAt} >= now() - interval '30 days'`,
      ),
    )
    .groupBy(surveyProcessingItems.surveyId);
  for (const c of counts) {
    const extras = found.get(c.surveyId);
    if (extras) Object.assign(extras, { sent30d: c.sent, responded30d: c.responded });
  }
  const scores = await db
    .select({ surveyId: surveys.id, score: score30d(sql`${surveys.id}`, sql`${surveys.type}`) })
    .from(surveys)
    .where(inArray(surveys.id, ids));
  for (const s of scores) {
    const extras = found.get(s.surveyId);
    if (extras) extras.score30d = s.score === null ? null : Number(s.score);
  }
  return found;
}

/** One survey with its client's name, locations and counts. */
export async function loadSurvey(db: Db, id: number): Promise<Survey> {
  const [found] = await db
    .select({ row: surveys, clientName: clients.name })
    .from(surveys)
    .leftJoin(clients, eq(clients.id, surveys.clientId))
    .where(eq(surveys.id, id))
    .limit(1);
  if (!found) throw notFound('Survey');
  return toSurvey(found.row, found.clientName, (await extrasOf(db, [id])).get(id));
}

/** Replaces a survey's locations. */
export async function setLocations(tx: Db, surveyId: number, locationIds: readonly string[]): Promise<void> {
  await tx.delete(surveyLocations).where(eq(surveyLocations.surveyId, surveyId));
  const unique = [...new Set(locationIds)];
  if (unique.length > 0) await tx.insert(surveyLocations).values(unique.map((locationId) => ({ surveyId, locationId })));
}

const SORTS: Record<NonNullable<SurveyListQuery['sort']>, KeyColumn> = {
  name: { expr: sql`lower(${surveys.name})`, cast: 'text' },
  type: { expr: sql`${surveys.type}`, cast: 'text' },
  channel: { expr: sql`${surveys.channel}`, cast: 'text' },
  question_count: { expr: sql`jsonb_array_length(${surveys.questions})`, cast: 'integer' },
  status: { expr: sql`${surveys.status}`, cast: 'text' },
  updated_at: { expr: sql`${surveys.updatedAt}`, cast: 'timestamptz' },
};
const byId: KeyColumn = { expr: sql`${surveys.id}`, cast: 'integer' };

type Filters = Omit<SurveyListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;

function where(q: Filters, clientId: number | null): SQL | undefined {
  const scope = clientScopeOf(q.client, clientId);
  const like = containsPattern(q.q);
  return allOf([
    inClientScope(surveys.clientId, scope),
    inList(sql`${surveys.status}`, q.status),
    inList(sql`${surveys.type}`, q.type),
    inList(sql`${surveys.channel}`, q.channel),
    like ? sql`${surveys.name} ilike ${like}` : undefined,
  ]);
}

/** A page of surveys of the chosen clients, each with its client's name, locations and counts. */
async function listSurveys(db: Db, q: SurveyListQuery, clientId: number | null, limit: number) {
  const sort = resourceSort(SORTS, byId, q, { sort: 'name', order: surveyResource.defaultSort.order });
  const { page, nextCursor } = await keysetPage({ ...sort, where: where(q, clientId), cursor: q.cursor, limit }, (p) =>
    db
      .select({ row: surveys, clientName: clients.name, ...p.fields })
      .from(surveys)
      .leftJoin(clients, eq(clients.id, surveys.clientId))
      .where(p.where)
      .orderBy(...p.orderBy)
      .limit(p.limit),
  );
  const extras = await extrasOf(
    db,
    page.map((r) => r.row.id),
  );
  return { rows: page.map((r) => toSurvey(r.row, r.clientName, extras.get(r.row.id))), nextCursor };
}

function countSurveys(db: Db, q: SurveyListQuery, clientId: number | null) {
  return countMatching(db, sql`from ${surveys}${whereClause(where(q, clientId))}`);
}

/** Column values from a (partial) body: text trimmed, blank optional text and numbers null. */
function surveyValues(body: Partial<SurveyBody>): Partial<typeof surveys.$inferInsert> {
  const text = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());
  const values: Partial<typeof surveys.$inferInsert> = {
    name: body.name?.trim(),
    type: body.type ?? undefined,
    language: body.language ?? undefined,
    channel: body.channel ?? undefined,
    questions: body.questions,
    emailSubject: text(body.email_subject),
    emailBody: text(body.email_body),
    smsTemplateId: body.sms_template_id,
    senderName: body.sender_name?.trim(),
    replyTo: text(body.reply_to),
    sendDelayHours: body.send_delay_hours ?? undefined,
    reminderCount: body.reminder_count ?? undefined,
    reminderIntervalDays: body.reminder_interval_days ?? undefined,
    linkExpiresDays: body.link_expires_days ?? undefined,
    overSurveyDays: body.over_survey_days,
    reviewInviteMode: body.review_invite_mode ?? undefined,
    reviewInviteThreshold: body.review_invite_threshold,
    reviewSites: body.review_sites,
    testimonialConsentText: text(body.testimonial_consent_text),
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/**
 * Surveys of the current client or of the clients chosen in the filter, with the rules that read
 * several fields or the questions (`checkSurvey`, run on the survey as it will be saved),
 * locations and SMS templates that must be the survey's client's, and the locations written
 * beside the row. An edit acts on the survey's own client, whichever is current.
 */
export const surveyStore: ResourceStore<Survey, SurveyRow, SurveyBody, SurveyListQuery, number | null> = {
  table: surveys,
  toRecord: toSurvey,
  list: listSurveys,
  count: countSurveys,
  values: surveyValues,
  async check(db, body, before, request) {
    const clientId = before?.clientId ?? request.auth?.user.currentClientId ?? null;
    const merged = {
      type: body.type ?? before?.type,
      channel: body.channel ?? before?.channel,
      email_subject: body.email_subject !== undefined ? body.email_subject : before?.emailSubject,
      email_body: body.email_body !== undefined ? body.email_body : before?.emailBody,
      sms_template_id: body.sms_template_id !== undefined ? body.sms_template_id : before?.smsTemplateId,
      review_invite_mode: body.review_invite_mode ?? before?.reviewInviteMode,
      review_invite_threshold: body.review_invite_threshold !== undefined ? body.review_invite_threshold : before?.reviewInviteThreshold,
      review_sites: body.review_sites ?? before?.reviewSites,
      // A new survey must have its questions; an edit that leaves them out keeps the stored ones.
      questions: body.questions ?? before?.questions ?? [],
    };
    const errors = checkSurvey(merged);
    if (body.location_ids && body.location_ids.length > 0 && clientId !== null) {
      const wanted = [...new Set(body.location_ids)];
      const own = await db
        .select({ id: locations.id })
        .from(locations)
        .where(and(eq(locations.clientId, clientId), inArray(locations.id, wanted)));
      const ownIds = new Set(own.map((l) => l.id));
      const unknown = wanted.filter((id) => !ownIds.has(id));
      if (unknown.length > 0) errors.location_ids = [`These locations are not this client's: ${unknown.join(', ')}`];
    }
    const templateId = body.sms_template_id;
    if (typeof templateId === 'number') {
      const [template] = await db
        .select({ clientId: smsTemplates.clientId, status: smsTemplates.status })
        .from(smsTemplates)
        .where(eq(smsTemplates.id, templateId))
        .limit(1);
      if (!template || (template.clientId !== null && template.clientId !== clientId)) {
        errors.sms_template_id = [`The ${surveyResource.labels.sms_template_id} does not exist`];
      }
    }
    if (Object.keys(errors).length > 0) throw fieldsRefused(errors, surveyResource.labels);
  },
  async afterWrite(tx, row, body) {
    if (body.location_ids) await setLocations(tx, row.id, body.location_ids);
  },
  // The change log (Survey Manager Logs, Changes), in the change's own transaction.
  async afterSave(tx, before, after, request) {
    const survey = { id: after.id, clientId: after.client_id };
    await logSurveyChanges(tx, survey, request.auth?.user.id ?? null, surveyChanges(before, after));
  },
  async beforeStatus(tx, row, to, request) {
    await logSurveyChanges(tx, row, request.auth?.user.id ?? null, [
      { action: statusAction(row.status, to), diff: { status: { before: row.status, after: to } } },
    ]);
  },
  reload: loadSurvey,
};
