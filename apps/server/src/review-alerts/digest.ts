import { sql } from 'drizzle-orm';
import { claimDigest, type DigestRule, digestRuleOf } from '../alerts/digest-claim.ts';
import { unsubscribeLink } from '../alerts/unsubscribe.ts';
import { type Db, rowsOf } from '../db/client.ts';
import type { Messenger } from '../messaging/send.ts';
import { localTimeOf, zonedTime } from '../pipeline/schedule.ts';
import { markSent, settlementOf } from './deliver.ts';
import { FACT_COLUMNS, factsOf, linksOf } from './facts.ts';
import { type DigestLine, reviewDigestMessage } from './message.ts';

const DAY_MS = 86_400_000;
/** A digest with no send time set (the form requires one) goes at 08:00. */
const DEFAULT_TIME = '08:00';

/**
 * The latest digest instant at or before `now` of a rule in its client's zone: its send time
 * (HH:mm) on the client's calendar day, and for a weekly rule only on its weekday. It is the
 * period's key (review_alert_digests_once_uq): one digest per rule, recipient, channel and instant.
 */
export function digestInstant(now: Date, sendTime: string | null, weeklyDay: string | null, timeZone: string): Date {
  // The form allows HH:mm only; anything else stored by other means falls back to the default time.
  const [h, m] = (/^([01]\d|2[0-3]):([0-5]\d)$/.test(sendTime ?? '') ? (sendTime ?? DEFAULT_TIME) : DEFAULT_TIME).split(':').map(Number);
  const minute = (h ?? 8) * 60 + (m ?? 0);
  for (let back = 0; back <= 7; back++) {
    const local = localTimeOf(new Date(now.getTime() - back * DAY_MS), timeZone);
    if (weeklyDay !== null && local.weekday !== weeklyDay) continue;
    const at = zonedTime(local.year, local.month, local.day, minute, timeZone);
    if (at.getTime() <= now.getTime()) return at;
  }
  // Only reached for a weekly rule whose day is today but whose time is still ahead: last week's.
  const local = localTimeOf(new Date(now.getTime() - 7 * DAY_MS), timeZone);
  return zonedTime(local.year, local.month, local.day, minute, timeZone);
}

/** A rule with deliveries waiting for a digest; `oldestMs`: when the oldest of them was made. */
type Waiting = DigestRule & { frequency: string; sendTime: string | null; weeklyDay: string | null; oldestMs: number };

/**
 * Daily and weekly digests: a digest rule's deliveries wait (no `next_retry_at`) until the rule's
 * send time (and weekday) in the client's zone; then one message per recipient and channel carries
 * every delivery made before that instant. The digest row is unique on rule, recipient, channel and
 * instant, so a second worker or pass sends nothing more. A transient failure hands the digest's
 * deliveries to the instant loop (deliver.ts), which retries them one by one, as survey digests do
 * (apps/server/src/alerts/digest.ts). Answers how many digests it sent.
 */
export async function sendReviewDigests(db: Db, messenger: Messenger, now: Date): Promise<number> {
  // Each rule with waiting deliveries, and when its oldest one was made: a pass that finds all of
  // them made after the rule's last digest instant (they wait for the next one) reads no more.
  const rules = rowsOf(
    await db.execute(sql`
      select r.id, r.name, r.status, r.frequency, r.send_time, r.weekly_day, r.client_id, c.name as client_name, c.timezone, w.oldest_ms
      from review_alert_rules r join clients c on c.id = r.client_id
      join (
        select d.rule_id, (extract(epoch from min(d.created_at)) * 1000)::float8 as oldest_ms
        from review_alert_deliveries d
        where d.status = 'pending' and d.next_retry_at is null and d.digest_id is null
        group by d.rule_id) w on w.rule_id = r.id
      where r.frequency in ('daily', 'weekly')`),
  ).map(
    (r): Waiting => ({
      ...digestRuleOf(r),
      frequency: String(r.frequency),
      sendTime: r.send_time === null ? null : String(r.send_time),
      weeklyDay: r.frequency === 'weekly' && r.weekly_day !== null ? String(r.weekly_day) : null,
      oldestMs: Number(r.oldest_ms),
    }),
  );
  let sent = 0;
  const at = now.toISOString();
  for (const rule of rules) {
    const period = digestInstant(now, rule.sendTime, rule.weeklyDay, rule.timezone);
    if (rule.oldestMs > period.getTime()) continue;
    const rows = rowsOf(
      await db.execute(sql`
        select d.id, d.channel, d.recipient, ${sql.raw(FACT_COLUMNS)}
        from review_alert_deliveries d
        join review_alert_rules r on r.id = d.rule_id
        join clients c on c.id = d.client_id
        left join reviews rv on rv.id = d.review_id
        left join locations l on l._id = rv.location_id
        where d.rule_id = ${rule.ruleId} and d.status = 'pending' and d.next_retry_at is null and d.digest_id is null
          and d.created_at <= ${period.toISOString()}::timestamptz
        order by d.id`),
    );
    const groups = new Map<string, { id: number; channel: 'email' | 'sms'; recipient: string; line: DigestLine }[]>();
    for (const r of rows) {
      const facts = factsOf(r, rule.clientId);
      const item = {
        id: Number(r.id),
        channel: r.channel === 'sms' ? ('sms' as const) : ('email' as const),
        recipient: String(r.recipient),
        line: { ...facts, link: linksOf(messenger, facts).review },
      };
      const key = `${item.channel}\u0000${item.recipient}`;
      groups.set(key, [...(groups.get(key) ?? []), item]);
    }
    for (const group of groups.values()) {
      const first = group[0];
      if (!first) continue;
      const ids = group.map((g) => g.id);
      const settleAll = (
        s: { status: string; reason: string | null; nextRetryAt: Date | null },
        digestId: number | null,
        notificationId: number | null,
      ) =>
        db.execute(sql`
          update review_alert_deliveries set status = ${s.status}, reason = ${s.reason}, digest_id = ${digestId}, attempts = attempts + 1,
            next_retry_at = ${s.nextRetryAt?.toISOString() ?? null}::timestamptz, notification_id = ${notificationId}::bigint,
            sent_at = case when ${s.status} = 'sent' then ${at}::timestamptz else null end, updated_at = ${at}::timestamptz
          where id = any(${sql.param(ids)}::bigint[])`);
      if (rule.status !== 'active') {
        await settleAll({ status: 'failed', reason: 'rule_paused_at_send', nextRetryAt: null }, null, null);
        continue;
      }
      const digestId = await claimDigest(
        db,
        'review_alert_digests',
        { ruleId: rule.ruleId, channel: first.channel, recipient: first.recipient, periodStart: period },
        now,
      );
      if (digestId === null) continue;
      const unsubscribe = unsubscribeLink(messenger);
      const message = reviewDigestMessage(
        rule,
        first.channel,
        first.recipient,
        group.map((g) => g.line),
        { id: digestId, unsubscribe: unsubscribe.url },
      );
      const result = await messenger.send(message);
      const hash = first.channel === 'email' ? unsubscribe.hash : null;
      await db.execute(
        sql`update review_alert_digests set sent_at = ${at}::timestamptz, notification_id = ${result.id}, unsubscribe_token_hash = ${hash}
          where id = ${digestId}`,
      );
      const settled = settlementOf(result, 1, now);
      await settleAll(settled, digestId, result.id);
      if (settled.status === 'sent') await markSent(db, [rule.ruleId], now);
      sent++;
    }
  }
  return sent;
}
