import { and, eq, notInArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { surveyAlertRecipients } from '../../db/schema/index.ts';

/**
 * Replaces a rule's recipient users with `userIds`. Users kept keep how they came (a user who
 * joined by default stays marked so); new ones are `chosen`.
 */
export async function setRecipients(tx: Db, ruleId: number, userIds: readonly number[]): Promise<void> {
  const unique = [...new Set(userIds)];
  await tx
    .delete(surveyAlertRecipients)
    .where(and(eq(surveyAlertRecipients.ruleId, ruleId), unique.length > 0 ? notInArray(surveyAlertRecipients.userId, unique) : undefined));
  if (unique.length > 0) {
    await tx
      .insert(surveyAlertRecipients)
      .values(unique.map((userId) => ({ ruleId, userId, addedBy: 'chosen' })))
      .onConflictDoNothing();
  }
}
