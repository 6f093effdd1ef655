import { checkSurvey, type Survey, type SurveyBody, type SurveyListQuery, surveyResource } from '@admin/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, locations, smsTemplates, surveyLocations, surveyProcessingItems, surveys } from '../../db/schema/index.ts';
import type { ResourceStore } from '../../kit/resource-routes.ts';
import { tableStore } from '../../kit/table-store.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';

export type SurveyRow = typeof surveys.$inferSelect;

/** What a survey's own row does not hold: its locations and its last 30 days of real invitations. */
type Extras = { locationIds: string[]; sent30d: number; responded30d: number };
const NO_EXTRAS: Extras = { locationIds: [], sent30d: 0, responded30d: 0 };

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
    // Responses are not stored yet (the public page writes them): no score until they are.
    score_30d: null,
    status: row.status as Survey['status'],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Locations and 30-day counts of some surveys, by survey id; test sends (`manual_test`) are not counted. */
async function extrasOf(db: Db, ids: number[]): Promise<Map<number, Extras>> {
  const found = new Map<number, Extras>(ids.map((id) => [id, { locationIds: [], sent30d: 0, responded30d: 0 }]));
  if (ids.length === 0) return found;
  const links = await db
    .select({ surveyId: surveyLocations.surveyId, locationId: surveyLocations.locationId })
    .from(surveyLocations)
    .where(inArray(surveyLocations.surveyId, ids))
    .orderBy(surveyLocations.surveyId, surveyLocations.locationId);
  for (const link of links) found.get(link.surveyId)?.locationIds.push(link.locationId);
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

const base = tableStore<Survey, SurveyRow, SurveyBody, SurveyListQuery>({
  table: surveys,
  def: surveyResource,
  toRecord: toSurvey,
  sorts: {
    name: { expr: sql`lower(${surveys.name})`, cast: 'text' },
    type: { expr: sql`${surveys.type}`, cast: 'text' },
    channel: { expr: sql`${surveys.channel}`, cast: 'text' },
    question_count: { expr: sql`jsonb_array_length(${surveys.questions})`, cast: 'integer' },
    status: { expr: sql`${surveys.status}`, cast: 'text' },
    updated_at: { expr: sql`${surveys.updatedAt}`, cast: 'timestamptz' },
  },
  search: [surveys.name],
  filterColumns: { status: surveys.status, type: surveys.type, channel: surveys.channel },
});

const nullIfBlank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/**
 * Surveys of the current client: the table store, plus the rules that read several fields or the
 * questions (`checkSurvey`, run on the survey as it will be saved), locations and SMS templates that
 * must be the client's, and the locations written beside the row.
 */
export const surveyStore: ResourceStore<Survey, SurveyRow, SurveyBody, SurveyListQuery> = {
  ...base,
  async list(db, q, clientId, limit) {
    const page = await base.list(db, q, clientId, limit);
    const extras = await extrasOf(
      db,
      page.rows.map((r) => r.id),
    );
    return {
      ...page,
      rows: page.rows.map((r) => {
        const e = extras.get(r.id) ?? NO_EXTRAS;
        return {
          ...r,
          location_ids: e.locationIds,
          location_count: e.locationIds.length,
          sent_30d: e.sent30d,
          responded_30d: e.responded30d,
        };
      }),
    };
  },
  values(body, at) {
    const values = base.values(body, at);
    // Optional numbers and the SMS template may be cleared with an empty value.
    for (const key of ['overSurveyDays', 'reviewInviteThreshold', 'smsTemplateId'] as const) {
      if (key in values) values[key] = nullIfBlank(values[key]);
    }
    return values;
  },
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
    if (Object.keys(errors).length > 0) throw new HttpError(422, `Please correct: ${Object.keys(errors).join(', ')}.`, errors);
  },
  async afterWrite(tx, row, body) {
    if (body.location_ids) await setLocations(tx, row.id, body.location_ids);
  },
  reload: loadSurvey,
};
