import type { Db } from '../db/client.ts';
import { notificationAttachments } from '../db/schema/index.ts';
import type { OutboundMessage } from './send.ts';

/**
 * Keeps each e-mail's files beside its NotificationLog row, in the row's own transaction (`ids[i]` is the row of `sent[i]`): the
 * outbox's copy of what was sent (whatever the transport), for Tracking Logs' detail.
 */
export async function keepAttachments(tx: Db, ids: readonly number[], sent: readonly { message: OutboundMessage }[]): Promise<void> {
  const rows = sent.flatMap(({ message }, i) =>
    message.channel === 'email'
      ? (message.attachments ?? []).map((a) => ({
          notificationId: ids[i] ?? 0,
          filename: a.filename,
          contentType: a.contentType,
          sizeBytes: Buffer.byteLength(a.content, 'utf8'),
          content: a.content,
        }))
      : [],
  );
  if (rows.length > 0) await tx.insert(notificationAttachments).values(rows);
}
