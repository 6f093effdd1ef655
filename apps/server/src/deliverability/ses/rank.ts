import { type NotificationStatus, STATUS_OF_SES_EVENT } from '@admin/shared';
import { type SQL, sql } from 'drizzle-orm';

/**
 * How far a message has got, in one place: SES events arrive out of order (an Open before its
 * Delivery), so a NotificationLog row's status only moves to a higher rank. A bounce or complaint
 * outranks delivered/opened/clicked (SES may report a bounce after a delivery); a complaint, which
 * needs a delivered message, outranks a bounce.
 */
const RANK: Partial<Record<NotificationStatus, number>> = {
  queued: 0,
  sent: 1,
  delivered: 2,
  opened: 3,
  clicked: 4,
  failed: 5,
  undelivered: 5,
  bounced: 5,
  complained: 6,
};

/** The status each SES event type stands for on the message's timeline (packages/shared, one table). */
export const STATUS_OF_EVENT = STATUS_OF_SES_EVENT;

/** The status a message should have after an event: `next` when it ranks higher than `current`, else `current`. */
export function forwardStatus(current: string, next: NotificationStatus): string {
  const from = RANK[current as NotificationStatus];
  // A status outside the ladder (a `suppressed` row never left) is never moved by a provider event.
  if (from === undefined) return current;
  return (RANK[next] ?? -1) > from ? next : current;
}

/** The same ladder in SQL, for a statement that moves a status itself: a status outside it ranks null (never moved). */
export function rankSql(status: SQL): SQL {
  const cases = Object.entries(RANK).map(([name, rank]) => sql`when ${name} then ${rank}::int`);
  return sql`(case ${status} ${sql.join(cases, sql` `)} end)`;
}
