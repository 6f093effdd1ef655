import { alertRuleProblems, DEFAULT_RECIPIENT_ID, type SurveyAlertRuleBody, surveyAlertRuleResource } from '@admin/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { clientUsers, locations, surveyAlertRecipients, type surveyAlertRules, surveys } from '../../db/schema/index.ts';
import { fieldsRefused } from '../../lib/http-error.ts';

type RuleRow = typeof surveyAlertRules.$inferSelect;

/** Values of `wanted` that are not in `own`, for a message naming them. */
const missing = <T>(wanted: readonly T[], own: readonly T[]) => [...new Set(wanted)].filter((v) => !own.includes(v));

/**
 * Of the surveys, locations and users a body names, those that are not the client's (users: its
 * active users, or Default for New User), by field.
 */
async function foreignReferences(db: Db, clientId: number, body: Partial<SurveyAlertRuleBody>): Promise<Record<string, string[]>> {
  const L = surveyAlertRuleResource.labels;
  const errors: Record<string, string[]> = {};
  const surveyIds = body.survey_ids ?? [];
  if (surveyIds.length > 0) {
    const own = await db
      .select({ id: surveys.id })
      .from(surveys)
      .where(and(eq(surveys.clientId, clientId), inArray(surveys.id, [...new Set(surveyIds)])));
    const other = missing(
      surveyIds,
      own.map((s) => s.id),
    );
    if (other.length > 0) errors.survey_ids = [`The ${L.survey_ids} field names surveys that are not this client's: ${other.join(', ')}`];
  }
  const locationIds = (body.location_ids ?? []).map((l) => l.trim());
  if (locationIds.length > 0) {
    const own = await db
      .select({ id: locations.id })
      .from(locations)
      .where(and(eq(locations.clientId, clientId), inArray(locations.id, [...new Set(locationIds)])));
    const other = missing(
      locationIds,
      own.map((l) => l.id),
    );
    if (other.length > 0) {
      errors.location_ids = [`The ${L.location_ids} field names locations that are not this client's: ${other.join(', ')}`];
    }
  }
  const userIds = (body.recipient_user_ids ?? []).filter((id) => id !== DEFAULT_RECIPIENT_ID);
  if (userIds.length > 0) {
    const own = await db
      .select({ id: clientUsers.userId })
      .from(clientUsers)
      .where(and(eq(clientUsers.clientId, clientId), eq(clientUsers.status, 'active'), inArray(clientUsers.userId, [...new Set(userIds)])));
    const other = missing(
      userIds,
      own.map((u) => u.id),
    );
    if (other.length > 0) {
      errors.recipient_user_ids = [
        `The ${L.recipient_user_ids} field names people who are not active users of this client: ${other.join(', ')}`,
      ];
    }
  }
  return errors;
}

/**
 * The checks beyond each field's rules, on the rule as it will be saved (the body over the stored
 * rule): `alertRuleProblems` (shared with the form), then the surveys, locations and users it
 * names, which must be its own client's. A new rule is the current client's; an edit keeps its client.
 */
export async function checkRule(
  db: Db,
  body: Partial<SurveyAlertRuleBody>,
  before: RuleRow | null,
  request: FastifyRequest,
): Promise<void> {
  const clientId = before?.clientId ?? request.auth?.user.currentClientId ?? null;
  const storedUsers =
    before && body.recipient_user_ids === undefined
      ? (
          await db
            .select({ id: surveyAlertRecipients.userId })
            .from(surveyAlertRecipients)
            .where(eq(surveyAlertRecipients.ruleId, before.id))
        ).map((r) => r.id)
      : [];
  const pick = <K extends keyof SurveyAlertRuleBody, V>(key: K, stored: V) => (body[key] !== undefined ? body[key] : stored);
  const errors = alertRuleProblems({
    trigger: pick('trigger', before?.trigger),
    score_min: pick('score_min', before?.scoreMin),
    score_max: pick('score_max', before?.scoreMax),
    keywords: pick('keywords', before?.keywords),
    no_response_days: pick('no_response_days', before?.noResponseDays),
    recipient_user_ids: body.recipient_user_ids ?? storedUsers,
    extra_emails: pick('extra_emails', before?.extraEmails),
    extra_phones: pick('extra_phones', before?.extraPhones),
    notify_assigned_personnel: pick('notify_assigned_personnel', before?.notifyAssignedPersonnel),
    notify_location_manager: pick('notify_location_manager', before?.notifyLocationManager),
    frequency: pick('frequency', before?.frequency),
    digest_hour: pick('digest_hour', before?.digestHour),
    escalate_after_hours: pick('escalate_after_hours', before?.escalateAfterHours),
    escalation_emails: pick('escalation_emails', before?.escalationEmails),
  });
  const foreign = clientId === null ? {} : await foreignReferences(db, clientId, body);
  for (const [field, messages] of Object.entries(foreign)) errors[field] = [...(errors[field] ?? []), ...messages];
  if (Object.keys(errors).length > 0) throw fieldsRefused(errors, surveyAlertRuleResource.labels);
}
