import { createHash } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { clients, emailOptOuts, surveyAlertEvents } from '../db/schema/index.ts';

/** A link's token as stored: only its SHA-256, so a database read gives no working link. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** How long an alert's links work: long enough for a holiday, short enough to not outlive the matter. */
export const LINK_DAYS = 30;

export type LinkedEvent = {
  id: number;
  clientId: number;
  clientName: string;
  channel: string;
  recipient: string;
  resentTo: string | null;
  acknowledgedAt: Date | null;
  expired: boolean;
};

/** The event a link's token names (only its SHA-256 is stored), or null. */
export async function eventOfToken(db: Db, token: string, now: Date): Promise<LinkedEvent | null> {
  if (!/^[\w-]{16,100}$/.test(token)) return null;
  const [row] = await db
    .select({
      id: surveyAlertEvents.id,
      clientId: surveyAlertEvents.clientId,
      clientName: clients.name,
      channel: surveyAlertEvents.channel,
      recipient: surveyAlertEvents.recipient,
      resentTo: surveyAlertEvents.resentTo,
      acknowledgedAt: surveyAlertEvents.acknowledgedAt,
      sentAt: surveyAlertEvents.lastAttemptAt,
    })
    .from(surveyAlertEvents)
    .innerJoin(clients, eq(clients.id, surveyAlertEvents.clientId))
    .where(eq(surveyAlertEvents.ackTokenHash, hashToken(token)))
    .limit(1);
  if (!row) return null;
  const sentAt = row.sentAt ?? now;
  return { ...row, expired: now.getTime() - sentAt.getTime() > LINK_DAYS * 86_400_000 };
}

/** Marks the event acknowledged (which stops its escalation); false when it already was. */
export async function acknowledge(db: Db, id: number, now: Date): Promise<boolean> {
  const done = await db
    .update(surveyAlertEvents)
    .set({ acknowledgedAt: now, updatedAt: now })
    .where(and(eq(surveyAlertEvents.id, id), isNull(surveyAlertEvents.acknowledgedAt)))
    .returning({ id: surveyAlertEvents.id });
  return done.length > 0;
}

/**
 * Stops alerts to this address from this client at once: an `email_opt_outs` row the messenger
 * already refuses on (apps/server/src/messaging/send.ts), so the next alert is unsent with
 * `recipient_unsubscribed` (docs/decisions/045-alert-engine.md). The table holds one row per
 * address; one already opted out of another client becomes opted out of every client, the wider choice.
 */
export async function unsubscribeAddress(db: Db, address: string, clientId: number, now: Date): Promise<void> {
  const email = address.trim().toLowerCase();
  await db
    .insert(emailOptOuts)
    .values({ email, clientId, source: 'alert_unsubscribe', createdAt: now })
    .onConflictDoUpdate({
      target: emailOptOuts.email,
      set: { clientId: sql`case when ${emailOptOuts.clientId} = ${clientId} then ${emailOptOuts.clientId} else null end` },
    });
}
