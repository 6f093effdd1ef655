import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { MessagingConfig } from '../config.ts';
import { SMS_STATUS_PATH } from '../deliverability/sms/paths.ts';

/** What a transport answers for a message it took: the provider's id for it, and a line for the timeline. */
export type Delivery = { providerMessageId: string | null; detail: string };

/** `from` as configured (`Name <address>`) or as a name and address nodemailer encodes safely. */
export type Email = {
  from: string | { name: string; address: string };
  replyTo?: string | null;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** Extra headers, e.g. an alert's RFC 8058 `List-Unsubscribe` and `List-Unsubscribe-Post`. */
  headers?: Record<string, string>;
  attachments?: readonly Attachment[];
};
/** A file sent with an e-mail (a scheduled report's CSV): its name, media type and text content. */
export type Attachment = { filename: string; contentType: string; content: string };
export type Sms = { from: string; to: string; body: string };

export type EmailTransport = { name: string; send(email: Email): Promise<Delivery>; close(): void };
export type SmsTransport = { name: string; send(sms: Sms): Promise<Delivery> };

/** A refusal by the provider, in its own words (what Tracking Logs shows as the error). */
export class TransportError extends Error {}

/**
 * Stored only: the NotificationLog row holds the rendered message; nothing leaves the machine. Each
 * message still gets an id of its own (`outbox-<uuid>`), as a provider would give, so demo SES
 * events can name the message they are about.
 */
const outboxEmail: EmailTransport = {
  name: 'outbox',
  send: async () => ({ providerMessageId: `outbox-${randomUUID()}`, detail: 'Kept in the outbox (EMAIL_TRANSPORT=outbox)' }),
  close: () => {},
};
const outboxSms: SmsTransport = {
  name: 'outbox',
  send: async () => ({ providerMessageId: null, detail: 'Kept in the outbox (SMS_TRANSPORT=outbox)' }),
};

/** Bounds on a provider that stops answering, so a send never hangs a job (nodemailer's defaults are minutes). */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;
const HTTP_TIMEOUT_MS = 15_000;

/** nodemailer to `SMTP_URL`; one pooled-free transport reused for every message. */
function smtpTransport(url: string): EmailTransport {
  const mailer = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  return {
    name: 'smtp',
    async send(email) {
      const info = await mailer.sendMail({
        from: email.from,
        ...(email.replyTo ? { replyTo: email.replyTo } : {}),
        to: email.to,
        subject: email.subject,
        text: email.text,
        ...(email.html !== null ? { html: email.html } : {}),
        ...(email.headers ? { headers: email.headers } : {}),
        ...(email.attachments ? { attachments: email.attachments.map((a) => ({ ...a })) } : {}),
      });
      return { providerMessageId: smtpMessageId(info), detail: `Accepted by the SMTP server: ${info.response ?? ''}`.trim() };
    },
    close: () => mailer.close(),
  };
}

/**
 * The provider's id for a message the SMTP server took. SES's SMTP interface answers
 * `250 Ok <message-id>`, and that id (not our Message-ID header) is what its events carry as
 * `mail.messageId`; any other server's answer falls back to the Message-ID nodemailer set.
 */
export function smtpMessageId(info: { response?: string; messageId?: string }): string | null {
  const ses = /^250\s+Ok\s+<?([A-Za-z0-9][A-Za-z0-9._@-]{9,250})>?\s*$/i.exec(info.response?.trim() ?? '');
  return ses?.[1] ?? info.messageId ?? null;
}

/**
 * A Twilio-compatible Messages API: `POST {SMS_API_URL}/Accounts/{SID}/Messages.json`, form-encoded
 * To/From/Body/StatusCallback, basic auth SID:token. The answer's `sid` is the provider's message id; an error
 * answer's `code` and `message` become the log's error.
 */
function httpSmsTransport(apiUrl: string, accountSid: string, authToken: string, statusCallback: string): SmsTransport {
  const endpoint = `${apiUrl}/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  return {
    name: 'http',
    async send(sms) {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        // Status callbacks come back to the public base URL, where links in messages also point (docs/decisions/061-sms-callbacks-and-stop.md).
        body: new URLSearchParams({ To: sms.to, From: sms.from, Body: sms.body, StatusCallback: statusCallback }),
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      });
      const text = await response.text();
      const answer = parseObject(text);
      if (!response.ok) {
        const code = answer.code === undefined ? '' : ` ${String(answer.code)}`;
        const message = typeof answer.message === 'string' ? answer.message : text.slice(0, 300);
        throw new TransportError(`SMS API answered ${response.status}${code}: ${message}`);
      }
      if (typeof answer.sid !== 'string') throw new TransportError(`SMS API answered ${response.status} without a message sid`);
      return { providerMessageId: answer.sid, detail: `Accepted by the SMS API (${String(answer.status ?? 'queued')})` };
    },
  };
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.fromEntries(Object.entries(value)) : {};
  } catch {
    return {};
  }
}

export function emailTransportOf(config: MessagingConfig): EmailTransport {
  return config.email.transport === 'smtp' ? smtpTransport(config.email.url) : outboxEmail;
}

export function smsTransportOf(config: MessagingConfig): SmsTransport {
  const sms = config.sms;
  return sms.transport === 'http'
    ? httpSmsTransport(sms.apiUrl, sms.accountSid, sms.authToken, `${config.publicBaseUrl}${SMS_STATUS_PATH}`)
    : outboxSms;
}
