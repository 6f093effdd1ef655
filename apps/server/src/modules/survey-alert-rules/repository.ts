import {
  type AlertChannel,
  type AlertTrigger,
  type SurveyAlertRule,
  type SurveyAlertRuleBody,
  type SurveyAlertRuleListQuery,
  surveyAlertRuleResource,
} from '@admin/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients, surveyAlertRecipients, surveyAlertRules } from '../../db/schema/index.ts';
import { clientScopeOf, inClientScope } from '../../kit/current-client.ts';
import { allOf, containsPattern, inList, type KeyColumn } from '../../kit/keyset.ts';
import { keysetPage, resourceSort, whereClause } from '../../kit/keyset-page.ts';
import type { ResourceStore } from '../../kit/resource-store.ts';
import { countMatching } from '../../kit/totals.ts';
import { notFound } from '../../lib/http-error.ts';
import { checkRule } from './checks.ts';
import { extrasOf, noExtras, type RuleExtras } from './extras.ts';
import { setRecipients } from './recipients.ts';

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

/** One rule with its client's name, the names it lists and its counts. */
export async function loadRule(db: Db, id: number): Promise<SurveyAlertRule> {
  const [found] = await db
    .select({ row: surveyAlertRules, clientName: clients.name })
    .from(surveyAlertRules)
    .leftJoin(clients, eq(clients.id, surveyAlertRules.clientId))
    .where(eq(surveyAlertRules.id, id))
    .limit(1);
  if (!found) throw notFound('Alert rule');
  return toRule(found.row, found.clientName, (await extrasOf(db, [found.row])).get(id));
}

const SORTS: Record<NonNullable<SurveyAlertRuleListQuery['sort']>, KeyColumn> = {
  name: { expr: sql`lower(${surveyAlertRules.name})`, cast: 'text' },
  trigger: { expr: sql`${surveyAlertRules.trigger}`, cast: 'text' },
  frequency: { expr: sql`${surveyAlertRules.frequency}`, cast: 'text' },
  status: { expr: sql`${surveyAlertRules.status}`, cast: 'text' },
  updated_at: { expr: sql`${surveyAlertRules.updatedAt}`, cast: 'timestamptz' },
};
const byId: KeyColumn = { expr: sql`${surveyAlertRules.id}`, cast: 'integer' };

type Filters = Omit<SurveyAlertRuleListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;

function where(q: Filters, clientId: number | null): SQL | undefined {
  const like = containsPattern(q.q);
  const surveyIds = (q.survey ?? []).map(Number);
  const recipientIds = (q.recipient ?? []).map(Number);
  return allOf([
    inClientScope(surveyAlertRules.clientId, clientScopeOf(q.client, clientId)),
    inList(sql`${surveyAlertRules.status}`, q.status),
    inList(sql`${surveyAlertRules.trigger}`, q.trigger),
    // A rule for every survey (or location) is a rule for the one chosen too.
    surveyIds.length > 0
      ? sql`(${surveyAlertRules.surveyIds} = '{}' or ${surveyAlertRules.surveyIds} && ${sql.param(surveyIds)}::integer[])`
      : undefined,
    q.location && q.location.length > 0
      ? sql`(${surveyAlertRules.locationIds} = '{}' or ${surveyAlertRules.locationIds} && ${sql.param(q.location)}::text[])`
      : undefined,
    recipientIds.length > 0
      ? sql`exists (select 1 from ${surveyAlertRecipients} r where r.rule_id = ${surveyAlertRules.id} and r.user_id = any(${sql.param(recipientIds)}::integer[]))`
      : undefined,
    like ? sql`${surveyAlertRules.name} ilike ${like}` : undefined,
  ]);
}

async function listRules(db: Db, q: SurveyAlertRuleListQuery, clientId: number | null, limit: number) {
  const sort = resourceSort(SORTS, byId, q, { sort: 'name', order: surveyAlertRuleResource.defaultSort.order });
  const { page, nextCursor } = await keysetPage({ ...sort, where: where(q, clientId), cursor: q.cursor, limit }, (p) =>
    db
      .select({ row: surveyAlertRules, clientName: clients.name, ...p.fields })
      .from(surveyAlertRules)
      .leftJoin(clients, eq(clients.id, surveyAlertRules.clientId))
      .where(p.where)
      .orderBy(...p.orderBy)
      .limit(p.limit),
  );
  const extras = await extrasOf(
    db,
    page.map((r) => r.row),
  );
  return { rows: page.map((r) => toRule(r.row, r.clientName, extras.get(r.row.id))), nextCursor };
}

function countRules(db: Db, q: SurveyAlertRuleListQuery, clientId: number | null) {
  return countMatching(db, sql`from ${surveyAlertRules}${whereClause(where(q, clientId))}`);
}

const trimmed = (list: readonly string[] | undefined) =>
  list === undefined ? undefined : [...new Set(list.map((v) => v.trim()).filter((v) => v !== ''))];

/** Column values from a (partial) body: text and lists trimmed, blanks and repeats dropped. */
export function ruleValues(body: Partial<SurveyAlertRuleBody>): Partial<typeof surveyAlertRules.$inferInsert> {
  const values: Partial<typeof surveyAlertRules.$inferInsert> = {
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
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/**
 * Survey alert rules of the current client or of the clients chosen in the filter: the rules
 * across fields and the references to the rule's own client (checks.ts), the recipient users
 * written beside the row (recipients.ts), names and alert counts read per page (extras.ts).
 */
export const surveyAlertRuleStore: ResourceStore<SurveyAlertRule, RuleRow, SurveyAlertRuleBody, SurveyAlertRuleListQuery, number | null> = {
  table: surveyAlertRules,
  toRecord: toRule,
  list: listRules,
  count: countRules,
  values: ruleValues,
  check: checkRule,
  async afterWrite(tx, row, body) {
    if (body.recipient_user_ids) await setRecipients(tx, row.id, body.recipient_user_ids);
  },
  reload: loadRule,
};
