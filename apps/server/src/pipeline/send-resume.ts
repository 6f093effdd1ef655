import type { NotificationChannel, NotificationStatus } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import type { Messenger, OutboundMessage, SendResult } from '../messaging/send.ts';
import { type Claimed, type Details, messageOf } from './send-render.ts';

/**
 * A claimed invitation whose message an earlier claim already wrote: that claim's worker died
 * between writing the NotificationLog row (`sendMany`) and writing the invitation's outcome
 * (pipeline/send.ts), and its lease ended, so the invitation was due again. Only a crash leaves one:
 * an invitation is claimed while `scheduled`, and every outcome written moves it on or leaves
 * `failed` or `suppressed` rows, which a new attempt does not count.
 */
type EarlierSend = { id: number; channel: NotificationChannel; status: NotificationStatus; providerMessageId: string | null; at: Date };

/** How an invitation an earlier claim wrote ends this time: its row, the channel, and when it went out. */
export type Resumed = { item: Claimed; result: SendResult | null; error: string | null; channel: NotificationChannel; sentAt: Date };

/** The newest invitation row of each item an earlier claim wrote and did not fail or refuse, by item id. */
export async function earlierSends(db: Db, items: Claimed[]): Promise<Map<number, EarlierSend>> {
  if (items.length === 0) return new Map();
  const ids = JSON.stringify(items.map((item) => String(item.id)));
  const result = await db.execute(sql`
    select distinct on (related_id) id, related_id, channel, status, provider_message_id, created_at from notification_logs
    where related_type = 'survey_processing_item' and related_id in (select jsonb_array_elements_text(${ids}::jsonb))
      and type = 'survey_invite' and status not in ('failed', 'suppressed')
    order by related_id, id desc`);
  return new Map(
    rowsOf(result).map((r) => [
      Number(r.related_id),
      {
        id: Number(r.id),
        channel: r.channel as NotificationChannel,
        status: r.status as NotificationStatus,
        providerMessageId: r.provider_message_id === null ? null : String(r.provider_message_id),
        at: new Date(String(r.created_at)),
      },
    ]),
  );
}

/**
 * Finishes what earlier claims wrote, so each invitation goes out once: a row the provider took
 * (`sent` or later) is the invitation's send, as of when it was written; a `queued` row, whose
 * delivery the dead worker may not have made, is delivered now on the same row
 * (`Messenger.resumeMany`) with the message rendered again. One that can no longer be rendered
 * fails with the reason; its row stays `queued`.
 */
export async function resumeEarlier(
  messenger: Messenger,
  items: Claimed[],
  earlier: Map<number, EarlierSend>,
  d: Details,
  now: Date,
): Promise<Resumed[]> {
  const resumed: Resumed[] = [];
  const pending: { item: Claimed; id: number; message: OutboundMessage; channel: NotificationChannel }[] = [];
  for (const item of items) {
    const e = earlier.get(item.id);
    if (!e) continue;
    if (e.status !== 'queued') {
      const result: SendResult = { id: e.id, status: 'sent', providerMessageId: e.providerMessageId, error: null };
      resumed.push({ item, result, error: null, channel: e.channel, sentAt: e.at });
      continue;
    }
    const message = messageOf(item, e.channel, 'survey_invite', d, messenger);
    if (typeof message === 'string') resumed.push({ item, result: null, error: message, channel: e.channel, sentAt: now });
    else pending.push({ item, id: e.id, message, channel: e.channel });
  }
  const delivered = await messenger.resumeMany(pending.map((p) => ({ id: p.id, message: p.message })));
  pending.forEach((p, j) => {
    const result = delivered[j] ?? null;
    resumed.push({ item: p.item, result, error: result?.error ?? null, channel: p.channel, sentAt: now });
  });
  return resumed;
}
