import type { Answers, SurveyQuestion } from '@admin/shared/surveys/questions';
import { and, eq, ne, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { locations, personnel, surveyAlertEvents, surveyAlertRules, surveyResponses, users } from '../db/schema/index.ts';
import { countedResponse } from '../kit/counted-responses.ts';
import { type Named, recipientsOf, ruleUsers } from './recipients.ts';
import { firingTest } from './triggers.ts';

/** A rule that matches a response's survey and location (empty lists mean all). */
function matches(rule: { surveyIds: number[]; locationIds: string[] }, surveyId: number, locationId: string | null): boolean {
  const survey = rule.surveyIds.length === 0 || rule.surveyIds.includes(surveyId);
  const location = rule.locationIds.length === 0 || (locationId !== null && rule.locationIds.includes(locationId));
  return survey && location;
}

/**
 * The `evaluate-alerts` job (pipeline.md "Alerts"): one event per recipient and channel of every
 * active rule of the response's client that matches it, fires, and existed when it was submitted.
 * Inserted with `on conflict do nothing` on survey_alert_events_once_uq, so the job run twice
 * alerts once. Instant events are due at once (the delivery loop, deliver.ts, sends them); a
 * digest's wait for their hour (digest.ts). Answers how many events it created.
 */
export async function evaluateResponse(db: Db, responseId: number, now: Date): Promise<number> {
  const [response] = await db
    .select({
      id: surveyResponses.id,
      clientId: surveyResponses.clientId,
      surveyId: surveyResponses.surveyId,
      locationId: surveyResponses.locationId,
      personnelId: surveyResponses.personnelId,
      keyScore: surveyResponses.keyScore,
      npsClass: surveyResponses.npsClass,
      comment: surveyResponses.comment,
      answers: surveyResponses.answers,
      questions: surveyResponses.questions,
      submittedAt: surveyResponses.submittedAt,
    })
    .from(surveyResponses)
    .where(and(eq(surveyResponses.id, responseId), countedResponse));
  if (!response) return 0;
  const rules = (await activeRules(db, response.clientId)).filter((r) => r.createdAt.getTime() <= response.submittedAt.getTime());
  const fires = firingTest({ ...response, answers: response.answers as Answers, questions: response.questions as SurveyQuestion[] });
  const firing = rules.filter((r) => matches(r, response.surveyId, response.locationId) && fires(r));
  if (firing.length === 0) return 0;
  const named = await namedBy(db, response.personnelId, response.locationId);
  const users = await ruleUsers(
    db,
    response.clientId,
    firing.map((r) => r.id),
  );
  const rows = firing.flatMap((rule) =>
    eventRows(rule, recipientsOf(rule, users.get(rule.id) ?? [], named), { responseId: response.id, processingItemId: null }, now),
  );
  return insertEvents(db, rows);
}

type Rule = typeof surveyAlertRules.$inferSelect;
/** A client's active response rules as last read, and the stamp they were read at (per database). */
const ruleCache = new WeakMap<Db, Map<number, { stamp: string; rules: Rule[] }>>();

/**
 * The client's active rules a response can fire (not `no_response_days`). Every response of a
 * client is checked against all of them, so they are read again only when the client's rules
 * change: the stamp (how many, and a sum of hashes of every column of each, computed in the
 * database, one aggregate with no rows sent) is compared on every call, so a rule made, edited,
 * paused or resumed by any means counts from the next response on (bench/alerts: reading 1,000
 * rules per response was most of the time).
 */
async function activeRules(db: Db, clientId: number): Promise<Rule[]> {
  const [stampRow] = rowsOf(
    await db.execute(sql`select count(*)::text || ':' || coalesce(sum(hashtext(r::text)::bigint), 0)::text as stamp
      from survey_alert_rules r where r.client_id = ${clientId}`),
  );
  const stamp = String(stampRow?.stamp ?? '');
  let byClient = ruleCache.get(db);
  if (!byClient) {
    byClient = new Map();
    ruleCache.set(db, byClient);
  }
  const cached = byClient.get(clientId);
  if (cached && cached.stamp === stamp) return cached.rules;
  const rules = await db
    .select()
    .from(surveyAlertRules)
    .where(
      and(eq(surveyAlertRules.clientId, clientId), eq(surveyAlertRules.status, 'active'), ne(surveyAlertRules.trigger, 'no_response_days')),
    );
  if (byClient.size > 1000) byClient.clear();
  byClient.set(clientId, { stamp, rules });
  return rules;
}

type EventRow = typeof surveyAlertEvents.$inferInsert;

/** The rows of one rule's alert: one per recipient, or one `no_recipients` event when it reached nobody. */
export function eventRows(
  rule: { id: number; clientId: number; frequency: string; channels: string[] },
  recipients: { channel: string; to: string }[],
  about: { responseId: number | null; processingItemId: number | null },
  now: Date,
  test = false,
): EventRow[] {
  const base = { ruleId: rule.id, clientId: rule.clientId, ...about, test, createdAt: now, updatedAt: now };
  if (recipients.length === 0) {
    const channel = rule.channels[0] ?? 'email';
    return [{ ...base, channel, recipient: '', state: 'unsent', reason: 'no_recipients' }];
  }
  const due = rule.frequency === 'instant' ? now : null;
  return recipients.map((r) => ({ ...base, channel: r.channel, recipient: r.to, state: 'pending', nextRetryAt: due }));
}

/** Inserts events, skipping those that exist already (a retried job); answers how many were new. */
export async function insertEvents(db: Db, rows: EventRow[]): Promise<number> {
  let created = 0;
  for (let i = 0; i < rows.length; i += 1000) {
    const inserted = await db
      .insert(surveyAlertEvents)
      .values(rows.slice(i, i + 1000))
      .onConflictDoNothing()
      .returning({ id: surveyAlertEvents.id });
    created += inserted.length;
  }
  return created;
}

/** The response's personnel and its location's manager, with their addresses. */
export async function namedBy(db: Db, personnelId: number | null, locationId: string | null): Promise<Named> {
  const [person] = personnelId
    ? await db.select({ email: personnel.email, phone: personnel.phone }).from(personnel).where(eq(personnel.id, personnelId))
    : [];
  const [manager] = locationId
    ? await db
        .select({ email: users.email, phone: users.phone })
        .from(locations)
        .innerJoin(users, eq(users.id, locations.managerUserId))
        .where(eq(locations.id, locationId))
    : [];
  return { personnel: person ?? null, manager: manager ?? null };
}
