import type { NotificationChannel, NotificationStatus, NotificationType } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';

/** A NotificationLog row an earlier attempt wrote for something (an invitation, an alert event) and never recorded there. */
export type UnfinishedRow = {
  id: number;
  channel: NotificationChannel;
  status: NotificationStatus;
  providerMessageId: string | null;
  at: Date;
};

/**
 * Of the things given (`related_type`, ids), the newest row of `type` each has that did not fail
 * and was not refused, by id. A sender that claims a thing, writes its row, calls the provider and
 * then records the outcome on the thing finds one only when its earlier attempt's process died
 * between the row and the outcome (docs/decisions/093-resume-a-dead-workers-sends.md): a recorded
 * outcome moves the thing on, or leaves `failed` or `suppressed` rows, which do not count.
 */
export async function unfinishedRows(
  db: Db,
  relatedType: string,
  type: NotificationType,
  ids: number[],
): Promise<Map<number, UnfinishedRow>> {
  if (ids.length === 0) return new Map();
  const result = await db.execute(sql`
    select distinct on (related_id) id, related_id, channel, status, provider_message_id, created_at from notification_logs
    where related_type = ${relatedType} and type = ${type} and status not in ('failed', 'suppressed')
      and related_id in (select jsonb_array_elements_text(${JSON.stringify(ids.map(String))}::jsonb))
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
