import { DEFAULT_RECIPIENT_ID } from '@admin/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { reviewAlertRecipients, reviewAlertRules, surveyAlertRecipients, surveyAlertRules } from '../../db/schema/index.ts';

/**
 * "Default for New User" (pipeline.md): a user just added to a client joins every rule of that
 * client that lists user id 1000, marked `default`, in the caller's transaction. Archived rules
 * too, so a restored rule has them. Returns the ids of the rules joined.
 */
export async function joinDefaultRules(tx: Db, clientId: number, userId: number): Promise<number[]> {
  const rules = await tx
    .select({ id: surveyAlertRules.id })
    .from(surveyAlertRules)
    .where(
      and(
        eq(surveyAlertRules.clientId, clientId),
        sql`exists (select 1 from ${surveyAlertRecipients} r where r.rule_id = ${surveyAlertRules.id} and r.user_id = ${DEFAULT_RECIPIENT_ID})`,
      ),
    );
  if (rules.length === 0) return [];
  const joined = await tx
    .insert(surveyAlertRecipients)
    .values(rules.map((r) => ({ ruleId: r.id, userId, addedBy: 'default' })))
    .onConflictDoNothing()
    .returning({ ruleId: surveyAlertRecipients.ruleId });
  return joined.map((j) => j.ruleId);
}

/** The rules of some ids (for messages). */
export async function ruleNames(tx: Db, ids: number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx.select({ name: surveyAlertRules.name }).from(surveyAlertRules).where(inArray(surveyAlertRules.id, ids));
  return rows.map((r) => r.name);
}

/**
 * The same for review alert rules (domain.md §11, "Defaults for new users"): the new user joins
 * every rule of the client that lists user id 1000, marked `default`. Returns the rules joined.
 */
export async function joinDefaultReviewRules(tx: Db, clientId: number, userId: number): Promise<{ id: number; name: string }[]> {
  const rules = await tx
    .select({ id: reviewAlertRules.id, name: reviewAlertRules.name })
    .from(reviewAlertRules)
    .where(
      and(
        eq(reviewAlertRules.clientId, clientId),
        sql`exists (select 1 from ${reviewAlertRecipients} r where r.rule_id = ${reviewAlertRules.id} and r.user_id = ${DEFAULT_RECIPIENT_ID})`,
      ),
    );
  if (rules.length === 0) return [];
  const joined = await tx
    .insert(reviewAlertRecipients)
    .values(rules.map((r) => ({ ruleId: r.id, userId, addedBy: 'default' })))
    .onConflictDoNothing()
    .returning({ ruleId: reviewAlertRecipients.ruleId });
  const ids = new Set(joined.map((j) => j.ruleId));
  return rules.filter((r) => ids.has(r.id));
}
