import { maskRecipient } from '@admin/shared';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { notificationEvents, smsOptOuts, smsTemplates, systemLogs } from '../../db/schema/index.ts';
import { forwardStatus } from '../ses/rank.ts';
import { type InboundAction, inboundActionOf, statusOfTwilio } from './words.ts';

const iso = (d: Date) => d.toISOString();

/** Words for the delivery errors people ask about most (Twilio's error dictionary); others are shown by number. */
const ERROR_WORDS: Readonly<Record<string, string>> = {
  '21610': 'the phone opted out (STOP)',
  '30003': 'the handset is unreachable',
  '30004': 'the message was blocked',
  '30005': 'the number is unknown or no longer exists',
  '30006': 'the number is a landline or unreachable carrier',
  '30007': 'the carrier filtered the message',
  '30008': 'unknown error',
};

export function errorText(code: string): string {
  const words = ERROR_WORDS[code];
  return `The SMS provider reported error ${code}${words ? ` (${words})` : ''}`;
}

export type StatusCallback = { sid: string; status: string; errorCode: string | null; raw: Record<string, string | string[]> };

/**
 * One status callback: a `sms_status_events` row per (sid, status), `on conflict do nothing`, so a
 * repeat changes nothing twice. Only an inserted row has effects, in this transaction: a timeline
 * line on the NotificationLog row with that provider id and its status moved forward only
 * (../ses/rank.ts), so a `sent` arriving after `delivered` never takes it back.
 */
export async function recordStatus(
  db: Db,
  callback: StatusCallback,
  now: Date,
): Promise<{ recorded: boolean; notificationId: number | null }> {
  return db.transaction(async (tx) => {
    const [message] = rowsOf(
      await tx.execute(sql`select id, status from notification_logs
        where provider_message_id = ${callback.sid} and channel = 'sms' order by id limit 1 for update`),
    );
    const notificationId = message ? Number(message.id) : null;
    const inserted = rowsOf(
      await tx.execute(sql`insert into sms_status_events (message_sid, status, error_code, raw, notification_id, received_at)
        values (${callback.sid}, ${callback.status}, ${callback.errorCode}, ${JSON.stringify(callback.raw)}::jsonb, ${notificationId},
          ${iso(now)}::timestamptz)
        on conflict (message_sid, status) do nothing returning id`),
    );
    if (inserted.length === 0) return { recorded: false, notificationId };
    const status = statusOfTwilio(callback.status);
    if (!message || notificationId === null || status === null) return { recorded: true, notificationId };
    const error = callback.errorCode ? errorText(callback.errorCode) : null;
    await tx.insert(notificationEvents).values({
      notificationId,
      status,
      at: now,
      detail: `SMS provider: ${callback.status}${error ? `. ${error}` : ''}`.slice(0, 2000),
    });
    const current = String(message.status);
    const next = forwardStatus(current, status);
    if (next !== current) {
      const failed = next === 'failed' || next === 'undelivered';
      await tx.execute(sql`update notification_logs set status = ${next}, updated_at = ${iso(now)}::timestamptz
        ${failed ? sql`, error = ${error ?? `The SMS provider reported ${callback.status}`}` : sql``}
        where id = ${notificationId}`);
    }
    return { recorded: true, notificationId };
  });
}

export type Inbound = { sid: string; from: string; to: string; body: string };
export type InboundResult = { action: InboundAction; keyword: string | null; repeated: boolean; reply: string | null };

/**
 * One inbound message, once per sid (`sms_inbound_messages`): a repeat is answered with nothing and
 * changes nothing. STOP and its synonyms opt the phone out of every client (`client_id` null: the
 * platform's one sender number serves them all, docs/decisions/061-sms-callbacks-and-stop.md);
 * START/YES/UNSTOP delete the opt-out; HELP is answered with the global HELP reply template. An
 * opt-out or opt-in is written to System Logs in the same transaction.
 */
export async function recordInbound(db: Db, message: Inbound, now: Date, requestId: string): Promise<InboundResult> {
  const { action, keyword } = inboundActionOf(message.body);
  return db.transaction(async (tx) => {
    const inserted = rowsOf(
      await tx.execute(sql`insert into sms_inbound_messages (message_sid, from_phone, to_phone, body, action, received_at)
        values (${message.sid}, ${message.from}, ${message.to}, ${message.body}, ${action}, ${iso(now)}::timestamptz)
        on conflict (message_sid) do nothing returning id`),
    );
    if (inserted.length === 0) return { action, keyword, repeated: true, reply: null };
    const phone = message.from;
    if (action === 'opt_out' && keyword) {
      await tx
        .insert(smsOptOuts)
        .values({ phone, clientId: null, keyword, source: 'inbound', createdAt: now })
        .onConflictDoUpdate({ target: smsOptOuts.phone, set: { clientId: null, keyword, source: 'inbound', createdAt: now } });
      await audit(tx, 'sms.opt_out', `${maskRecipient(phone)} opted out of every client's texts by replying ${keyword}`, phone, requestId);
      return { action, keyword, repeated: false, reply: await templateBody(tx, 'stop_reply') };
    }
    if (action === 'opt_in' && keyword) {
      const removed = await tx.delete(smsOptOuts).where(eq(smsOptOuts.phone, phone)).returning({ phone: smsOptOuts.phone });
      const said = removed.length > 0 ? 'opted back in' : 'replied while not opted out';
      await audit(tx, 'sms.opt_in', `${maskRecipient(phone)} ${said} by replying ${keyword}`, phone, requestId);
      return { action, keyword, repeated: false, reply: null };
    }
    if (action === 'help') return { action, keyword, repeated: false, reply: await templateBody(tx, 'help_reply') };
    return { action, keyword, repeated: false, reply: null };
  });
}

/** The active global template of that purpose (SMS Text, domain.md §20), English first; null when there is none. */
async function templateBody(tx: Db, purpose: 'help_reply' | 'stop_reply'): Promise<string | null> {
  const [row] = await tx
    .select({ body: smsTemplates.body })
    .from(smsTemplates)
    .where(and(eq(smsTemplates.purpose, purpose), isNull(smsTemplates.clientId), eq(smsTemplates.status, 'active')))
    .orderBy(sql`${smsTemplates.language} <> 'en'`, asc(smsTemplates.id))
    .limit(1);
  return row?.body ?? null;
}

async function audit(tx: Db, action: string, message: string, phone: string, requestId: string): Promise<void> {
  await tx.insert(systemLogs).values({
    level: 'info',
    service: 'api',
    action,
    message: message.slice(0, 2000),
    entityType: 'sms_opt_out',
    entityId: phone.slice(0, 200),
    requestId,
  });
}
