import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import type { Messenger, OutboundMessage } from '../messaging/send.ts';
import { localTimeOf, zonedTime } from '../pipeline/schedule.ts';
import { claimDigest, type DigestRule, digestRuleOf } from './digest-claim.ts';
import { outcomeOf } from './reasons.ts';

type Waiting = DigestRule & { digestHour: number };
type Line = {
  id: number;
  channel: 'email' | 'sms';
  recipient: string;
  survey: string;
  location: string;
  score: number | null;
  comment: string | null;
  firstName: string | null;
};

/** Today's digest instant of a rule in its client's zone: its hour, on the client's calendar day of `now`. */
export function digestInstant(now: Date, hour: number, timeZone: string): Date {
  const local = localTimeOf(now, timeZone);
  return zonedTime(local.year, local.month, local.day, hour * 60, timeZone);
}

function digestMessage(rule: Waiting, channel: 'email' | 'sms', to: string, lines: Line[], digestId: number): OutboundMessage {
  const common = { type: 'survey_alert' as const, to, clientId: rule.clientId, related: { type: 'survey_alert_digest', id: digestId } };
  const subject = `Survey alerts digest: ${lines.length} ${lines.length === 1 ? 'response' : 'responses'} at ${rule.clientName}`;
  if (channel === 'sms')
    return {
      ...common,
      channel: 'sms',
      template: 'Survey alert digest',
      text: `${subject} (${rule.ruleName}). Details in the admin console.`,
    };
  const body = lines.map(
    (l) =>
      `- ${l.location} · ${l.survey} · score ${l.score ?? '—'} · ${l.firstName ?? '—'}${l.comment ? `: “${l.comment.slice(0, 200)}”` : ''}`,
  );
  return { ...common, channel: 'email', subject, text: [`Rule: ${rule.ruleName}`, '', ...body].join('\n') };
}

/**
 * Daily digests (pipeline.md "Alerts"): a `daily_digest` rule's events wait (no `next_retry_at`)
 * until the rule's hour in the client's zone; then one message per recipient and channel carries
 * every event made up to that instant. survey_alert_digests is unique on rule, recipient, channel
 * and period (the day's digest instant), so a second worker or a second pass sends nothing more.
 * A transient failure hands the digest's events to the instant delivery loop (deliver.ts), which
 * retries them one by one. Answers how many digests it sent.
 */
export async function sendDigests(db: Db, messenger: Messenger, now: Date): Promise<number> {
  // Each rule with waiting events, and when its oldest one was made: a pass that finds all of them
  // made after today's digest instant (they wait for tomorrow's) reads no more.
  const rules = rowsOf(
    await db.execute(sql`
      select r.id, r.name, r.status, r.digest_hour, r.client_id, c.name as client_name, c.timezone,
        (extract(epoch from min(e.created_at)) * 1000)::float8 as oldest_ms
      from survey_alert_events e join survey_alert_rules r on r.id = e.rule_id join clients c on c.id = r.client_id
      where e.state = 'pending' and e.next_retry_at is null and e.digest_id is null and r.frequency = 'daily_digest'
      group by r.id, c.id`),
  ).map((r) => ({ ...digestRuleOf(r), digestHour: Number(r.digest_hour ?? 8), oldestMs: Number(r.oldest_ms) }));
  let sent = 0;
  const at = now.toISOString();
  for (const rule of rules) {
    const period = digestInstant(now, rule.digestHour, rule.timezone);
    if (now.getTime() < period.getTime() || rule.oldestMs > period.getTime()) continue;
    const lines = rowsOf(
      await db.execute(sql`
        select e.id, e.channel, e.recipient, s.name as survey, coalesce(l.locationname, '—') as location, sr.key_score, sr.comment, pi.first_name
        from survey_alert_events e
        left join survey_responses sr on sr.id = e.response_id
        left join survey_processing_items pi on pi.id = coalesce(e.processing_item_id, sr.processing_item_id)
        left join surveys s on s.id = coalesce(sr.survey_id, pi.survey_id)
        left join locations l on l._id = coalesce(sr.location_id, pi.location_id)
        where e.rule_id = ${rule.ruleId} and e.state = 'pending' and e.next_retry_at is null and e.digest_id is null
          and e.created_at <= ${period.toISOString()}::timestamptz
        order by e.id`),
    ).map(
      (r): Line => ({
        id: Number(r.id),
        channel: r.channel === 'sms' ? 'sms' : 'email',
        recipient: String(r.recipient),
        survey: String(r.survey ?? '—'),
        location: String(r.location),
        score: r.key_score === null ? null : Number(r.key_score),
        comment: r.comment === null ? null : String(r.comment),
        firstName: r.first_name === null ? null : String(r.first_name),
      }),
    );
    const groups = new Map<string, Line[]>();
    for (const l of lines) groups.set(`${l.channel}\u0000${l.recipient}`, [...(groups.get(`${l.channel}\u0000${l.recipient}`) ?? []), l]);
    for (const group of groups.values()) {
      const first = group[0];
      if (!first) continue;
      const ids = JSON.stringify(group.map((l) => l.id));
      const settle = (state: string, reason: string | null, digestId: number | null, next: Date | null, notificationId: number | null) =>
        db.execute(sql`
          update survey_alert_events set state = ${state}, reason = ${reason}, digest_id = ${digestId}, attempts = attempts + 1,
            last_attempt_at = ${at}::timestamptz, next_retry_at = ${next?.toISOString() ?? null}::timestamptz,
            notification_id = ${notificationId}::bigint, updated_at = ${at}::timestamptz
          where id in (select jsonb_array_elements_text(${ids}::jsonb)::bigint)`);
      if (rule.status !== 'active') {
        await settle('unsent', 'rule_paused_at_send', null, null, null);
        continue;
      }
      const digestId = await claimDigest(
        db,
        'survey_alert_digests',
        { ruleId: rule.ruleId, channel: first.channel, recipient: first.recipient, periodStart: period },
        now,
      );
      if (digestId === null) continue;
      const result = await messenger.send(digestMessage(rule, first.channel, first.recipient, group, digestId));
      await db.execute(
        sql`update survey_alert_digests set sent_at = ${at}::timestamptz, notification_id = ${result.id} where id = ${digestId}`,
      );
      const outcome = outcomeOf(result);
      if (outcome.kind === 'sent') await settle('sent', null, digestId, null, result.id);
      else if (outcome.kind === 'permanent') await settle('unsent', outcome.reason, digestId, null, result.id);
      else await settle('retrying', outcome.reason, digestId, new Date(now.getTime() + 5 * 60_000), result.id);
      sent++;
    }
  }
  return sent;
}
