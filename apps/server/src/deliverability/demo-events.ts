/**
 * The demo's SES events (issue 22, item 6; docs/decisions/062-demo-deliverability.md): for an
 * e-mail the outbox kept (its provider id `outbox-<uuid>`), the events SES would have published, in
 * SES's own event-publishing shape, so the same ingest (ses/ingest.ts) writes SES Logs, SES Bounce
 * and the Tracking Logs statuses from them. Which events a message gets is decided by a hash of its
 * recipient (never Math.random), so every machine seeds the same story and an address behaves the
 * same way on every message: it always bounces, always complains, or always reads its mail.
 */

import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { ingestSesEvent } from './ses/ingest.ts';

/** What an address does with its mail, by its hash bucket (0–99). */
export type DemoFate = 'hard_bounce' | 'complaint' | 'mailbox_full' | 'auto_reply' | 'clicked' | 'opened' | 'delivered' | 'in_flight';

/** The share of addresses each fate takes, in percent, in bucket order (they sum to 100). */
export const DEMO_FATE_SHARES: readonly (readonly [DemoFate, number])[] = [
  ['hard_bounce', 3],
  ['complaint', 1],
  ['mailbox_full', 2],
  ['auto_reply', 2],
  ['clicked', 27],
  ['opened', 30],
  ['delivered', 30],
  ['in_flight', 5],
];

/** FNV-1a over the lower-cased address, mixed: small, stable across machines and Node versions. */
export function recipientHash(address: string): number {
  let h = 0x811c9dc5;
  for (const ch of address.toLowerCase()) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // MurmurHash3's finaliser: FNV's low bits barely differ between `person1@…` and `person2@…`.
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export function demoFate(address: string): DemoFate {
  let bucket = recipientHash(address) % 100;
  for (const [fate, share] of DEMO_FATE_SHARES) {
    if (bucket < share) return fate;
    bucket -= share;
  }
  return 'in_flight';
}

export type DemoMessage = {
  providerMessageId: string;
  recipient: string;
  source: string;
  subject: string;
  sentAt: Date;
};

type SesEvent = Record<string, unknown> & { eventType: string };

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const USER_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
];
const REPORTING_MTA = 'dsn; a8-70.smtp-out.us-east-1.amazonses.com';

/**
 * The events one message gets, oldest first, each at or before `now` (a later one has not happened
 * yet); `fate` is the address's unless the seed already decided it (emitDemoSesEvents).
 */
