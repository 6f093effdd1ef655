import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import type { Messenger } from '../messaging/send.ts';

const LOOKBACK = '7 days';

/**
 * Escalation (pipeline.md "Alerts"): an alert (a rule's events for one response or invitation)
 * delivered `escalate_after_hours` ago that nobody acknowledged goes to the rule's escalation
 * addresses, once: `escalated_at` is set on all its events in the same statement that picks them,
 * so a second worker finds nothing. An acknowledgement by any recipient stops it. Answers how
 * many alerts it escalated.
 *
 * This runs on every worker poll, so it reads only rules with escalation, and of each only the
 * alerts that fell due within LOOKBACK (survey_alert_events_escalation_idx): acknowledged alerts
 * are never marked escalated and would otherwise be read again on every poll, forever. An alert
 * whose escalation was due more than a week ago (the workers stopped that long) is not escalated
 * late.
 */
export async function escalateDue(db: Db, messenger: Messenger, now: Date): Promise<number> {
  const at = now.toISOString();
  const alerts = rowsOf(
    await db.execute(sql`
      with due as (
        select e.rule_id, coalesce(e.response_id, 0) as response_id, coalesce(e.processing_item_id, 0) as item_id
        from survey_alert_rules r
        join survey_alert_events e on e.rule_id = r.id
          and e.escalated_at is null and e.state in ('sent', 'resent') and not e.test
          and e.last_attempt_at <= ${at}::timestamptz - make_interval(hours => r.escalate_after_hours)
          and e.last_attempt_at > ${at}::timestamptz - make_interval(hours => r.escalate_after_hours) - ${LOOKBACK}::interval
        where r.escalate_after_hours is not null and cardinality(r.escalation_emails) > 0
        group by 1, 2, 3
        having bool_and(e.acknowledged_at is null)),
      marked as (
        update survey_alert_events e set escalated_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
        from due d
        where e.rule_id = d.rule_id and coalesce(e.response_id, 0) = d.response_id and coalesce(e.processing_item_id, 0) = d.item_id
          and e.escalated_at is null
        returning e.rule_id, coalesce(e.response_id, 0) as response_id, coalesce(e.processing_item_id, 0) as item_id, e.client_id)
      select distinct m.rule_id, m.response_id, m.item_id, m.client_id, r.name, r.escalation_emails, r.escalate_after_hours, c.name as client_name,
        sr.key_score, sr.comment
      from marked m join survey_alert_rules r on r.id = m.rule_id join clients c on c.id = m.client_id
      left join survey_responses sr on sr.id = nullif(m.response_id, 0)`),
  );
  for (const a of alerts) {
    const emails = Array.isArray(a.escalation_emails)
      ? a.escalation_emails.map(String)
      : String(a.escalation_emails).replace(/[{}"]/g, '').split(',');
    const subject = `Escalated survey alert: not acknowledged in ${Number(a.escalate_after_hours)} h at ${String(a.client_name)}`;
    const text = [
      `Rule: ${String(a.name)}`,
      `Score: ${a.key_score ?? '—'}`,
      `Comment: ${a.comment ?? '—'}`,
      '',
      `Nobody acknowledged this alert within ${Number(a.escalate_after_hours)} hours.`,
    ].join('\n');
    for (const to of emails.filter((e) => e.trim() !== ''))
      await messenger.send({
        type: 'survey_alert',
        channel: 'email',
        to,
        clientId: Number(a.client_id),
        subject,
        text,
        related: { type: 'survey_alert_rule', id: Number(a.rule_id) },
      });
  }
  return alerts.length;
}
