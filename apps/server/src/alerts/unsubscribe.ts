import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import type { Messenger } from '../messaging/send.ts';
import { eventOfToken, hashToken, LINK_DAYS } from './links.ts';

/** Which engine's alerts a link stops: the page names them ("survey alerts", "review alerts"). */
export type AlertKind = 'survey' | 'review';

/** Whom an unsubscribe link's token names: the address it stops, the client it stops it for. */
export type Unsubscriber = {
  kind: AlertKind;
  clientId: number;
  clientName: string;
  channel: string;
  address: string;
  expired: boolean;
};

/** A fresh one-click unsubscribe link: the token goes in the message, only its SHA-256 is stored. */
export function unsubscribeLink(messenger: Messenger): { url: string; hash: string } {
  const token = randomBytes(24).toString('base64url');
  return { url: messenger.link(`/alerts/unsubscribe/${token}`), hash: hashToken(token) };
}

/**
 * The end of every alert e-mail, survey or review, instant or digest: the "Stop these alerts" line
 * and RFC 8058's one-click headers (a mail client POSTs `List-Unsubscribe=One-Click` to the link,
 * apps/server/src/alerts/public-routes.ts).
 */
export function withUnsubscribe(lines: readonly string[], url: string): { text: string; headers: Record<string, string> } {
  return {
    text: [...lines, '', `Stop these alerts: ${url}`].join('\n'),
    headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/**
 * The recipient an unsubscribe token names: a survey alert event (whose token is also its
 * acknowledge link's), else an instant review alert delivery, else a review digest. Null when
 * none; `expired` after the link's 30 days (the POST unsubscribes anyway).
 */
export async function unsubscriberOfToken(db: Db, token: string, now: Date): Promise<Unsubscriber | null> {
  if (!/^[\w-]{16,100}$/.test(token)) return null;
  const event = await eventOfToken(db, token, now);
  if (event) {
    const { clientId, clientName, channel, expired } = event;
    return { kind: 'survey', clientId, clientName, channel, address: event.resentTo ?? event.recipient, expired };
  }
  const hash = hashToken(token);
  const [row] = rowsOf(
    await db.execute(sql`
      (select d.client_id, c.name as client_name, d.channel, d.recipient, d.sent_at
        from review_alert_deliveries d join clients c on c.id = d.client_id
        where d.unsubscribe_token_hash = ${hash} limit 1)
      union all
      (select r.client_id, c.name, g.channel, g.recipient, g.sent_at
        from review_alert_digests g join review_alert_rules r on r.id = g.rule_id join clients c on c.id = r.client_id
        where g.unsubscribe_token_hash = ${hash} limit 1)
      limit 1`),
  );
  if (!row) return null;
  const sentAt = row.sent_at instanceof Date ? row.sent_at : row.sent_at ? new Date(String(row.sent_at)) : now;
  return {
    kind: 'review',
    clientId: Number(row.client_id),
    clientName: String(row.client_name),
    channel: String(row.channel),
    address: String(row.recipient),
    expired: now.getTime() - sentAt.getTime() > LINK_DAYS * 86_400_000,
  };
}