export function demoSesEvents(m: DemoMessage, now: Date, fate: DemoFate = demoFate(m.recipient)): SesEvent[] {
  const h = recipientHash(`${m.recipient} ${m.providerMessageId}`);
  const at = (offsetMs: number) => new Date(m.sentAt.getTime() + offsetMs);
  const mail = {
    timestamp: m.sentAt.toISOString(),
    source: m.source,
    sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/example.com',
    sendingAccountId: '123456789012',
    messageId: m.providerMessageId,
    destination: [m.recipient],
    headersTruncated: false,
    commonHeaders: { from: [m.source], to: [m.recipient], messageId: m.providerMessageId, subject: m.subject },
    tags: { 'ses:configuration-set': ['demo'] },
  };
  const event = (eventType: string, part: string, body: Record<string, unknown>, when: Date): [Date, SesEvent] => [
    when,
    { eventType, mail, [part]: { ...body, timestamp: when.toISOString() } },
  ];
  const deliveredAt = at(2 * SECOND + (h % 8) * SECOND);
  const delivery = event(
    'Delivery',
    'delivery',
    {
      processingTimeMillis: deliveredAt.getTime() - m.sentAt.getTime(),
      recipients: [m.recipient],
      smtpResponse: '250 2.0.0 OK  1700000000 a1-20020a05.example.mx',
      reportingMTA: 'a8-70.smtp-out.us-east-1.amazonses.com',
    },
    deliveredAt,
  );
  const openedAt = at(10 * MINUTE + (h % 600) * MINUTE);
  const userAgent = USER_AGENTS[h % USER_AGENTS.length];
  const open = event('Open', 'open', { ipAddress: '198.51.100.23', userAgent }, openedAt);
  const bounce = (bounceType: string, bounceSubType: string, status: string, diagnosticCode: string, after: number) =>
    event(
      'Bounce',
      'bounce',
      {
        bounceType,
        bounceSubType,
        bouncedRecipients: [{ emailAddress: m.recipient, action: 'failed', status, diagnosticCode }],
        feedbackId: `${m.providerMessageId}-bounce`,
        reportingMTA: REPORTING_MTA,
      },
      at(after),
    );
  const events: [Date, SesEvent][] = [event('Send', 'send', {}, at(SECOND))];
  switch (fate) {
    case 'hard_bounce':
      events.push(
        bounce('Permanent', 'General', '5.1.1', 'smtp; 550 5.1.1 The email account that you tried to reach does not exist', 6 * SECOND),
      );
      break;
    case 'mailbox_full':
      events.push(bounce('Transient', 'MailboxFull', '4.2.2', 'smtp; 452 4.2.2 The recipient mailbox is full', 40 * MINUTE));
      break;
    case 'auto_reply':
      events.push(delivery, bounce('Transient', 'General', '2.0.0', 'smtp; 250 Auto-reply: I am out of the office', 2 * MINUTE));
      break;
    case 'complaint':
      events.push(
        delivery,
        open,
        event(
          'Complaint',
          'complaint',
          {
            complainedRecipients: [{ emailAddress: m.recipient }],
            feedbackId: `${m.providerMessageId}-complaint`,
            complaintFeedbackType: 'abuse',
            userAgent: 'Yahoo!-Mail-Feedback/2.0',
            arrivalDate: openedAt.toISOString(),
          },
          at(openedAt.getTime() - m.sentAt.getTime() + 3 * MINUTE),
        ),
      );
      break;
    case 'clicked':
      events.push(
        delivery,
        open,
        event(
          'Click',
          'click',
          { ipAddress: '198.51.100.23', userAgent, link: 'https://survey.example.com/s/demo', linkTags: { campaign: ['invite'] } },
          at(openedAt.getTime() - m.sentAt.getTime() + (1 + (h % 5)) * MINUTE),
        ),
      );
      break;
    case 'opened':
      events.push(delivery, open);
      break;
    case 'delivered':
      events.push(delivery);
      break;
    case 'in_flight':
      break;
  }
  return events.filter(([when]) => when.getTime() <= now.getTime()).map(([, e]) => e);
}

/** The address the demo's e-mails come from (seed/outbox.ts writes `Demo <demo@example.com>`). */
const DEMO_SOURCE = 'demo@example.com';

/**
 * Feeds the demo's events for every e-mail the outbox kept through the real ingest, oldest message
 * first so SES Bounce's counts and the transient rule see them in the order they happened. The
 * ingest is idempotent, so running this twice changes nothing the second time. Returns how many
 * events went in.
 */
export async function emitDemoSesEvents(db: Db, now: Date): Promise<{ messages: number; events: number }> {
  const rows = rowsOf(
    await db.execute(sql`select provider_message_id, recipient, subject_or_template, created_at, status,
        exists (select 1 from ses_events e where e.message_id = notification_logs.provider_message_id) as heard
      from notification_logs where channel = 'email' and provider_message_id like 'outbox-%' order by created_at, id`),
  );
  // The seed's stories already bounced some messages and suppressed their addresses with no event
  // behind them (seed/surveys.ts); those get the hard bounce or complaint that explains them.
  const seeded = new Map(
    rowsOf(await db.execute(sql`select email, reason from email_suppressions where suppressed and bounce_count + complaint_count = 0`)).map(
      (r) => [String(r.email), String(r.reason)],
    ),
  );
  const fateOf = (recipient: string, status: string, heard: boolean): DemoFate | undefined => {
    if (heard) return undefined;
    if (seeded.get(recipient) === 'COMPLAINT') return 'complaint';
    return status === 'bounced' || seeded.has(recipient) ? 'hard_bounce' : undefined;
  };
  let events = 0;
  for (const [i, row] of rows.entries()) {
    const message: DemoMessage = {
      providerMessageId: String(row.provider_message_id),
      recipient: String(row.recipient).toLowerCase(),
      source: DEMO_SOURCE,
      subject: String(row.subject_or_template),
      sentAt: row.created_at instanceof Date ? row.created_at : new Date(String(row.created_at)),
    };
    for (const [j, e] of demoSesEvents(message, now, fateOf(message.recipient, String(row.status), row.heard === true)).entries()) {
      const { inserted } = await ingestSesEvent(db, e, { snsMessageId: `demo-${i}-${j}`, now });
      events += inserted;
    }
  }
  return { messages: rows.length, events };
}
