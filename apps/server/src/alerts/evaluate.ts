import type { Answers, SurveyQuestion } from '@admin/shared/surveys/questions';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { locations, personnel, surveyResponses, users } from '../db/schema/index.ts';
import { countedResponse } from '../kit/counted-responses.ts';
import { activeRules, type Rule } from './active-rules.ts';
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
  return evaluateResponses(db, [responseId], now);
}

/**
 * `evaluateResponse` for a batch (the queue hands the job its whole claimed batch, install.ts):
 * one read of the responses, one of the rules per client (cached, active-rules.ts), one of the
 * people they name, one of the firing rules' users per client and one insert, instead of all of
 * these per response (bench/alerts). Responses not counted (tests, deleted) are skipped.
 */
export async function evaluateResponses(db: Db, responseIds: readonly number[], now: Date): Promise<number> {
  if (responseIds.length === 0) return 0;
  const responses = await db
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
    .where(and(inArray(surveyResponses.id, [...new Set(responseIds)]), countedResponse));
  const firingOf = new Map<number, Rule[]>();
  for (const clientId of new Set(responses.map((r) => r.clientId))) {
    const ruleSet = await activeRules(db, clientId);
    for (const response of responses.filter((r) => r.clientId === clientId)) {
      const test = firingTest({ ...response, answers: response.answers as Answers, questions: response.questions as SurveyQuestion[] });
      const firing = ruleSet
        .candidates(test.words())
        .filter(
          (r) =>
            r.createdAt.getTime() <= response.submittedAt.getTime() && matches(r, response.surveyId, response.locationId) && test.fires(r),
        );
      if (firing.length > 0) firingOf.set(response.id, firing);
    }
  }
  const firingResponses = responses.filter((r) => firingOf.has(r.id));
  if (firingResponses.length === 0) return 0;
  const named = await namedByMany(db, firingResponses);
  const rows: EventRow[] = [];
  for (const clientId of new Set(firingResponses.map((r) => r.clientId))) {
    const ofClient = firingResponses.filter((r) => r.clientId === clientId);
    const ruleIds = [...new Set(ofClient.flatMap((r) => (firingOf.get(r.id) ?? []).map((rule) => rule.id)))];
    const users = await ruleUsers(db, clientId, ruleIds);
    for (const response of ofClient) {
      const namedHere = named(response.personnelId, response.locationId);
      for (const rule of firingOf.get(response.id) ?? []) {
        const recipients = recipientsOf(rule, users.get(rule.id) ?? [], namedHere);
        rows.push(...eventRows(rule, recipients, { responseId: response.id, processingItemId: null }, now));
      }
    }
  }
  return insertEvents(db, rows);
}

/** One alert event to write: what eventRows makes, the columns insertEvents writes. */
type EventRow = {
  ruleId: number;
  clientId: number;
  responseId: number | null;
  processingItemId: number | null;
  channel: string;
  recipient: string;
  state: 'pending' | 'unsent';
  reason: string | null;
  nextRetryAt: Date | null;
  test: boolean;
  createdAt: Date;
  updatedAt: Date;
};

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
    return [{ ...base, channel, recipient: '', state: 'unsent', reason: 'no_recipients', nextRetryAt: null }];
  }
  const due = rule.frequency === 'instant' ? now : null;
  return recipients.map((r) => ({ ...base, channel: r.channel, recipient: r.to, state: 'pending', reason: null, nextRetryAt: due }));
}

/**
 * Inserts events, skipping those that exist already (a retried job); answers how many were new.
 * Each chunk is one JSON parameter unpacked by the database: a thousand rows as eleven thousand
 * bound parameters cost more to build and parse than to write (bench/alerts).
 */
export async function insertEvents(db: Db, rows: EventRow[]): Promise<number> {
  let created = 0;
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000).map((r) => ({
      rule_id: r.ruleId,
      client_id: r.clientId,
      response_id: r.responseId,
      processing_item_id: r.processingItemId,
      channel: r.channel,
      recipient: r.recipient,
      state: r.state,
      reason: r.reason,
      next_retry_at: r.nextRetryAt?.toISOString() ?? null,
      test: r.test,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    }));
    const inserted = rowsOf(
      await db.execute(sql`
        insert into survey_alert_events (rule_id, client_id, response_id, processing_item_id, channel, recipient, state, reason,
          next_retry_at, test, created_at, updated_at)
        select rule_id, client_id, response_id, processing_item_id, channel, recipient, state, reason,
          next_retry_at, test, created_at, updated_at
        from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as x(rule_id int, client_id int, response_id int,
          processing_item_id int, channel text, recipient text, state text, reason text, next_retry_at timestamptz,
          test boolean, created_at timestamptz, updated_at timestamptz)
        on conflict do nothing
        returning id`),
    );
    created += inserted.length;
  }
  return created;
}

/** The response's personnel and its location's manager, with their addresses. */
export async function namedBy(db: Db, personnelId: number | null, locationId: string | null): Promise<Named> {
  return (await namedByMany(db, [{ personnelId, locationId }]))(personnelId, locationId);
}

/** The personnel and location managers that these responses name, read in two queries; answers a lookup. */
async function namedByMany(
  db: Db,
  about: readonly { personnelId: number | null; locationId: string | null }[],
): Promise<(personnelId: number | null, locationId: string | null) => Named> {
  const personnelIds = [...new Set(about.flatMap((a) => (a.personnelId === null ? [] : [a.personnelId])))];
  const locationIds = [...new Set(about.flatMap((a) => (a.locationId === null ? [] : [a.locationId])))];
  const people =
    personnelIds.length === 0
      ? []
      : await db
          .select({ id: personnel.id, email: personnel.email, phone: personnel.phone })
          .from(personnel)
          .where(inArray(personnel.id, personnelIds));
  const managers =
    locationIds.length === 0
      ? []
      : await db
          .select({ id: locations.id, email: users.email, phone: users.phone })
          .from(locations)
          .innerJoin(users, eq(users.id, locations.managerUserId))
          .where(inArray(locations.id, locationIds));
  const personById = new Map(people.map((p) => [p.id, { email: p.email, phone: p.phone }]));
  const managerById = new Map(managers.map((m) => [m.id, { email: m.email, phone: m.phone }]));
  return (personnelId, locationId) => ({
    personnel: personnelId === null ? null : (personById.get(personnelId) ?? null),
    manager: locationId === null ? null : (managerById.get(locationId) ?? null),
  });
}
