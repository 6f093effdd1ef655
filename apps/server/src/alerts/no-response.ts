import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { eventRows, insertEvents, namedBy } from './evaluate.ts';
import { recipientsOf, ruleUsers } from './recipients.ts';

/** The sweep looks again at most this often; its events are unique per invitation, so more often only costs queries. */
export const SWEEP_EVERY_MS = 60 * 60_000;

/**
 * The `no_response_days` sweep (pipeline.md "Alerts"): invitations sent at least N days ago, sent
 * after the rule was made, still unanswered, of the rule's surveys and locations, get one event set
 * each (`processing_item_id`, unique per rule, invitation, channel and recipient). Test sends never
 * count. Answers how many events it created.
 */
export async function sweepNoResponse(db: Db, now: Date): Promise<number> {
  const at = now.toISOString();
  const rules = rowsOf(
    await db.execute(sql`
      select * from survey_alert_rules where status = 'active' and trigger = 'no_response_days' and no_response_days is not null`),
  );
  let created = 0;
  for (const r of rules) {
    const rule = {
      id: Number(r.id),
      clientId: Number(r.client_id),
      frequency: String(r.frequency),
      channels: toArray(r.channels),
      extraEmails: toArray(r.extra_emails),
      extraPhones: toArray(r.extra_phones),
      notifyAssignedPersonnel: r.notify_assigned_personnel === true,
      notifyLocationManager: r.notify_location_manager === true,
    };
    const surveyIds = toArray(r.survey_ids).map(Number);
    const locationIds = toArray(r.location_ids);
    const items = rowsOf(
      await db.execute(sql`
        select pi.id, pi.personnel_id, pi.location_id from survey_processing_items pi
        where pi.client_id = ${rule.clientId} and pi.source <> 'manual_test' and pi.sent_at is not null
          and pi.sent_at >= ${String(r.created_at instanceof Date ? r.created_at.toISOString() : r.created_at)}::timestamptz
          and pi.sent_at <= ${at}::timestamptz - make_interval(days => ${Number(r.no_response_days)})
          and pi.status in ('sent', 'delivered', 'opened', 'reminded', 'expired')
          and (${surveyIds.length === 0} or pi.survey_id in (select jsonb_array_elements_text(${JSON.stringify(surveyIds)}::jsonb)::int))
          and (${locationIds.length === 0} or pi.location_id in (select jsonb_array_elements_text(${JSON.stringify(locationIds)}::jsonb)))
          and not exists (select 1 from survey_responses sr where sr.processing_item_id = pi.id)
          and not exists (select 1 from survey_alert_events e where e.rule_id = ${rule.id} and e.processing_item_id = pi.id)
        order by pi.id limit 500`),
    );
    if (items.length === 0) continue;
    const users = (await ruleUsers(db, rule.clientId, [rule.id])).get(rule.id) ?? [];
    for (const item of items) {
      const named = await namedBy(
        db,
        item.personnel_id === null ? null : Number(item.personnel_id),
        item.location_id === null ? null : String(item.location_id),
      );
      created += await insertEvents(
        db,
        eventRows(rule, recipientsOf(rule, users, named), { responseId: null, processingItemId: Number(item.id) }, now),
      );
    }
  }
  return created;
}

function toArray(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  const text = String(value ?? '').replace(/^\{|\}$/g, '');
  return text === '' ? [] : text.split(',').map((s) => s.replace(/^"|"$/g, ''));
}
