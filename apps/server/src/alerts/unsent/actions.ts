import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { surveyAlertEvents, surveyAlertRules, surveyResponses } from '../../db/schema/index.ts';
import type { Messenger } from '../../messaging/send.ts';
import { deliverDue } from '../deliver.ts';
import { eventRows, insertEvents, namedBy } from '../evaluate.ts';
import { recipientsOf, ruleUsers } from '../recipients.ts';

/** The states Resend takes: an alert that has not reached anyone and nobody has set aside. */
export const RESENDABLE = ['unsent', 'retrying'] as const;

/**
 * Resend: each event goes out again through the delivery loop's path (deliver.ts), now. An event
 * with a recipient is sent to it (or to `to`, Resend to…) and becomes `resent` when it arrives, or
 * unsent again with its new reason. A `no_recipients` event re-resolves its rule's recipients as
 * they are today: the alert goes to each (new events) and this one is `resent`, or it stays unsent
 * when the rule still reaches nobody. Answers how many events went out.
 */
export async function resendEvents(db: Db, messenger: Messenger, ids: number[], now: Date, to: string | null = null): Promise<number> {
  if (ids.length === 0) return 0;
  const events = await db
    .select()
    .from(surveyAlertEvents)
    .where(and(inArray(surveyAlertEvents.id, ids), inArray(surveyAlertEvents.state, [...RESENDABLE])));
  const direct = events.filter((e) => e.recipient !== '' || to !== null).map((e) => e.id);
  const due: number[] = [...direct];
  if (direct.length > 0)
    await db
      .update(surveyAlertEvents)
      .set({
        state: 'pending',
        reason: null,
        nextRetryAt: now,
        resentTo: to ?? sql`${surveyAlertEvents.recipient}`,
        updatedAt: now,
      })
      .where(inArray(surveyAlertEvents.id, direct));
  for (const e of events.filter((e) => e.recipient === '' && to === null)) {
    const [rule] = await db.select().from(surveyAlertRules).where(eq(surveyAlertRules.id, e.ruleId));
    const [response] = e.responseId ? await db.select().from(surveyResponses).where(eq(surveyResponses.id, e.responseId)) : [];
    if (!rule) continue;
    const users = (await ruleUsers(db, rule.clientId, [rule.id])).get(rule.id) ?? [];
    const recipients = recipientsOf(rule, users, await namedBy(db, response?.personnelId ?? null, response?.locationId ?? null));
    if (recipients.length === 0) continue;
    const about = { responseId: e.responseId, processingItemId: e.processingItemId };
    await insertEvents(db, eventRows({ ...rule, frequency: 'instant' }, recipients, about, now));
    const fresh = await db
      .select({ id: surveyAlertEvents.id })
      .from(surveyAlertEvents)
      .where(and(eq(surveyAlertEvents.ruleId, rule.id), eq(surveyAlertEvents.state, 'pending'), eq(surveyAlertEvents.createdAt, now)));
    due.push(...fresh.map((f) => f.id));
    await db.update(surveyAlertEvents).set({ state: 'resent', reason: null, updatedAt: now }).where(eq(surveyAlertEvents.id, e.id));
  }
  await deliverDue(db, messenger, now, due);
  const arrived = due.length
    ? await db
        .select({ id: surveyAlertEvents.id })
        .from(surveyAlertEvents)
        .where(and(inArray(surveyAlertEvents.id, due), inArray(surveyAlertEvents.state, ['sent', 'resent'])))
    : [];
  return arrived.length;
}

/** Dismiss: the alert is set aside with a note; it leaves the retry loop. */
export async function dismissEvent(db: Db, id: number, note: string, userId: number | null, now: Date): Promise<boolean> {
  const done = await db
    .update(surveyAlertEvents)
    .set({ state: 'dismissed', note, dismissedBy: userId, nextRetryAt: null, updatedAt: now })
    .where(and(eq(surveyAlertEvents.id, id), inArray(surveyAlertEvents.state, [...RESENDABLE])))
    .returning({ id: surveyAlertEvents.id });
  return done.length > 0;
}
