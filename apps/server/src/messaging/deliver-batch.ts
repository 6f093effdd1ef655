import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { notificationEvents, notificationLogs } from '../db/schema/index.ts';
import { contentOf, describeError } from './log-row.ts';
import type { OutboundMessage, SendResult } from './send.ts';
import type { Delivery } from './transports.ts';

/** Rows per statement (well under PostgreSQL's parameter limit), and transports called at once. */
export const MANY_CHUNK = 1000;
const MANY_CONCURRENCY = 8;

/** A message whose NotificationLog row is written `queued`, to be delivered to `to`. */
export type QueuedMessage = { id: number; message: OutboundMessage; to: string };

/**
 * Delivers a batch's queued messages through the transport, a few at a time, then finishes their
 * rows (`sent` with the provider's id, or `failed` with its words) and their status history in one
 * transaction. Answers each one's result, in the batch's order. Used by `sendMany` for the rows it
 * has just written and by `resumeMany` for rows a process wrote and died before finishing.
 */
export async function deliverQueued(
  db: Db,
  now: () => Date,
  deliver: (message: OutboundMessage, to: string) => Promise<Delivery>,
  queued: QueuedMessage[],
): Promise<SendResult[]> {
  const results: SendResult[] = queued.map((q) => ({ id: q.id, status: 'queued', providerMessageId: null, error: null }));
  const details: string[] = queued.map(() => '');
  let next = 0;
  const lanes = Array.from({ length: MANY_CONCURRENCY }, async () => {
    while (next < queued.length) {
      const i = next++;
      const q = queued[i];
      const result = results[i];
      if (!q || !result) continue;
      try {
        const delivery = await deliver(q.message, q.to);
        Object.assign(result, { status: 'sent', providerMessageId: delivery.providerMessageId, error: null });
        details[i] = delivery.detail;
      } catch (err) {
        const error = describeError(err);
        Object.assign(result, { status: 'failed', error });
        details[i] = error;
      }
    }
  });
  await Promise.all(lanes);
  if (results.length === 0) return results;
  const finished = now();
  await db.transaction(async (tx) => {
    for (let i = 0; i < results.length; i += MANY_CHUNK) {
      const chunk = results.slice(i, i + MANY_CHUNK);
      const values = JSON.stringify(chunk.map((r) => ({ id: r.id, status: r.status, pid: r.providerMessageId, error: r.error })));
      await tx.execute(sql`
        update notification_logs n set status = v.status, provider_message_id = v.pid, error = v.error, updated_at = ${finished.toISOString()}::timestamptz
        from jsonb_to_recordset(${values}::jsonb) as v(id bigint, status text, pid text, error text)
        where n.id = v.id`);
      await tx
        .insert(notificationEvents)
        .values(chunk.map((r, j) => ({ notificationId: r.id, status: r.status, at: finished, detail: details[i + j] ?? '' })));
    }
  });
  return results;
}

/**
 * Rows a process wrote `queued` and died before finishing, made to hold the message about to be
 * delivered on them (`resumeMany`): rendered again, it can differ, e.g. an alert's new acknowledge link.
 */
export async function rewriteQueued(db: Db, pending: QueuedMessage[]): Promise<void> {
  for (const p of pending) {
    await db.update(notificationLogs).set(contentOf(p.message)).where(eq(notificationLogs.id, p.id));
  }
}
