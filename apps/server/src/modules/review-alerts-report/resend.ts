import { reviewAlertDeliveryStatusText } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { conflict, notFound } from '../../lib/http-error.ts';
import type { AuditEntry } from '../../plugins/audit.ts';

type Audit = (entry: AuditEntry, tx: Db) => Promise<void>;

/**
 * Resend failed alert (domain.md §27): a failed delivery goes back to `pending`, due now, with its
 * attempts counted afresh (so a transient error retries on the engine's schedule again); the review
 * alert engine's loop on the worker sends it on its next pass (review-alerts/deliver.ts: the rule's
 * pause check, the messenger's suppression and opt-out checks, its Tracking Logs row), as it sends
 * every due alert. The re-queue and its audit entry are one transaction; anything but a failed
 * delivery is a 409.
 */
export async function resendFailed(db: Db, id: number, now: Date, audit: Audit) {
  const at = now.toISOString();
  await db.transaction(async (tx) => {
    const [row] = rowsOf(
      await tx.execute(sql`select id, client_id, status, recipient, channel, reason from review_alert_deliveries
        where id = ${id} and not test for update`),
    );
    if (!row) throw notFound('Review alert delivery');
    const status = String(row.status);
    if (status !== 'failed')
      throw conflict(`Only a failed alert can be resent: this one is ${reviewAlertDeliveryStatusText(status).toLowerCase()}.`);
    await tx.execute(sql`update review_alert_deliveries
      set status = 'pending', attempts = 0, next_retry_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
      where id = ${id}`);
    await audit(
      {
        action: 'review_alert_delivery.resend',
        message: `Resent a failed review alert to ${String(row.recipient)}`,
        clientId: Number(row.client_id),
        entityType: 'review_alert_delivery',
        entityId: id,
        before: { status, reason: row.reason },
        after: { status: 'pending' },
      },
      tx,
    );
  });
  return { id, status: 'pending', reason: null };
}
