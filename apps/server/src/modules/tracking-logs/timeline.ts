import {
  bounceText,
  NOTIFICATION_STATUS_LABELS,
  NOTIFICATION_STATUSES,
  type NotificationStatus,
  STATUS_OF_SES_EVENT,
  sesEventTypeText,
  type TimelineEntry,
} from '@admin/shared';
import { asc, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notificationEvents, sesEvents, smsStatusEvents } from '../../db/schema/index.ts';

/** At most this many entries of each source: a message has a handful; a runaway provider cannot make the detail huge. */
const PER_SOURCE = 200;

/** A Twilio-compatible provider's message statuses, as people read them. */
const SMS_STATUS_WORDS: Record<string, string> = {
  accepted: 'Accepted',
  scheduled: 'Scheduled',
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent to the carrier',
  delivered: 'Delivered to the phone',
  undelivered: 'Not delivered',
  failed: 'Failed',
  read: 'Read',
  canceled: 'Canceled',
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const words = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 2000) : null);
const isStatus = (s: string): s is NotificationStatus => (NOTIFICATION_STATUSES as readonly string[]).includes(s);
const SUPPRESSED_NOTE = 'the address is now suppressed';
const SMS_LINE = 'SMS provider: ';

type SesRow = typeof sesEvents.$inferSelect;

/** What an SES event says beyond its type, one line each, only what it holds. */
export function sesLines(
  e: Pick<SesRow, 'eventType' | 'bounceType' | 'bounceSubtype' | 'complaintFeedbackType' | 'diagnosticCode' | 'raw'>,
): string[] {
  const raw = obj(e.raw);
  const line = (label: string, value: unknown) => {
    const v = words(value);
    return v === null ? [] : [`${label}: ${v}`];
  };
  switch (e.eventType) {
    case 'Bounce':
      return [...line('Bounce', bounceText(e.bounceType, e.bounceSubtype)), ...line('Diagnostic code', e.diagnosticCode)];
    case 'Complaint':
      return line('Feedback type', e.complaintFeedbackType);
    case 'Delivery':
      return line('SMTP response', e.diagnosticCode);
    case 'Open':
      return line('Opened with', obj(raw.open).userAgent);
    case 'Click':
      return [...line('Link', obj(raw.click).link), ...line('Clicked with', obj(raw.click).userAgent)];
    case 'DeliveryDelay':
      return line('Delay', e.diagnosticCode);
    case 'Reject':
    case 'RenderingFailure':
      return line('Reason', e.diagnosticCode);
    default:
      return [];
  }
}

const timeKey = (at: Date, status: string | null) => `${at.getTime()} ${status ?? ''}`;

/**
 * A message's timeline: its status history (notification_events) merged with its SES events (by
 * the NotificationLog id or SES's message id, so events that arrived before the id was known count
 * too) and its SMS status callbacks, oldest first. The ingest also writes a status line for each
 * SES event (deliverability/ses/ingest.ts); that line is folded into the event's own entry (same
 * time, same status) rather than shown twice, keeping its word that the address is now suppressed.
 */
export async function messageTimeline(
  db: Db,
  message: { id: number; providerMessageId: string | null },
): Promise<{ timeline: TimelineEntry[]; sesAddress: string | null }> {
  const byId = message.providerMessageId;
  const [history, ses, sms] = await Promise.all([
    db
      .select({ status: notificationEvents.status, at: notificationEvents.at, detail: notificationEvents.detail })
      .from(notificationEvents)
      .where(eq(notificationEvents.notificationId, message.id))
      .orderBy(asc(notificationEvents.at), asc(notificationEvents.id))
      .limit(PER_SOURCE),
    db
      .select()
      .from(sesEvents)
      .where(
        byId === null
          ? eq(sesEvents.notificationId, message.id)
          : or(eq(sesEvents.notificationId, message.id), eq(sesEvents.messageId, byId)),
      )
      .orderBy(asc(sesEvents.eventAt), asc(sesEvents.id))
      .limit(PER_SOURCE),
    db
      .select()
      .from(smsStatusEvents)
      .where(
        byId === null
          ? eq(smsStatusEvents.notificationId, message.id)
          : or(eq(smsStatusEvents.notificationId, message.id), eq(smsStatusEvents.messageSid, byId)),
      )
      .orderBy(asc(smsStatusEvents.receivedAt), asc(smsStatusEvents.id))
      .limit(PER_SOURCE),
  ]);

  const folded = new Map<string, string | null>();
  const sesKeys = new Set(ses.map((e) => timeKey(e.eventAt, STATUS_OF_SES_EVENT[e.eventType] ?? null)));
  // The SMS store writes its status line at the callback's arrival, in its own status words
  // (deliverability/sms/store.ts): matched by that time and its "SMS provider:" prefix.
  const smsTimes = new Set(sms.map((e) => e.receivedAt.getTime()));
  const smsFolded = new Map<number, { status: NotificationStatus | null; detail: string }>();

  const entries: (TimelineEntry & { order: number; time: number })[] = [];
  for (const h of history) {
    const key = timeKey(h.at, h.status);
    if (sesKeys.has(key)) {
      folded.set(key, h.detail);
      continue;
    }
    if (h.detail?.startsWith(SMS_LINE) && smsTimes.has(h.at.getTime())) {
      smsFolded.set(h.at.getTime(), { status: isStatus(h.status) ? h.status : null, detail: h.detail });
      continue;
    }
    const status = isStatus(h.status) ? h.status : null;
    entries.push({
      at: h.at.toISOString(),
      time: h.at.getTime(),
      order: 0,
      source: 'status',
      status,
      title: status ? NOTIFICATION_STATUS_LABELS[status] : h.status,
      lines: h.detail ? [h.detail] : [],
    });
  }
  for (const e of ses) {
    const status = STATUS_OF_SES_EVENT[e.eventType] ?? null;
    const note = folded.get(timeKey(e.eventAt, status));
    const lines = sesLines(e);
    if (note?.includes(SUPPRESSED_NOTE)) lines.push('The address is now suppressed (SES Bounce).');
    entries.push({
      at: e.eventAt.toISOString(),
      time: e.eventAt.getTime(),
      order: 1,
      source: 'ses',
      status,
      title: `SES: ${sesEventTypeText(e.eventType)}`,
      lines,
    });
  }
  for (const e of sms) {
    const line = smsFolded.get(e.receivedAt.getTime());
    // The store's line adds the error code in words after its status: `SMS provider: undelivered. The SMS …`.
    const words = line?.detail.includes('. ') ? line.detail.slice(line.detail.indexOf('. ') + 2) : null;
    entries.push({
      at: e.receivedAt.toISOString(),
      time: e.receivedAt.getTime(),
      order: 2,
      source: 'sms',
      status: line?.status ?? (isStatus(e.status) ? e.status : null),
      title: `SMS provider: ${SMS_STATUS_WORDS[e.status] ?? e.status}`,
      lines: words !== null ? [words] : e.errorCode ? [`Error code: ${e.errorCode}`] : [],
    });
  }
  entries.sort((a, b) => a.time - b.time || a.order - b.order);
  const timeline = entries.map(({ order: _order, time: _time, ...entry }) => entry);
  return { timeline, sesAddress: ses[0]?.recipient ?? null };
}
