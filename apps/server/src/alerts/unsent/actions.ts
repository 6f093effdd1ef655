import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { surveyAlertEvents, surveyAlertRules, surveyResponses } from '../../db/schema/index.ts';
import type { Messenger } from '../../messaging/send.ts';
import { deliverDue } from '../deliver.ts';
import { eventRows, insertEvents, namedBy } from '../evaluate.ts';
import { recipientsOf, ruleUsers } from '../recipients.ts';

/** The states Resend takes: an alert that has not reached anyone and nobody has set aside. */
export const RESENDABLE = ['unsent', 'retrying'] as const;

/**
 * Resend: the recipients are resolved again as the rule names them today (users deactivated or
 * removed since are left out, users added since get the alert as new events), then each goes out
 * through the delivery loop's path (deliver.ts), now. The event itself goes again when its
 * recipient is still one of them and becomes `resent` when it arrives (or unsent with its new
 * reason); a `no_recipients` event becomes `resent` once the rule reaches someone. Resend to…
 * (`to`) sends the event to that address or number instead, whatever the rule says. Answers how
 * many messages arrived.
 */
export async function resendEvents(db: Db, messenger: Messenger, ids: number[], now: Date, to: string | null = null): Promise<number> {
  if (ids.length === 0) return 0;
  const events = await db
    .select()
    .from(surveyAlertEvents)
    .where(and(inArray(surveyAlertEvents.id, ids), inArray(surveyAlertEvents.state, [...RESENDABLE])));
  const due: number[] = [];
  const direct = async (id: number, address: string) => {
    await db
      .update(surveyAlertEvents)
      .set({ state: 'pending', reason: null, nextRetryAt: now, resentTo: address, updatedAt: now })
      .where(eq(surveyAlertEvents.id, id));
    due.push(id);
  };
  for (const e of events) {
    if (to !== null) {
      await direct(e.id, to);
      continue;
    }
    const [rule] = await db.select().from(surveyAlertRules).where(eq(surveyAlertRules.id, e.ruleId));
    if (!rule) continue;
    const [response] = e.responseId ? await db.select().from(surveyResponses).where(eq(surveyResponses.id, e.responseId)) : [];
    const users = (await ruleUsers(db, rule.clientId, [rule.id])).get(rule.id) ?? [];
    const recipients = recipientsOf(rule, users, await namedBy(db, response?.personnelId ?? null, response?.locationId ?? null));
    const about = { responseId: e.responseId, processingItemId: e.processingItemId };
    // New recipients only: an existing event of the same alert keeps its own state.
    if (recipients.length > 0) await insertEvents(db, eventRows({ ...rule, frequency: 'instant' }, recipients, about, now));
    const fresh = await db
      .select({ id: surveyAlertEvents.id })
      .from(surveyAlertEvents)
      .where(and(eq(surveyAlertEvents.ruleId, rule.id), eq(surveyAlertEvents.state, 'pending'), eq(surveyAlertEvents.createdAt, now)));
    due.push(...fresh.map((f) => f.id));
    if (e.recipient === '') {
      if (recipients.length > 0)
        await db.update(surveyAlertEvents).set({ state: 'resent', reason: null, updatedAt: now }).where(eq(surveyAlertEvents.id, e.id));
    } else if (recipients.some((r) => r.channel === e.channel && r.to === e.recipient)) {
      await direct(e.id, e.recipient);
    }
  }
  await deliverDue(db, messenger, now, [...new Set(due)]);
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
