import type { NotificationStatus, NotificationType } from '@admin/shared';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { MessagingConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { emailOptOuts, emailSuppressions, notificationEvents, notificationLogs, smsOptOuts } from '../db/schema/index.ts';
import { keepAttachments } from './attachments.ts';
import { deliverQueued, MANY_CHUNK, rewriteQueued } from './deliver-batch.ts';
import { describeError, logRowOf } from './log-row.ts';
import { displayFrom, senderOf } from './sender.ts';
import { type Attachment, type EmailTransport, emailTransportOf, type SmsTransport, smsTransportOf } from './transports.ts';

type Common = {
  type: NotificationType;
  /** An e-mail address, or a phone in E.164 (`+15555550142`). */
  to: string;
  clientId?: number | null;
  locationId?: string | null;
  /** What the message is about, e.g. `{ type: 'survey_processing_item', id: '12' }`. */
  related?: { type: string; id: string | number } | null;
};
/** A rendered e-mail: the subject and body as the recipient will read them. */
export type EmailMessage = Common & {
  channel: 'email';
  subject: string;
  text: string;
  html?: string | null;
  /**
   * The client's sender: its display name always; its own address only when the client's sending
   * domain is verified (else the platform's address, which the provider accepts).
   */
  sender?: { name: string; address: string | null } | null;
  replyTo?: string | null;
  /** Extra headers the transport sends as they are (alerts' one-click unsubscribe, RFC 8058). */
  headers?: Record<string, string> | null;
  attachments?: readonly Attachment[] | null;
};
/** A rendered SMS; `template` names the template it came from (Tracking Logs' Subject/template). */
export type SmsMessage = Common & { channel: 'sms'; template: string; text: string };
export type OutboundMessage = EmailMessage | SmsMessage;

/** The NotificationLog row a send wrote, as it ended: `sent`, `suppressed` or `failed`. */
export type SendResult = { id: number; status: NotificationStatus; providerMessageId: string | null; error: string | null };

export type Messenger = {
  /**
   * Sends one message through the configured transport, after the checks every send gets (e-mail
   * suppression, e-mail and SMS opt-outs). Every call writes one NotificationLog row with the
   * rendered subject and body and its status history, whatever the outcome: a refusal is a
   * `suppressed` row, a provider's error a `failed` one; neither throws.
   */
  send(message: OutboundMessage): Promise<SendResult>;
  /**
   * `send` for many messages at once (the send engine's batches): the same checks, rows and
   * outcomes, answered in the messages' order, with a few queries for the whole batch instead of
   * several per message. Transports are still called once per message, a few at a time.
   */
  sendMany(messages: OutboundMessage[]): Promise<SendResult[]>;
  /**
   * Delivers messages whose rows a process wrote `queued` and died before finishing: the same rows,
   * made to hold the message given and finished as its delivery ends; no new row and no new checks
   * (they passed when the row was written). The provider gets a message twice only if that process
   * died after the provider took it and before its row said so.
   */
  resumeMany(pending: { id: number; message: OutboundMessage }[]): Promise<SendResult[]>;
  /** An absolute link for a message (`/s/abc` → `https://…/s/abc`), on `PUBLIC_BASE_URL`. */
  link(path: string): string;
  /**
   * The From an e-mail with this sender goes out with (what `send` gives the transport), for a
   * screen to show before sending: the platform's address where the client has none of its own.
   */
  fromOf(sender: { name: string; address: string | null } | null): { name: string | null; address: string };
  close(): void;
};

export type MessengerOptions = {
  /** The clock rows are stamped with; tests move it instead of sleeping. */
  now?: () => Date;
  email?: EmailTransport;
  sms?: SmsTransport;
};

const E164 = /^\+[1-9]\d{6,14}$/;
const emailAddress = z.email();

export function createMessenger(db: Db, config: MessagingConfig, options: MessengerOptions = {}): Messenger {
  const now = options.now ?? (() => new Date());
  const email = options.email ?? emailTransportOf(config);
  const sms = options.sms ?? smsTransportOf(config);

  /** Why this recipient gets nothing (a `suppressed` row), or null. */
  async function refusalOf(message: OutboundMessage): Promise<string | null> {
    const owner = message.clientId ?? null;
    if (message.channel === 'email') {
      const address = message.to.trim().toLowerCase();
      const [suppressed] = await db
        .select({ reason: emailSuppressions.reason })
        .from(emailSuppressions)
        .where(and(eq(emailSuppressions.email, address), eq(emailSuppressions.suppressed, true)))
        .limit(1);
      if (suppressed) return `The address is on the suppression list (${suppressed.reason})`;
      const [optedOut] = await db
        .select({ source: emailOptOuts.source })
        .from(emailOptOuts)
        .where(sql`${emailOptOuts.email} = ${address} and (${emailOptOuts.clientId} is null or ${emailOptOuts.clientId} = ${owner})`)
        .limit(1);
      return optedOut ? `The address opted out (${optedOut.source})` : null;
    }
    const [optedOut] = await db
      .select({ keyword: smsOptOuts.keyword })
      .from(smsOptOuts)
      .where(sql`${smsOptOuts.phone} = ${message.to.trim()} and (${smsOptOuts.clientId} is null or ${smsOptOuts.clientId} = ${owner})`)
      .limit(1);
    return optedOut ? `The phone opted out (${optedOut.keyword})` : null;
  }

  /** A recipient no transport could take: a `failed` row rather than a provider's round trip. */
  function invalidRecipient(message: OutboundMessage): string | null {
    const to = message.to.trim();
    if (message.channel === 'email') return emailAddress.safeParse(to).success ? null : 'Not a valid e-mail address';
    return E164.test(to) ? null : 'Not a phone number in E.164 form (+15555550142)';
  }

  async function finish(
    id: number,
    status: NotificationStatus,
    detail: string,
    fields: { providerMessageId?: string | null; error?: string | null },
  ) {
    const at = now();
    await db.transaction(async (tx) => {
      await tx
        .update(notificationLogs)
        .set({ status, updatedAt: at, ...fields })
        .where(eq(notificationLogs.id, id));
      await tx.insert(notificationEvents).values({ notificationId: id, status, at, detail });
    });
  }

  /** Why each recipient gets nothing, looked up for the whole batch in three queries. */
  async function refusalsOf(messages: OutboundMessage[]): Promise<(string | null)[]> {
    const emails = [...new Set(messages.filter((m) => m.channel === 'email').map((m) => m.to.trim().toLowerCase()))];
    const phones = [...new Set(messages.filter((m) => m.channel === 'sms').map((m) => m.to.trim()))];
    const listOf = (values: string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
    // One after another: the messenger may run inside a transaction (the demo seed), whose one
    // connection must not be sent a query while another is running.
    const suppressed = emails.length
      ? await db
          .select({ key: emailSuppressions.email, reason: emailSuppressions.reason })
          .from(emailSuppressions)
          .where(sql`${emailSuppressions.email} in ${listOf(emails)} and ${emailSuppressions.suppressed}`)
      : [];
    const emailOuts = emails.length
      ? await db
          .select({ key: emailOptOuts.email, clientId: emailOptOuts.clientId, source: emailOptOuts.source })
          .from(emailOptOuts)
          .where(sql`${emailOptOuts.email} in ${listOf(emails)}`)
      : [];
    const phoneOuts = phones.length
      ? await db
          .select({ key: smsOptOuts.phone, clientId: smsOptOuts.clientId, keyword: smsOptOuts.keyword })
          .from(smsOptOuts)
          .where(sql`${smsOptOuts.phone} in ${listOf(phones)}`)
      : [];
    const suppression = new Map(suppressed.map((r) => [r.key, r.reason]));
    return messages.map((message) => {
      const owner = message.clientId ?? null;
      const applies = (r: { key: string; clientId: number | null }, key: string) =>
        r.key === key && (r.clientId === null || r.clientId === owner);
      if (message.channel === 'email') {
        const address = message.to.trim().toLowerCase();
        const reason = suppression.get(address);
        if (reason !== undefined) return `The address is on the suppression list (${reason})`;
        const out = emailOuts.find((r) => applies(r, address));
        return out ? `The address opted out (${out.source})` : null;
      }
      const out = phoneOuts.find((r) => applies(r, message.to.trim()));
      return out ? `The phone opted out (${out.keyword})` : null;
    });
  }

  /** The transport's call for one message (the same for `send` and `sendMany`). */
  function deliver(message: OutboundMessage, to: string) {
    return message.channel === 'email'
      ? email.send({
          from: senderOf(config.emailFrom, message.sender ?? null),
          replyTo: message.replyTo ?? null,
          to,
          subject: message.subject,
          text: message.text,
          html: message.html ?? null,
          ...(message.headers ? { headers: message.headers } : {}),
          ...(message.attachments ? { attachments: message.attachments } : {}),
        })
      : sms.send({ from: config.smsFrom, to, body: message.text });
  }

  return {
    async sendMany(messages) {
      if (messages.length === 0) return [];
      const suppressedBy = await refusalsOf(messages);
      const at = now();
      const planned = messages.map((message, i) => {
        const suppressed = suppressedBy[i] ?? null;
        const invalid = suppressed === null ? invalidRecipient(message) : null;
        const status: NotificationStatus = suppressed !== null ? 'suppressed' : invalid !== null ? 'failed' : 'queued';
        return { message, to: message.to.trim(), refusal: suppressed ?? invalid, status };
      });
      const ids: number[] = [];
      await db.transaction(async (tx) => {
        for (let i = 0; i < planned.length; i += MANY_CHUNK) {
          const chunk = planned.slice(i, i + MANY_CHUNK);
          const rows = await tx
            .insert(notificationLogs)
            .values(chunk.map(({ message, to, refusal, status }) => logRowOf(message, to, status, refusal, at)))
            .returning({ id: notificationLogs.id });
          const chunkIds = rows.map((r) => r.id);
          ids.push(...chunkIds);
          await tx
            .insert(notificationEvents)
            .values(
              chunk.map((p, j) => ({ notificationId: chunkIds[j] ?? 0, status: p.status, at, detail: p.refusal ?? 'Queued for sending' })),
            );
          await keepAttachments(tx, chunkIds, chunk);
        }
      });
      const results: SendResult[] = planned.map((p, i) => ({
        id: ids[i] ?? 0,
        status: p.status,
        providerMessageId: null,
        error: p.refusal,
      }));
      const queued = planned.flatMap((p, i) => (p.refusal === null ? [{ id: ids[i] ?? 0, message: p.message, to: p.to, i }] : []));
      const delivered = await deliverQueued(db, now, deliver, queued);
      queued.forEach((q, j) => {
        const result = delivered[j];
        if (result) results[q.i] = result;
      });
      return results;
    },
    async resumeMany(pending) {
      const queued = pending.map((p) => ({ ...p, to: p.message.to.trim() }));
      await rewriteQueued(db, queued);
      return deliverQueued(db, now, deliver, queued);
    },
    async send(message) {
      const to = message.to.trim();
      const suppressed = await refusalOf(message);
      const invalid = suppressed === null ? invalidRecipient(message) : null;
      const refusal = suppressed ?? invalid;
      const status: NotificationStatus = suppressed !== null ? 'suppressed' : invalid !== null ? 'failed' : 'queued';
      const at = now();
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(notificationLogs)
          .values(logRowOf(message, to, status, refusal, at))
          .returning({ id: notificationLogs.id });
        if (!row) throw new Error('insert returned nothing');
        await tx.insert(notificationEvents).values({ notificationId: row.id, status, at, detail: refusal ?? 'Queued for sending' });
        await keepAttachments(tx, [row.id], [{ message }]);
        return row.id;
      });
      if (refusal !== null) return { id, status, providerMessageId: null, error: refusal };

      try {
        const delivery = await deliver(message, to);
        await finish(id, 'sent', delivery.detail, { providerMessageId: delivery.providerMessageId });
        return { id, status: 'sent', providerMessageId: delivery.providerMessageId, error: null };
      } catch (err) {
        const error = describeError(err);
        await finish(id, 'failed', error, { error });
        return { id, status: 'failed', providerMessageId: null, error };
      }
    },
    fromOf: (sender) => displayFrom(senderOf(config.emailFrom, sender)),
    link: (path) => `${config.publicBaseUrl}${path.startsWith('/') ? path : `/${path}`}`,
    close: () => email.close(),
  };
}
