import { sql } from 'drizzle-orm';
import { nextRetryAt, outcomeOf } from '../alerts/reasons.ts';
import { unsubscribeLink } from '../alerts/unsubscribe.ts';
import { type Db, rowsOf } from '../db/client.ts';
import type { Messenger, SendResult } from '../messaging/send.ts';
import { FACT_COLUMNS, factsOf, linksOf } from './facts.ts';
import { reviewAlertMessage } from './message.ts';

/** Deliveries one pass claims; a claim holds them this long, so a worker that dies hands them back. */
const BATCH = 50;
const LEASE_MS = 10 * 60_000;

/** A send's end as a delivery's status and reason: the survey engine's reasons (alerts/reasons.ts). */
export function settlementOf(result: SendResult, attempts: number, now: Date) {
  const outcome = outcomeOf(result);
  if (outcome.kind === 'sent') return { status: 'sent', reason: null, nextRetryAt: null };
  if (outcome.kind === 'permanent') {
    return { status: result.status === 'suppressed' ? 'suppressed' : 'failed', reason: outcome.reason, nextRetryAt: null };
  }
  const retry = nextRetryAt(attempts, now);
  return { status: retry ? 'pending' : 'failed', reason: outcome.reason, nextRetryAt: retry };
}

export async function settle(
  db: Db,
  id: number,
  now: Date,
  s: { status: string; reason: string | null; nextRetryAt: Date | null; notificationId?: number | null; unsubscribeTokenHash?: string },
) {
  const at = now.toISOString();
  await db.execute(sql`
    update review_alert_deliveries set status = ${s.status}, reason = ${s.reason},
      next_retry_at = ${s.nextRetryAt?.toISOString() ?? null}::timestamptz,
      notification_id = coalesce(${s.notificationId ?? null}::bigint, notification_id),
      unsubscribe_token_hash = coalesce(${s.unsubscribeTokenHash ?? null}, unsubscribe_token_hash),
      sent_at = case when ${s.status} = 'sent' then ${at}::timestamptz else sent_at end, updated_at = ${at}::timestamptz
    where id = ${id}`);
}

/** Marks rules as having sent now (Review Alert Settings' Last sent); test sends count too, they reach people. */
export async function markSent(db: Db, ruleIds: readonly number[], now: Date): Promise<void> {
  if (ruleIds.length === 0) return;
  await db.execute(sql`
    update review_alert_rules set last_sent_at = greatest(coalesce(last_sent_at, ${now.toISOString()}::timestamptz), ${now.toISOString()}::timestamptz)
    where id = any(${sql.param([...new Set(ruleIds)])}::integer[])`);
}

/**
 * The instant delivery loop (install.ts): claims due deliveries (pending, `next_retry_at` reached)
 * with `for update skip locked`, counting the attempt and pushing `next_retry_at` a lease ahead,
 * then sends each through the one messenger (type `review_alert`: its suppression and opt-out
 * checks, its Tracking Logs row). A paused or archived rule stops at send (`rule_paused_at_send`);
 * a refusal is `suppressed`, a permanent error `failed`; a transient one retries at 5 min, 30 min,
 * 2 h and 12 h, then `failed`. `only` limits it to these deliveries (Send test). Answers how many
 * it handled.
 */
export async function deliverDue(db: Db, messenger: Messenger, now: Date, only: number[] | null = null): Promise<number> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + LEASE_MS).toISOString();
  const claimed = rowsOf(
    await db.execute(sql`
      with claimed as (
        update review_alert_deliveries set attempts = attempts + 1, next_retry_at = ${until}::timestamptz, updated_at = ${at}::timestamptz
        where id in (
          select id from review_alert_deliveries
          where status = 'pending' and next_retry_at <= ${at}::timestamptz
            and (${only === null} or id = any(${sql.param(only ?? [])}::bigint[]))
          order by next_retry_at, id limit ${BATCH}
          for update skip locked)
        returning *)
      select d.id, d.rule_id, d.client_id, d.channel, d.recipient, d.attempts, d.test, r.status as rule_status, ${sql.raw(FACT_COLUMNS)}
      from claimed d
      join review_alert_rules r on r.id = d.rule_id
      join clients c on c.id = d.client_id
      left join reviews rv on rv.id = d.review_id
      left join locations l on l._id = rv.location_id
      order by d.id`),
  );
  const sentRules: number[] = [];
  for (const d of claimed) {
    const id = Number(d.id);
    const test = d.test === true;
    if (d.rule_status !== 'active' && !test) {
      await settle(db, id, now, { status: 'failed', reason: 'rule_paused_at_send', nextRetryAt: null });
      continue;
    }
    const facts = factsOf(d, Number(d.client_id));
    const channel = d.channel === 'sms' ? 'sms' : 'email';
    const unsubscribe = unsubscribeLink(messenger);
    const result = await messenger.send(
      reviewAlertMessage(facts, channel, String(d.recipient), linksOf(messenger, facts), {
        test,
        deliveryId: id,
        unsubscribe: unsubscribe.url,
      }),
    );
    const settled = settlementOf(result, Number(d.attempts), now);
    await settle(db, id, now, {
      ...settled,
      notificationId: result.id,
      ...(channel === 'email' ? { unsubscribeTokenHash: unsubscribe.hash } : {}),
    });
    if (settled.status === 'sent') sentRules.push(Number(d.rule_id));
  }
  await markSent(db, sentRules, now);
  return claimed.length;
}
