import type { AlertRecipient } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { surveyAlertEvents, surveyAlertRecipients } from '../../db/schema/index.ts';
import { locationNamesOf, recipientsOf } from '../../kit/alert-rules/recipients.ts';

/** What a rule's own row does not hold: names of its surveys, locations and users, and its alert counts. */
export type RuleExtras = {
  surveyNames: Map<number, string>;
  locationNames: Map<string, string>;
  recipients: AlertRecipient[];
  lastFiredAt: string | null;
  fired30d: number;
  unsent30d: number;
};
export const noExtras = (): RuleExtras => ({
  surveyNames: new Map(),
  locationNames: new Map(),
  recipients: [],
  lastFiredAt: null,
  fired30d: 0,
  unsent30d: 0,
});

type Listed = { id: number; surveyIds: number[]; locationIds: string[] };
const ids = (list: readonly number[]) => sql`${sql.param([...list])}::integer[]`;

/**
 * Names and counts for one page of rules, a few statements whatever the page's size. The counts
 * read survey_alert_events per rule through its (rule_id, created_at) index, test events left
 * out: a page of 50 rules never scans every event.
 */
export async function extrasOf(db: Db, rules: Listed[]): Promise<Map<number, RuleExtras>> {
  const found = new Map<number, RuleExtras>(rules.map((r) => [r.id, noExtras()]));
  if (rules.length === 0) return found;
  const ruleIds = rules.map((r) => r.id);
  const surveyIds = [...new Set(rules.flatMap((r) => r.surveyIds))];
  const surveyNames = new Map<number, string>();
  if (surveyIds.length > 0) {
    const rows = rowsOf(await db.execute(sql`select id, name from surveys where id = any(${ids(surveyIds)})`));
    for (const r of rows) surveyNames.set(Number(r.id), String(r.name));
  }
  const locationNames = await locationNamesOf(db, rules);
  for (const [ruleId, list] of await recipientsOf(db, surveyAlertRecipients, ruleIds)) {
    const extras = found.get(ruleId);
    if (extras) extras.recipients = list;
  }
  // One lateral probe of the (rule_id, created_at) index per listed rule.
  const counts = rowsOf(
    await db.execute(sql`
      select rule.id as rule_id,
        (select to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from ${surveyAlertEvents} e
          where e.rule_id = rule.id and not e.test order by e.created_at desc limit 1) as last_fired_at,
        c.fired, c.unsent
      from unnest(${ids(ruleIds)}) as rule(id)
      cross join lateral (
        select count(*)::int as fired, count(*) filter (where e.state = 'unsent')::int as unsent
        from ${surveyAlertEvents} e where e.rule_id = rule.id and e.created_at >= now() - interval '30 days' and not e.test
      ) c`),
  );
  for (const c of counts) {
    const extras = found.get(Number(c.rule_id));
    if (!extras) continue;
    extras.lastFiredAt = c.last_fired_at === null ? null : String(c.last_fired_at);
    extras.fired30d = Number(c.fired);
    extras.unsent30d = Number(c.unsent);
  }
  for (const rule of rules) {
    const extras = found.get(rule.id);
    if (!extras) continue;
    extras.surveyNames = surveyNames;
    extras.locationNames = locationNames;
  }
  return found;
}
