import type { AlertRecipient } from '@admin/shared';
import type { Db } from '../../db/client.ts';
import { reviewAlertRecipients } from '../../db/schema/index.ts';
import { locationNamesOf, recipientsOf } from '../../kit/alert-rules/recipients.ts';

/** What a review rule's own row does not hold: the names of its locations and users. */
export type ReviewRuleExtras = { locationNames: Map<string, string>; recipients: AlertRecipient[] };
export const noExtras = (): ReviewRuleExtras => ({ locationNames: new Map(), recipients: [] });

/** Names for one page of rules, two statements whatever the page's size. */
export async function extrasOf(db: Db, rules: { id: number; locationIds: string[] }[]): Promise<Map<number, ReviewRuleExtras>> {
  const found = new Map<number, ReviewRuleExtras>();
  if (rules.length === 0) return found;
  const locationNames = await locationNamesOf(db, rules);
  const recipients = await recipientsOf(
    db,
    reviewAlertRecipients,
    rules.map((r) => r.id),
  );
  for (const r of rules) found.set(r.id, { locationNames, recipients: recipients.get(r.id) ?? [] });
  return found;
}
