import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import type { Messenger, OutboundMessage, SendResult } from '../messaging/send.ts';
import { unfinishedRows } from '../messaging/unfinished-rows.ts';
import { hashToken } from './links.ts';
import { type AlertFacts, alertMessage } from './message.ts';
import { nextRetryAt, outcomeOf } from './reasons.ts';

/** Events one pass claims; a claim holds them this long, so a worker that dies hands them back. */
const BATCH = 50;
const LEASE_MS = 10 * 60_000;

type Claimed = AlertFacts & {
  id: number;
  channel: 'email' | 'sms';
  recipient: string;
  resentTo: string | null;
  attempts: number;
  test: boolean;
  ruleStatus: string;
  surveyId: number | null;
};

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

/**
 * Claims due instant events (pending or retrying, `next_retry_at` reached) with `for update skip
 * locked`, counting the attempt and pushing `next_retry_at` a lease ahead, so two workers never
 * send one event and a dead worker's events come back.
 */
async function claim(db: Db, now: Date, only: number[] | null): Promise<Claimed[]> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + LEASE_MS).toISOString();
  const rows = rowsOf(
    await db.execute(sql`
      with claimed as (
        update survey_alert_events set attempts = attempts + 1, last_attempt_at = ${at}::timestamptz,
          next_retry_at = ${until}::timestamptz, updated_at = ${at}::timestamptz
        where id in (
          select id from survey_alert_events
          where state in ('pending', 'retrying') and next_retry_at <= ${at}::timestamptz
            and (${only === null} or id in (select jsonb_array_elements_text(${JSON.stringify(only ?? [])}::jsonb)::bigint))
          order by next_retry_at, id limit ${BATCH}
          for update skip locked)
        returning *)
      select e.id, e.channel, e.recipient, e.resent_to, e.attempts, e.test, e.response_id, e.client_id,
        r.name as rule_name, r.status as rule_status, r.no_response_days, c.name as client_name,
        coalesce(sr.location_id, pi.location_id) as location_id, l.locationname as location_name,
        s.id as survey_id, s.name as survey_name, sr.key_score, sr.comment, pi.first_name, pi.email, pi.phone
      from claimed e
      join survey_alert_rules r on r.id = e.rule_id
      join clients c on c.id = e.client_id
      left join survey_responses sr on sr.id = e.response_id
      left join survey_processing_items pi on pi.id = coalesce(e.processing_item_id, sr.processing_item_id)
      left join surveys s on s.id = coalesce(sr.survey_id, pi.survey_id)
      left join locations l on l._id = coalesce(sr.location_id, pi.location_id)
      order by e.id`),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    channel: r.channel === 'sms' ? 'sms' : 'email',
    recipient: String(r.recipient),
    resentTo: str(r.resent_to),
    attempts: Number(r.attempts),
    test: r.test === true,
    ruleStatus: String(r.rule_status),
    surveyId: r.survey_id === null ? null : Number(r.survey_id),
    clientId: Number(r.client_id),
    clientName: String(r.client_name),
    locationId: str(r.location_id),
    locationName: str(r.location_name),
    surveyName: str(r.survey_name) ?? '—',
    score: r.key_score === null ? null : Number(r.key_score),
    comment: str(r.comment),
    firstName: str(r.first_name),
    customerEmail: str(r.email),
    customerPhone: str(r.phone),
    responseId: r.response_id === null ? null : Number(r.response_id),
    ruleName: String(r.rule_name),
    unansweredDays: r.response_id === null && r.no_response_days !== null ? Number(r.no_response_days) : null,
  }));
}

async function resumeOne(messenger: Messenger, id: number, message: OutboundMessage): Promise<SendResult> {
  const [result] = await messenger.resumeMany([{ id, message }]);
  if (!result) throw new Error('resumeMany answered nothing');
  return result;
}

async function settle(
  db: Db,
  id: number,
  now: Date,
  fields: { state: string; reason: string | null; nextRetryAt: Date | null; notificationId?: number; ackTokenHash?: string },
) {
  await db.execute(sql`
    update survey_alert_events set state = ${fields.state}, reason = ${fields.reason},
      next_retry_at = ${fields.nextRetryAt?.toISOString() ?? null}::timestamptz,
      notification_id = coalesce(${fields.notificationId ?? null}::bigint, notification_id),
      ack_token_hash = coalesce(${fields.ackTokenHash ?? null}, ack_token_hash),
      updated_at = ${now.toISOString()}::timestamptz
    where id = ${id}`);
}

/**
 * The delivery loop (a worker loop, apps/server/src/alerts/install.ts): sends each due instant
 * event through the one messenger (type `survey_alert`, its suppression and opt-out checks, its
 * Tracking Logs row). A paused or archived rule stops at send (`rule_paused_at_send`); a permanent
 * refusal makes the event unsent at once; a transient failure retries at 5 min, 30 min, 2 h and
 * 12 h, then unsent. A resent event that arrives becomes `resent`. `only` limits it to these events
 * (a rule's Test). Answers how many it handled.
 */
export async function deliverDue(db: Db, messenger: Messenger, now: Date, only: number[] | null = null): Promise<number> {
  const events = await claim(db, now, only);
  // What an earlier claim of these events wrote before its worker died (decision 093).
  const earlier = await unfinishedRows(
    db,
    'survey_alert_event',
    'survey_alert',
    events.map((e) => e.id),
  );
  for (const e of events) {
    const prior = earlier.get(e.id);
    const settled = e.resentTo !== null ? 'resent' : 'sent';
    // The provider took it: that was the alert, its acknowledge link kept before the send.
    if (prior && prior.status !== 'queued') {
      await settle(db, e.id, now, { state: settled, reason: null, nextRetryAt: null, notificationId: prior.id });
      continue;
    }
    if (!prior && e.ruleStatus !== 'active' && !e.test) {
      await settle(db, e.id, now, { state: 'unsent', reason: 'rule_paused_at_send', nextRetryAt: null });
      continue;
    }
    const token = randomBytes(24).toString('base64url');
    const links = {
      acknowledge: messenger.link(`/a/${token}`),
      unsubscribe: messenger.link(`/alerts/unsubscribe/${token}`),
      response: e.surveyId !== null && e.responseId !== null ? messenger.link(`/admin/survey-manager?survey=${e.surveyId}`) : null,
    };
    // Kept before the send, so the links work in an alert whose worker dies before settling it.
    await db.execute(sql`update survey_alert_events set ack_token_hash = ${hashToken(token)} where id = ${e.id}`);
    const message = alertMessage(e, e.channel, e.resentTo ?? e.recipient, links, { test: e.test, eventId: e.id });
    // A row the dead worker wrote and may not have delivered is delivered on that row, not a new one.
    const result = prior ? await resumeOne(messenger, prior.id, message) : await messenger.send(message);
    const outcome = outcomeOf(result);
    const common = { notificationId: result.id, ackTokenHash: hashToken(token) };
    if (outcome.kind === 'sent') {
      await settle(db, e.id, now, { ...common, state: settled, reason: null, nextRetryAt: null });
    } else if (outcome.kind === 'permanent') {
      await settle(db, e.id, now, { ...common, state: 'unsent', reason: outcome.reason, nextRetryAt: null });
    } else {
      const retry = nextRetryAt(e.attempts, now);
      await settle(db, e.id, now, { ...common, state: retry ? 'retrying' : 'unsent', reason: outcome.reason, nextRetryAt: retry });
    }
  }
  return events.length;
}
