import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { reviewAlertDeliveries, reviewAlertRules, reviews } from '../db/schema/index.ts';
import { conflict, notFound } from '../lib/http-error.ts';
import type { Messenger } from '../messaging/send.ts';
import { deliverDue } from './deliver.ts';
import { deliveryRows, insertDeliveries, recipientsOfRules } from './evaluate.ts';
import { reviewMatches } from './matching.ts';

/** Recent reviews Send test looks through for one the rule would alert on. */
const SAMPLE_WINDOW = 200;

/**
 * Send test (Review Alert Settings): the rule's alert now, to its real recipients, whatever its
 * frequency, marked "[Test]". The sample is the client's newest review the rule's filters pass,
 * else none (the message then says no review in particular). Its deliveries are `test` (never
 * unique, left out of the report).
 */
export async function sendTest(db: Db, messenger: Messenger, ruleId: number, clientId: number, now: Date) {
  const [rule] = await db
    .select()
    .from(reviewAlertRules)
    .where(and(eq(reviewAlertRules.id, ruleId), eq(reviewAlertRules.clientId, clientId)));
  if (!rule) throw notFound('Review alert rule');
  if (rule.status === 'inactive') throw conflict('An archived rule cannot be tested: restore it first.');
  const recent = await db
    .select()
    .from(reviews)
    .where(and(eq(reviews.clientId, clientId), rule.sites.length > 0 ? inArray(reviews.site, rule.sites) : undefined))
    .orderBy(desc(reviews.reviewCreatedAt), desc(reviews.id))
    .limit(SAMPLE_WINDOW);
  const sample = recent.find((r) => reviewMatches(rule, r)) ?? null;
  const recipients = (await recipientsOfRules(db, clientId, [rule])).get(rule.id) ?? [];
  const ids = await insertDeliveries(db, deliveryRows({ ...rule, frequency: 'instant' }, recipients, sample?.id ?? null, now, true));
  await deliverDue(db, messenger, now, ids);
  const sent = ids.length
    ? await db
        .select({ id: reviewAlertDeliveries.id })
        .from(reviewAlertDeliveries)
        .where(and(inArray(reviewAlertDeliveries.id, ids), eq(reviewAlertDeliveries.status, 'sent')))
    : [];
  return { rule, sent: sent.length, recipients: recipients.map((r) => r.to) };
}
