import { type AlertRecipient, DEFAULT_USER_ENTRY } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import type { reviewAlertRecipients, surveyAlertRecipients } from '../../db/schema/index.ts';

/** A rule kind's recipient users table: (rule_id, user_id, added_by), the same in both. */
export type RecipientTable = typeof surveyAlertRecipients | typeof reviewAlertRecipients;

const ids = (list: readonly number[]) => sql`${sql.param([...new Set(list)])}::integer[]`;

/**
 * Replaces a rule's recipient users with `userIds`. Users kept keep how they came (a user who
 * joined by default stays marked so); new ones are `chosen`.
 */
export async function setRecipients(tx: Db, table: RecipientTable, ruleId: number, userIds: readonly number[]): Promise<void> {
  await tx.execute(sql`delete from ${table} where rule_id = ${ruleId} and not (user_id = any(${ids(userIds)}))`);
  if (userIds.length === 0) return;
  await tx.execute(sql`
    insert into ${table} (rule_id, user_id, added_by)
    select ${ruleId}, u, 'chosen' from unnest(${ids(userIds)}) as u
    on conflict do nothing`);
}

/** The recipient user ids a stored rule has (the checks read them when a body leaves them out). */
export async function storedRecipients(db: Db, table: RecipientTable, ruleId: number): Promise<number[]> {
  return rowsOf(await db.execute(sql`select user_id from ${table} where rule_id = ${ruleId}`)).map((r) => Number(r.user_id));
}

/** Gives a Duplicate's copy the source's recipients, each as it came. */
export async function copyRecipients(tx: Db, table: RecipientTable, fromId: number, toId: number): Promise<void> {
  await tx.execute(sql`
    insert into ${table} (rule_id, user_id, added_by)
    select ${toId}, user_id, added_by from ${table} where rule_id = ${fromId}`);
}

/** The recipients of a page of rules, by rule, Default for New User first, then by name: one statement. */
export async function recipientsOf(db: Db, table: RecipientTable, ruleIds: readonly number[]): Promise<Map<number, AlertRecipient[]>> {
  const found = new Map<number, AlertRecipient[]>(ruleIds.map((id) => [id, []]));
  if (ruleIds.length === 0) return found;
  const rows = rowsOf(
    await db.execute(sql`
      select r.rule_id, r.user_id, r.added_by, u.name
      from ${table} r left join users u on u.id = r.user_id and r.user_id <> ${DEFAULT_USER_ENTRY.id}
      where r.rule_id = any(${ids(ruleIds)})
      order by r.rule_id, (r.user_id = ${DEFAULT_USER_ENTRY.id}) desc, lower(u.name), r.user_id`),
  );
  for (const r of rows) {
    const userId = Number(r.user_id);
    const name = userId === DEFAULT_USER_ENTRY.id ? DEFAULT_USER_ENTRY.name : String(r.name ?? `#${userId}`);
    found.get(Number(r.rule_id))?.push({ id: userId, name, added_by: r.added_by === 'default' ? 'default' : 'chosen' });
  }
  return found;
}

/** The names of the locations a page of rules lists: one statement. */
export async function locationNamesOf(db: Db, rules: readonly { locationIds: string[] }[]): Promise<Map<string, string>> {
  const locationIds = [...new Set(rules.flatMap((r) => r.locationIds))];
  const names = new Map<string, string>();
  if (locationIds.length === 0) return names;
  const rows = rowsOf(
    await db.execute(sql`select _id as id, locationname from locations where _id = any(${sql.param(locationIds)}::text[])`),
  );
  for (const r of rows) names.set(String(r.id), String(r.locationname));
  return names;
}
