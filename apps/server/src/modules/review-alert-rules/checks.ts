import { type ReviewAlertRuleBody, reviewAlertRuleProblems } from '@admin/shared';
import type { reviewAlertRules } from '../../db/schema/index.ts';

type RuleRow = typeof reviewAlertRules.$inferSelect;

/**
 * `reviewAlertRuleProblems` (shared with the form) on the rule as it will be saved: the body over
 * the stored rule. The kit checks that its locations and users are its client's.
 */
export function reviewRuleProblems(
  body: Partial<ReviewAlertRuleBody>,
  before: RuleRow | null,
  recipientIds: number[],
): Record<string, string[]> {
  const pick = <K extends keyof ReviewAlertRuleBody, V>(key: K, stored: V) => (body[key] !== undefined ? body[key] : stored);
  return reviewAlertRuleProblems({
    rating_min: pick('rating_min', before?.ratingMin),
    rating_max: pick('rating_max', before?.ratingMax),
    keywords: pick('keywords', before?.keywords),
    recipient_user_ids: recipientIds,
    extra_emails: pick('extra_emails', before?.extraEmails),
    extra_phones: pick('extra_phones', before?.extraPhones),
    frequency: pick('frequency', before?.frequency),
    send_time: pick('send_time', before?.sendTime),
    weekly_day: pick('weekly_day', before?.weeklyDay),
  });
}
