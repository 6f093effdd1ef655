import { formatMoment, reviewSiteLabel, SMS_OPT_OUT_FOOTER } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { conflict } from '../../lib/http-error.ts';
import type { Messenger, OutboundMessage } from '../../messaging/send.ts';
import type { Amp } from './one.ts';

export const OPEN = ['invited', 'clicked'];

/** The reminder: each still-open site of the response with its `/r/` link, by the invitation's channel. */
function reminderOf(amp: Amp, links: { site: string; token: string }[], messenger: Messenger): OutboundMessage {
  const lines = links.map((l) => `${reviewSiteLabel(l.site)}: ${messenger.link(`/r/${l.token}`)}`);
  const common = {
    type: 'review_invite' as const,
    clientId: amp.clientId,
    locationId: amp.locationId,
    related: { type: 'amplification', id: amp.id },
  };
  if (amp.channel === 'sms')
    return {
      ...common,
      channel: 'sms',
      to: amp.phone ?? '',
      template: 'Review invite reminder',
      text: `${amp.clientName}: thanks for your feedback, ${amp.firstName}! Would you share a review? ${lines.join(' ')} ${SMS_OPT_OUT_FOOTER}`,
    };
  return {
    ...common,
    channel: 'email',
    to: amp.email ?? '',
    subject: `Would you review ${amp.locationName}?`,
    text: [
      `Hi ${amp.firstName},`,
      '',
      `Thank you for telling ${amp.clientName} about your visit to ${amp.locationName}. A short review helps others find us:`,
      '',
      ...lines,
      '',
      `— ${amp.clientName}`,
    ].join('\n'),
    sender: { name: amp.clientName, address: null },
  };
}

/**
 * Resend invite (issue 21, item 2: one reminder at most): claims the reminder for every open site of
 * the respondent at once (reminder_sent_at, a conditional update, so two clicks send once), then sends
 * one message with their `/r/` links through the messenger (its suppression and opt-out checks). A
 * refused or failed send gives the claim back and says why. `audit` writes in the claim's
 * transaction, and again (with the reason) in the one that gives a refused send's claim back.
 */
export async function resendInvite(
  db: Db,
  messenger: Messenger,
  amp: Amp,
  now: Date,
  audit: (tx: Db, sentTo: string, notSent?: string) => Promise<void>,
): Promise<void> {
  if (amp.reminderSentAt !== null)
    throw conflict(`A reminder was already sent (${formatMoment(amp.reminderSentAt, amp.clientTimezone)}); only one is sent.`);
  if (!OPEN.includes(amp.status))
    throw conflict(`Only an invited or clicked invitation gets a reminder; this one is ${amp.status.replace('_', ' ')}.`);
  const to = amp.channel === 'sms' ? amp.phone : amp.email;
  if (!to) throw conflict(`The customer has no ${amp.channel === 'sms' ? 'phone number' : 'e-mail address'} to send a reminder to.`);
  if (amp.channel === 'sms' && !amp.smsOptIn) throw conflict('The customer did not agree to text messages; no reminder is sent by SMS.');
  const links = await db.transaction(async (tx) => {
    const claimed = rowsOf(
      await tx.execute(sql`
        update amplifications set reminder_sent_at = ${now.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
         where response_id = ${amp.responseId} and status in ('invited', 'clicked') and reminder_sent_at is null
        returning id, site, token`),
    ).map((r) => ({ id: Number(r.id), site: String(r.site), token: String(r.token) }));
    if (!claimed.some((c) => c.id === amp.id)) throw conflict('A reminder was already sent; only one is sent.');
    await audit(tx, to);
    return claimed;
  });
  const result = await messenger.send(reminderOf(amp, links, messenger));
  if (result.status === 'suppressed' || result.status === 'failed') {
    const reason = result.error ?? result.status;
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        update amplifications set reminder_sent_at = null, updated_at = ${now.toISOString()}::timestamptz
         where id in (select jsonb_array_elements_text(${JSON.stringify(links.map((l) => l.id))}::jsonb)::bigint)`);
      await audit(tx, to, reason);
    });
    throw conflict(`The reminder was not sent: ${reason}.`);
  }
}
