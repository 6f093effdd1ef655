import { and, eq, notInArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { reviewAlertRecipients } from '../../db/schema/index.ts';

/**
 * Replaces a review rule's recipient users with `userIds`, as survey rules' do
 * (apps/server/src/modules/survey-alert-rules/recipients.ts; a module may not import another's):
 * users kept keep how they came (joined by default stays marked so); new ones are `chosen`.
 */
export async function setReviewRecipients(tx: Db, ruleId: number, userIds: readonly number[]): Promise<void> {
  const unique = [...new Set(userIds)];
  await tx
    .delete(reviewAlertRecipients)
    .where(and(eq(reviewAlertRecipients.ruleId, ruleId), unique.length > 0 ? notInArray(reviewAlertRecipients.userId, unique) : undefined));
  if (unique.length > 0) {
    await tx
      .insert(reviewAlertRecipients)
      .values(unique.map((userId) => ({ ruleId, userId, addedBy: 'chosen' })))
      .onConflictDoNothing();
  }
}
