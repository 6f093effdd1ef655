import type { NotificationChannel } from '@admin/shared';
import type { Db } from '../db/client.ts';
import type { Messenger, OutboundMessage, SendResult } from '../messaging/send.ts';
import { type UnfinishedRow, unfinishedRows } from '../messaging/unfinished-rows.ts';
import { type Claimed, type Details, messageOf } from './send-render.ts';

/** How an invitation an earlier claim wrote ends this time: its row, the channel, and when it went out. */
export type Resumed = { item: Claimed; result: SendResult | null; error: string | null; channel: NotificationChannel; sentAt: Date };

/**
 * The invitation rows of a claimed batch that an earlier claim wrote: that claim's worker died
 * between writing them (`sendMany`) and writing the invitations' outcomes (pipeline/send.ts), and
 * its lease ended, so the invitations were due again.
 */
export const earlierSends = (db: Db, items: Claimed[]) =>
  unfinishedRows(
    db,
    'survey_processing_item',
    'survey_invite',
    items.map((item) => item.id),
  );

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
  earlier: Map<number, UnfinishedRow>,
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
