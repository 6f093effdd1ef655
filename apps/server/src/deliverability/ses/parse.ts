import { HttpError } from '../../lib/http-error.ts';

/**
 * Reads an SES event (event publishing, `eventType`) or identity notification (`notificationType`)
 * as SNS carries it in `Message`, leniently: SES adds fields without notice (reference-second-half
 * A3), so only what we store is read and anything else is ignored. One `SesRecipientEvent` per
 * recipient, lower-cased, timed by the event's own timestamp (else the mail's).
 */

export type SesRecipientEvent = {
  recipient: string;
  bounceType: string | null;
  bounceSubtype: string | null;
  complaintFeedbackType: string | null;
  /** A complaint's `complaintSubType` (e.g. OnAccountSuppressionList). */
  complaintSubtype: string | null;
  diagnosticCode: string | null;
  reportingMta: string | null;
};

export type ParsedSesEvent = {
  messageId: string;
  /** Normalised to the stored spelling: `Rendering Failure` becomes `RenderingFailure`. */
  eventType: string;
  source: string;
  subject: string | null;
  configurationSet: string | null;
  eventAt: Date;
  recipients: SesRecipientEvent[];
};

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const text = (v: unknown, max = 2000): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const bad = (why: string) => new HttpError(400, `The SES event in the Message field is not valid: ${why}.`, { Message: [why] });

/** The key under which each event type keeps its own part (`bounce`, `delivery`, …). */
const PART: Record<string, string> = {
  Bounce: 'bounce',
  Complaint: 'complaint',
  Delivery: 'delivery',
  Send: 'send',
  Reject: 'reject',
  Open: 'open',
  Click: 'click',
  RenderingFailure: 'failure',
  DeliveryDelay: 'deliveryDelay',
  Subscription: 'subscription',
};

/** A recipient as SES writes it may carry a display name (`"Jane" <jane@example.com>`); the address alone, lower-cased. */
export function addressOf(value: unknown): string | null {
  const raw = text(value, 320);
  if (raw === null) return null;
  const angle = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(raw);
  const address = (angle?.[1] ?? raw).toLowerCase();
  return /^[^\s@]+@[^\s@]+$/.test(address) ? address : null;
}

function time(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const at = new Date(value);
  // Years outside 1970–9999 are no SES event's, and PostgreSQL would not read their ISO form (+010000-…).
  return Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1970 || at.getUTCFullYear() > 9999 ? null : at;
}

const base = (recipient: string): SesRecipientEvent => ({
  recipient,
  bounceType: null,
  bounceSubtype: null,
  complaintFeedbackType: null,
  complaintSubtype: null,
  diagnosticCode: null,
  reportingMta: null,
});

function recipientsOf(eventType: string, part: Obj, mail: Obj): SesRecipientEvent[] {
  if (eventType === 'Bounce') {
    return list(part.bouncedRecipients).flatMap((r) => {
      const address = addressOf(obj(r).emailAddress);
      if (address === null) return [];
      return [
        {
          ...base(address),
          bounceType: text(part.bounceType, 100),
          bounceSubtype: text(part.bounceSubType, 100),
          diagnosticCode: text(obj(r).diagnosticCode) ?? text(obj(r).status, 100),
          reportingMta: text(part.reportingMTA, 300),
        },
      ];
    });
  }
  if (eventType === 'Complaint') {
    return list(part.complainedRecipients).flatMap((r) => {
      const address = addressOf(obj(r).emailAddress);
      if (address === null) return [];
      return [
        {
          ...base(address),
          complaintFeedbackType: text(part.complaintFeedbackType, 100),
          complaintSubtype: text(part.complaintSubType, 100),
        },
      ];
    });
  }
  const own = eventType === 'Delivery' ? list(part.recipients) : [];
  const addresses = (own.length > 0 ? own : list(mail.destination)).map(addressOf).filter((a): a is string => a !== null);
  const diagnostic =
    eventType === 'Delivery'
      ? text(part.smtpResponse)
      : eventType === 'DeliveryDelay'
        ? text(part.delayType, 200)
        : eventType === 'Reject'
          ? text(part.reason)
          : eventType === 'RenderingFailure'
            ? text(part.errorMessage)
            : null;
  return [...new Set(addresses)].map((a) => ({ ...base(a), diagnosticCode: diagnostic, reportingMta: text(part.reportingMTA, 300) }));
}

/** Throws a 400 naming the Message field when the event has no type, message id or recipient. */
export function parseSesEvent(event: unknown): ParsedSesEvent {
  if (!isObj(event)) throw bad('it is not a JSON object');
  const typeText = text(event.eventType, 100) ?? text(event.notificationType, 100);
  if (typeText === null) throw bad('it has neither an eventType nor a notificationType');
  const eventType = typeText.replace(/\s+/g, '');
  if (!Object.hasOwn(PART, eventType)) throw bad(`the event type ${typeText.slice(0, 40)} is not one SES sends`);
  const mail = obj(event.mail);
  const messageId = text(mail.messageId, 300);
  if (messageId === null) throw bad('mail.messageId is missing');
  const part = obj(event[PART[eventType] ?? '']);
  const eventAt = time(part.timestamp) ?? time(mail.timestamp);
  if (eventAt === null) throw bad('it has no timestamp');
  const recipients = recipientsOf(eventType, part, mail);
  if (recipients.length === 0) throw bad('it names no recipient');
  const headers = obj(mail.commonHeaders);
  const tags = obj(mail.tags);
  const configurationSet = text(list(tags['ses:configuration-set'])[0], 200);
  return {
    messageId,
    eventType,
    source: addressOf(mail.source) ?? text(mail.source, 320) ?? '',
    subject: text(headers.subject, 998),
    configurationSet,
    eventAt,
    recipients: [...new Map(recipients.map((r) => [r.recipient, r])).values()].sort((a, b) => a.recipient.localeCompare(b.recipient)),
  };
}
