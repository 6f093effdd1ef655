import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import type { ParsedSesEvent, SesRecipientEvent } from './parse.ts';
import { eventDetail } from './policy.ts';
import { rankSql, STATUS_OF_EVENT } from './rank.ts';

const iso = (d: Date) => d.toISOString();

/**
 * The common event — one recipient, no bounce or complaint (Send, Delivery, Open, Click, …) — in
 * one statement instead of a transaction of five: it locks the message's row, inserts the event
 * (`on conflict do nothing`), and only when it was inserted adds the timeline line and moves the
 * status forward by the same rank as rank.ts (rankSql). One statement is atomic, and the lock
 * orders it with the transactional path (ingest.ts), which takes the same row first.
 */
export async function ingestOne(
  db: Db,
  e: ParsedSesEvent,
  r: SesRecipientEvent,
  raw: string,
  context: { snsMessageId: string | null; now: Date },
): Promise<boolean> {
  const status = STATUS_OF_EVENT[e.eventType] ?? null;
  const detail = eventDetail({ eventType: e.eventType, ...r }, null);
  const at = iso(e.eventAt);
  const result = await db.execute(sql`with m as (
      select id, client_id, status from notification_logs where provider_message_id = ${e.messageId} order by id limit 1 for update
    ), ins as (
      insert into ses_events (message_id, event_type, recipient, source, subject, configuration_set, diagnostic_code, reporting_mta,
        event_at, raw, sns_message_id, notification_id, client_id, received_at)
      select ${e.messageId}, ${e.eventType}, ${r.recipient}, ${e.source}, ${e.subject}, ${e.configurationSet}, ${r.diagnosticCode},
        ${r.reportingMta}, ${at}::timestamptz, ${raw}::jsonb, ${context.snsMessageId}, (select id from m), (select client_id from m),
        ${iso(context.now)}::timestamptz
      on conflict (message_id, event_type, recipient, event_at) do nothing
      returning id
    ), timeline as (
      insert into notification_events (notification_id, status, at, detail)
      select m.id, ${status}, ${at}::timestamptz, ${detail} from m where ${status}::text is not null and exists (select 1 from ins)
    ), moved as (
      update notification_logs n set status = ${status}, updated_at = ${iso(context.now)}::timestamptz
      from m where n.id = m.id and exists (select 1 from ins) and ${status}::text is not null
        and ${rankSql(sql`m.status`)} < ${rankSql(sql`${status}::text`)}
    )
    select count(*)::int as inserted from ins`);
  return Number(rowsOf(result)[0]?.inserted ?? 0) > 0;
}
