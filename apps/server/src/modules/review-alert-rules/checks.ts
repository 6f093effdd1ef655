import { DEFAULT_RECIPIENT_ID, type ReviewAlertRuleBody, reviewAlertRuleProblems, reviewAlertRuleResource } from '@admin/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { clientUsers, locations, reviewAlertRecipients, type reviewAlertRules } from '../../db/schema/index.ts';
import { fieldsRefused } from '../../lib/http-error.ts';

type RuleRow = typeof reviewAlertRules.$inferSelect;

/** Values of `wanted` that are not in `own`, for a message naming them. */
const missing = <T>(wanted: readonly T[], own: readonly T[]) => [...new Set(wanted)].filter((v) => !own.includes(v));

/** Of the locations and users a body names, those that are not the client's (users: its active users, or Default for New User). */
async function foreignReferences(db: Db, clientId: number, body: Partial<ReviewAlertRuleBody>): Promise<Record<string, string[]>> {
  const L = reviewAlertRuleResource.labels;
  const errors: Record<string, string[]> = {};
  const locationIds = (body.location_ids ?? []).map((l) => l.trim());
  if (locationIds.length > 0) {
    const own = await db
      .select({ id: locations.id })
      .from(locations)
      .where(and(eq(locations.clientId, clientId), inArray(locations.id, [...new Set(locationIds)])));
    const other = missing(
      locationIds,
      own.map((l) => l.id),
    );
    if (other.length > 0)
      errors.location_ids = [`The ${L.location_ids} field names locations that are not this client's: ${other.join(', ')}`];
  }
  const userIds = (body.recipient_user_ids ?? []).filter((id) => id !== DEFAULT_RECIPIENT_ID);
  if (userIds.length > 0) {
    const own = await db
      .select({ id: clientUsers.userId })
      .from(clientUsers)
      .where(and(eq(clientUsers.clientId, clientId), eq(clientUsers.status, 'active'), inArray(clientUsers.userId, [...new Set(userIds)])));
    const other = missing(
      userIds,
      own.map((u) => u.id),
    );
    if (other.length > 0) {
      errors.recipient_user_ids = [
        `The ${L.recipient_user_ids} field names people who are not active users of this client: ${other.join(', ')}`,
      ];
    }
  }
  return errors;
}

/**
 * The checks beyond each field's rules, on the rule as it will be saved (the body over the stored
 * rule): `reviewAlertRuleProblems` (shared with the form), then the locations and users it names,
 * which must be its own client's. A new rule is the current client's; an edit keeps its client.
 */
export async function checkReviewRule(
  db: Db,
  body: Partial<ReviewAlertRuleBody>,
  before: RuleRow | null,
  request: FastifyRequest,
): Promise<void> {
  const clientId = before?.clientId ?? request.auth?.user.currentClientId ?? null;
  const storedUsers =
    before && body.recipient_user_ids === undefined
      ? (
          await db
            .select({ id: reviewAlertRecipients.userId })
            .from(reviewAlertRecipients)
            .where(eq(reviewAlertRecipients.ruleId, before.id))
        ).map((r) => r.id)
      : [];
  const pick = <K extends keyof ReviewAlertRuleBody, V>(key: K, stored: V) => (body[key] !== undefined ? body[key] : stored);
  const errors = reviewAlertRuleProblems({
    rating_min: pick('rating_min', before?.ratingMin),
    rating_max: pick('rating_max', before?.ratingMax),
    keywords: pick('keywords', before?.keywords),
    recipient_user_ids: body.recipient_user_ids ?? storedUsers,
    extra_emails: pick('extra_emails', before?.extraEmails),
    extra_phones: pick('extra_phones', before?.extraPhones),
    frequency: pick('frequency', before?.frequency),
    send_time: pick('send_time', before?.sendTime),
    weekly_day: pick('weekly_day', before?.weeklyDay),
  });
  const foreign = clientId === null ? {} : await foreignReferences(db, clientId, body);
  for (const [field, messages] of Object.entries(foreign)) errors[field] = [...(errors[field] ?? []), ...messages];
  if (Object.keys(errors).length > 0) throw fieldsRefused(errors, reviewAlertRuleResource.labels);
}
