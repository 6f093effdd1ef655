import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { type reviewAlertRecipients, surveyAlertRecipients } from '../db/schema/index.ts';

/** "Default for New User" (pipeline.md "Alerts"): a template entry on a rule, never a person. */
export const DEFAULT_FOR_NEW_USER = 1000;

export type Channel = 'email' | 'sms';
export type Recipient = { channel: Channel; to: string };

/** What recipient resolution reads of a rule. */
export type RuleReach = {
  id: number;
  channels: readonly string[];
  extraEmails: readonly string[];
  extraPhones: readonly string[];
  notifyAssignedPersonnel: boolean;
  notifyLocationManager: boolean;
};

/** The people a response names: its personnel and its location's manager, with their addresses. */
export type Named = {
  personnel: { email: string | null; phone: string | null } | null;
  manager: { email: string | null; phone: string | null } | null;
};

type UserReach = { ruleId: number; email: string; phone: string | null; channels: string[] };

/** Where a kind of rule keeps its recipient users: survey rules' or review rules' (both rule_id, user_id). */
export type RecipientTable = typeof surveyAlertRecipients | typeof reviewAlertRecipients;

/**
 * The chosen users of these rules who are active users of the client, with the channels each
 * accepts. `table` is the rules' recipient table: survey alert rules by default, review alert rules
 * (apps/server/src/review-alerts/) read theirs the same way.
 */
export async function ruleUsers(
  db: Db,
  clientId: number,
  ruleIds: number[],
  table: RecipientTable = surveyAlertRecipients,
): Promise<Map<number, UserReach[]>> {
  const byRule = new Map<number, UserReach[]>();
  if (ruleIds.length === 0) return byRule;
  const rows = rowsOf(
    await db.execute(sql`
      select r.rule_id, u.email, u.phone, cu.alert_channels
      from ${table} r
      join client_users cu on cu.user_id = r.user_id and cu.client_id = ${clientId} and cu.status = 'active'
      join users u on u.id = r.user_id
      where r.rule_id in (select jsonb_array_elements_text(${JSON.stringify(ruleIds)}::jsonb)::int)
        and r.user_id <> ${DEFAULT_FOR_NEW_USER}`),
  );
  for (const r of rows) {
    const ruleId = Number(r.rule_id);
    const list = byRule.get(ruleId) ?? [];
    list.push({
      ruleId,
      email: String(r.email),
      phone: r.phone === null ? null : String(r.phone),
      channels: Array.isArray(r.alert_channels) ? r.alert_channels.map(String) : parsePgArray(String(r.alert_channels ?? '')),
    });
    byRule.set(ruleId, list);
  }
  return byRule;
}

/** A text[] as PostgreSQL's text form (`{email,sms}`), which some drivers return for raw queries. */
function parsePgArray(text: string): string[] {
  const inner = text.replace(/^\{|\}$/g, '');
  return inner === '' ? [] : inner.split(',').map((s) => s.replace(/^"|"$/g, ''));
}

/** Every address a rule reaches on its channels, once each (an address listed twice alerts once). */
export function recipientsOf(rule: RuleReach, users: readonly UserReach[], named: Named): Recipient[] {
  const wants = (c: Channel) => rule.channels.includes(c);
  const out = new Map<string, Recipient>();
  const add = (channel: Channel, to: string | null | undefined) => {
    const value = to?.trim();
    if (!value || !wants(channel)) return;
    const normal = channel === 'email' ? value.toLowerCase() : value;
    out.set(`${channel}:${normal}`, { channel, to: normal });
  };
  for (const u of users) {
    if (u.channels.includes('email')) add('email', u.email);
    if (u.channels.includes('sms')) add('sms', u.phone);
  }
  for (const e of rule.extraEmails) add('email', e);
  for (const p of rule.extraPhones) add('sms', p);
  if (rule.notifyAssignedPersonnel && named.personnel) {
    add('email', named.personnel.email);
    add('sms', named.personnel.phone);
  }
  if (rule.notifyLocationManager && named.manager) {
    add('email', named.manager.email);
    add('sms', named.manager.phone);
  }
  return [...out.values()];
}
