import {
  type AlertChannel,
  type AlertTrigger,
  type SurveyAlertRule,
  type SurveyAlertRuleBody,
  type SurveyAlertRuleListQuery,
  surveyAlertRuleResource,
} from '@admin/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { surveyAlertRecipients, surveyAlertRules } from '../../db/schema/index.ts';
import { type AlertRuleKind, defined, trimmed } from '../../kit/alert-rules/kind.ts';
import { alertRuleStore, loadAlertRule } from '../../kit/alert-rules/store.ts';
import { inList } from '../../kit/keyset.ts';
import { foreignSurveys, surveyRuleProblems } from './checks.ts';
import { extrasOf, noExtras, type RuleExtras } from './extras.ts';

export type RuleRow = typeof surveyAlertRules.$inferSelect;

export function toRule(row: RuleRow, clientName: string | null = null, extras: RuleExtras = noExtras()): SurveyAlertRule {
  return {
    id: row.id,
    client_id: row.clientId,
    client_name: clientName,
    name: row.name,
    survey_ids: row.surveyIds,
    survey_names: row.surveyIds.map((id) => extras.surveyNames.get(id) ?? `#${id}`),
    location_ids: row.locationIds,
    location_names: row.locationIds.map((id) => extras.locationNames.get(id) ?? id),
    trigger: row.trigger as AlertTrigger,
    score_min: row.scoreMin,
    score_max: row.scoreMax,
    keywords: row.keywords,
    no_response_days: row.noResponseDays,
    channels: row.channels as AlertChannel[],
    recipient_user_ids: extras.recipients.map((r) => r.id),
    recipients: extras.recipients,
    extra_emails: row.extraEmails,
    extra_phones: row.extraPhones,
    notify_assigned_personnel: row.notifyAssignedPersonnel,
    notify_location_manager: row.notifyLocationManager,
    frequency: row.frequency as SurveyAlertRule['frequency'],
    digest_hour: row.digestHour,
    escalate_after_hours: row.escalateAfterHours,
    escalation_emails: row.escalationEmails,
    last_fired_at: extras.lastFiredAt,
    fired_30d: extras.fired30d,
    unsent_30d: extras.unsent30d,
    status: row.status as SurveyAlertRule['status'],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Column values from a (partial) body: text and lists trimmed, blanks and repeats dropped. */
export function ruleValues(body: Partial<SurveyAlertRuleBody>): Record<string, unknown> {
  return defined({
    name: body.name?.trim(),
    surveyIds: body.survey_ids ? [...new Set(body.survey_ids)] : undefined,
    locationIds: trimmed(body.location_ids),
    trigger: body.trigger ?? undefined,
    scoreMin: body.score_min,
    scoreMax: body.score_max,
    keywords: trimmed(body.keywords),
    noResponseDays: body.no_response_days,
    channels: trimmed(body.channels),
    extraEmails: trimmed(body.extra_emails)?.map((e) => e.toLowerCase()),
    extraPhones: trimmed(body.extra_phones),
    notifyAssignedPersonnel: body.notify_assigned_personnel,
    notifyLocationManager: body.notify_location_manager,
    frequency: body.frequency ?? undefined,
    digestHour: body.digest_hour,
    escalateAfterHours: body.escalate_after_hours,
    escalationEmails: trimmed(body.escalation_emails)?.map((e) => e.toLowerCase()),
  });
}

/**
 * Survey Alert Settings as a kind of alert rule (apps/server/src/kit/alert-rules/): what it adds
 * to every rule — surveys, trigger and score, no-response days, personnel and manager, digest
 * hour, escalation — its filters by trigger and survey (a rule for every survey is one for the
 * survey chosen too), its names and alert counts per page (extras.ts), its checks (checks.ts).
 */
export const surveyAlertRuleKind: AlertRuleKind<
  typeof surveyAlertRules,
  SurveyAlertRule,
  SurveyAlertRuleBody,
  SurveyAlertRuleListQuery,
  RuleExtras
> = {
  definition: surveyAlertRuleResource,
  rules: surveyAlertRules,
  recipients: surveyAlertRecipients,
  notFound: 'Alert rule',
  what: 'alert rule',
  sorts: {
    name: { expr: sql`lower(${surveyAlertRules.name})`, cast: 'text' },
    trigger: { expr: sql`${surveyAlertRules.trigger}`, cast: 'text' },
    frequency: { expr: sql`${surveyAlertRules.frequency}`, cast: 'text' },
    status: { expr: sql`${surveyAlertRules.status}`, cast: 'text' },
    updated_at: { expr: sql`${surveyAlertRules.updatedAt}`, cast: 'timestamptz' },
  },
  filters(q) {
    const surveyIds = (q.survey ?? []).map(Number);
    return [
      inList(sql`${surveyAlertRules.trigger}`, q.trigger),
      surveyIds.length > 0
        ? sql`(${surveyAlertRules.surveyIds} = '{}' or ${surveyAlertRules.surveyIds} && ${sql.param(surveyIds)}::integer[])`
        : undefined,
    ];
  },
  extrasOf,
  toRecord: toRule,
  values: ruleValues,
  problems: surveyRuleProblems,
  foreign: foreignSurveys,
  copyOf: ({ id: _id, createdAt: _c, updatedAt: _u, ...rest }) => rest,
};

export const surveyAlertRuleStore = alertRuleStore(surveyAlertRuleKind);
export const loadRule = (db: Db, id: number) => loadAlertRule(surveyAlertRuleKind, db, id);
