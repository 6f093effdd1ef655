import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { notificationEvents } from '../../db/schema/index.ts';
import { ingestOne } from './ingest-one.ts';
import { type ParsedSesEvent, parseSesEvent, type SesRecipientEvent } from './parse.ts';
import { eventDetail, type SuppressionReason } from './policy.ts';
import { forwardStatus, STATUS_OF_EVENT } from './rank.ts';
import { recordOnSuppressionRow } from './suppression.ts';

const iso = (d: Date) => d.toISOString();

type Message = { id: number; clientId: number | null; status: string; subject: string | null };

/**
 * Ingests one SES event (what SNS carries in `Message`, parsed): one `ses_events` row per recipient,
 * `on conflict do nothing` on (message_id, event_type, recipient, event_at), so a retried or
 * duplicated event inserts nothing and changes nothing twice. Only inserted rows have effects, all
 * in this transaction: the message's timeline and status (forward only, rank.ts) and, for bounces
 * and complaints, the address's SES Bounce row and the suppression policy (suppression.ts).
 * Locks are taken in one order (the message, then addresses sorted) so concurrent events never
 * deadlock. An event of the wrong shape throws an HttpError 400 naming the Message field.
 */
export async function ingestSesEvent(
  db: Db,
  event: unknown,
  context: { snsMessageId: string | null; now: Date },
): Promise<{ inserted: number; duplicates: number }> {
  const parsed = parseSesEvent(event);
  const raw = JSON.stringify(event);
  const [only] = parsed.recipients;
  if (only && parsed.recipients.length === 1 && parsed.eventType !== 'Bounce' && parsed.eventType !== 'Complaint') {
    const inserted = await ingestOne(db, parsed, only, raw, context);
    return { inserted: inserted ? 1 : 0, duplicates: inserted ? 0 : 1 };
  }
  return db.transaction(async (tx) => {
    const message = await lockMessage(tx, parsed.messageId);
    const inserted: SesRecipientEvent[] = [];
    for (const r of parsed.recipients) {
      if (await insertEvent(tx, parsed, r, raw, message, context)) inserted.push(r);
    }
    for (const r of inserted) {
      const suppressed =
        parsed.eventType === 'Bounce' || parsed.eventType === 'Complaint'
          ? await recordOnSuppressionRow(
              tx,
              parsed,
              r,
              { clientId: message?.clientId ?? null, subject: message?.subject ?? null },
              context.now,
            )
          : null;
      if (message) await onTimeline(tx, message, parsed, r, suppressed, context.now);
    }
    return { inserted: inserted.length, duplicates: parsed.recipients.length - inserted.length };
  });
}

/** The NotificationLog row SES's message id belongs to, locked so its status moves one event at a time. */
async function lockMessage(tx: Db, messageId: string): Promise<Message | null> {
  const [row] = rowsOf(
    await tx.execute(sql`select id, client_id, status, subject_or_template from notification_logs
      where provider_message_id = ${messageId} order by id limit 1 for update`),
  );
  if (!row) return null;
  return {
    id: Number(row.id),
    clientId: row.client_id === null ? null : Number(row.client_id),
    status: String(row.status),
    subject: row.subject_or_template === null ? null : String(row.subject_or_template),
  };
}

async function insertEvent(
  tx: Db,
  e: ParsedSesEvent,
  r: SesRecipientEvent,
  raw: string,
  message: Message | null,
  context: { snsMessageId: string | null; now: Date },
): Promise<boolean> {
  const result = await tx.execute(sql`insert into ses_events (message_id, event_type, recipient, source, subject, configuration_set,
      bounce_type, bounce_subtype, complaint_feedback_type, diagnostic_code, reporting_mta, event_at, raw, sns_message_id,
      notification_id, client_id, received_at)
    values (${e.messageId}, ${e.eventType}, ${r.recipient}, ${e.source}, ${e.subject}, ${e.configurationSet},
      ${r.bounceType}, ${r.bounceSubtype}, ${r.complaintFeedbackType}, ${r.diagnosticCode}, ${r.reportingMta},
      ${iso(e.eventAt)}::timestamptz, ${raw}::jsonb, ${context.snsMessageId}, ${message?.id ?? null}, ${message?.clientId ?? null},
      ${iso(context.now)}::timestamptz)
    on conflict (message_id, event_type, recipient, event_at) do nothing
    returning id`);
  return rowsOf(result).length > 0;
}

/** A timeline line at the event's time, and the status moved forward only (rank.ts). */
async function onTimeline(
  tx: Db,
  message: Message,
  e: ParsedSesEvent,
  r: SesRecipientEvent,
  suppressed: SuppressionReason | null,
  now: Date,
): Promise<void> {
  const status = STATUS_OF_EVENT[e.eventType];
  if (!status) return;
  await tx.insert(notificationEvents).values({
    notificationId: message.id,
    status,
    at: e.eventAt,
    detail: eventDetail({ eventType: e.eventType, ...r }, suppressed),
  });
  const next = forwardStatus(message.status, status);
  if (next === message.status) return;
  const error = status === 'bounced' || status === 'failed' ? (r.diagnosticCode ?? null) : null;
  await tx.execute(sql`update notification_logs set status = ${next}, updated_at = ${iso(now)}::timestamptz
      ${error !== null ? sql`, error = ${error.slice(0, 2000)}` : sql``}
    where id = ${message.id}`);
  message.status = next;
}
