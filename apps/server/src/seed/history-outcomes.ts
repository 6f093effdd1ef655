import type { NotificationStatus } from '@admin/shared';
import { recipientHash } from '../deliverability/demo-events.ts';
import type { HistoryInvitation } from './history-invitations.ts';
import type { seededRandom } from './random.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

const DETAIL = {
  queued: 'Queued for sending',
  emailOutbox: 'Kept in the outbox (EMAIL_TRANSPORT=outbox)',
  smsOutbox: 'Kept in the outbox (SMS_TRANSPORT=outbox)',
  accepted: 'SES accepted the message for sending',
  delivered: "Delivered to the recipient's mail server: 250 2.0.0 OK  1700000000 a1-20020a05.example.mx",
  opened: 'The recipient opened the message',
  clicked: 'The recipient clicked a link in the message',
};

/** What the SES events said of an e-mail, by its address's hash (0–99), as demo-events.ts decides: without its bounces and complaints, which are the last month's story. */
function fateOf(address: string): 'sent' | 'delivered' | 'opened' | 'clicked' {
  const bucket = recipientHash(address) % 100;
  return bucket < 5 ? 'sent' : bucket < 38 ? 'delivered' : bucket < 70 ? 'opened' : 'clicked';
}

export type Outcome = { status: NotificationStatus; events: { status: NotificationStatus; at: number; detail: string }[] };

/**
 * An invitation's Tracking Logs status and status history: what the messenger writes (queued, then
 * sent by the outbox) and, for an e-mail, what the SES event ingest (deliverability/ses/ingest.ts)
 * adds from the demo's events — accepted, delivered, opened, clicked, seconds to hours apart; a few
 * never reported, left `sent`. The SES Logs rows themselves are the last month's (decision 070).
 * An SMS stays `sent`, as the outbox leaves the last month's.
 */
export function outcomeOf(p: HistoryInvitation, rnd: ReturnType<typeof seededRandom>): Outcome {
  const events: Outcome['events'] = [
    { status: 'queued', at: p.sentAt, detail: DETAIL.queued },
    { status: 'sent', at: p.sentAt + SECOND, detail: p.channel === 'email' ? DETAIL.emailOutbox : DETAIL.smsOutbox },
  ];
  if (p.channel === 'sms') return { status: 'sent', events };
  const fate = fateOf(p.to);
  const accepted = p.sentAt + 2 * SECOND;
  events.push({ status: 'sent', at: accepted, detail: DETAIL.accepted });
  if (fate === 'sent') return { status: 'sent', events };
  let at = accepted + rnd.int(3, 60) * SECOND;
  events.push({ status: 'delivered', at, detail: DETAIL.delivered });
  if (fate !== 'delivered') {
    at += rnd.int(10, 30 * 60) * MINUTE;
    events.push({ status: 'opened', at, detail: DETAIL.opened });
  }
  if (fate === 'clicked') {
    at += rnd.int(1, 5) * MINUTE;
    events.push({ status: 'clicked', at, detail: DETAIL.clicked });
  }
  return { status: fate, events };
}
