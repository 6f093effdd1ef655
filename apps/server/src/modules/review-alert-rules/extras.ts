import { type AlertRecipient, DEFAULT_USER_ENTRY } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { reviewAlertRecipients } from '../../db/schema/index.ts';

/** What a review rule's own row does not hold: the names of its locations and users. */
export type ReviewRuleExtras = { locationNames: Map<string, string>; recipients: AlertRecipient[] };
export const noExtras = (): ReviewRuleExtras => ({ locationNames: new Map(), recipients: [] });

/** Names for one page of rules, two statements whatever the page's size. */
export async function extrasOf(db: Db, rules: { id: number; locationIds: string[] }[]): Promise<Map<number, ReviewRuleExtras>> {
  const found = new Map<number, ReviewRuleExtras>(rules.map((r) => [r.id, noExtras()]));
  if (rules.length === 0) return found;
  const locationIds = [...new Set(rules.flatMap((r) => r.locationIds))];
  const locationNames = new Map<string, string>();
  if (locationIds.length > 0) {
    const rows = rowsOf(
      await db.execute(sql`select _id as id, locationname from locations where _id = any(${sql.param(locationIds)}::text[])`),
    );
    for (const r of rows) locationNames.set(String(r.id), String(r.locationname));
  }
  const recipients = rowsOf(
    await db.execute(sql`
      select r.rule_id, r.user_id, r.added_by, u.name
      from ${reviewAlertRecipients} r left join users u on u.id = r.user_id and r.user_id <> ${DEFAULT_USER_ENTRY.id}
      where r.rule_id = any(${sql.param(rules.map((r) => r.id))}::integer[])
      order by r.rule_id, (r.user_id = ${DEFAULT_USER_ENTRY.id}) desc, lower(u.name), r.user_id`),
  );
  for (const r of recipients) {
    const userId = Number(r.user_id);
    const name = userId === DEFAULT_USER_ENTRY.id ? DEFAULT_USER_ENTRY.name : String(r.name ?? `#${userId}`);
    found.get(Number(r.rule_id))?.recipients.push({ id: userId, name, added_by: r.added_by === 'default' ? 'default' : 'chosen' });
  }
  for (const extras of found.values()) extras.locationNames = locationNames;
  return found;
}
