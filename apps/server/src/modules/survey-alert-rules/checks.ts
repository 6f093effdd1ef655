import { alertRuleProblems, type SurveyAlertRuleBody, surveyAlertRuleResource } from '@admin/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type surveyAlertRules, surveys } from '../../db/schema/index.ts';
import { missing } from '../../kit/alert-rules/check.ts';

type RuleRow = typeof surveyAlertRules.$inferSelect;

/** Of the surveys a body names, those that are not the client's (the kit checks locations and users). */
export async function foreignSurveys(db: Db, clientId: number, body: Partial<SurveyAlertRuleBody>): Promise<Record<string, string[]>> {
  const surveyIds = body.survey_ids ?? [];
  if (surveyIds.length === 0) return {};
  const own = await db
    .select({ id: surveys.id })
    .from(surveys)
    .where(and(eq(surveys.clientId, clientId), inArray(surveys.id, [...new Set(surveyIds)])));
  const other = missing(
    surveyIds,
    own.map((s) => s.id),
  );
  const label = surveyAlertRuleResource.labels.survey_ids;
  return other.length > 0 ? { survey_ids: [`The ${label} field names surveys that are not this client's: ${other.join(', ')}`] } : {};
}

/** `alertRuleProblems` (shared with the form) on the rule as it will be saved: the body over the stored rule. */
export function surveyRuleProblems(
  body: Partial<SurveyAlertRuleBody>,
  before: RuleRow | null,
  recipientIds: number[],
): Record<string, string[]> {
  const pick = <K extends keyof SurveyAlertRuleBody, V>(key: K, stored: V) => (body[key] !== undefined ? body[key] : stored);
  return alertRuleProblems({
    trigger: pick('trigger', before?.trigger),
    score_min: pick('score_min', before?.scoreMin),
    score_max: pick('score_max', before?.scoreMax),
    keywords: pick('keywords', before?.keywords),
    no_response_days: pick('no_response_days', before?.noResponseDays),
    recipient_user_ids: recipientIds,
    extra_emails: pick('extra_emails', before?.extraEmails),
    extra_phones: pick('extra_phones', before?.extraPhones),
    notify_assigned_personnel: pick('notify_assigned_personnel', before?.notifyAssignedPersonnel),
    notify_location_manager: pick('notify_location_manager', before?.notifyLocationManager),
    frequency: pick('frequency', before?.frequency),
    digest_hour: pick('digest_hour', before?.digestHour),
    escalate_after_hours: pick('escalate_after_hours', before?.escalateAfterHours),
    escalation_emails: pick('escalation_emails', before?.escalationEmails),
  });
}
