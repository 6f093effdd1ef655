import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import type { ParsedSesEvent, SesRecipientEvent } from './parse.ts';
import { countsAsTransient, type SuppressionReason, suppressionFor, TRANSIENT_WINDOW_DAYS, transientBurst } from './policy.ts';

/** What the message the event is about tells the suppression row. */
export type MessageFacts = { clientId: number | null; subject: string | null };

const iso = (d: Date) => d.toISOString();
const asDate = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(String(v)));

/**
 * Records a bounce or complaint on the address's SES Bounce row and applies the policy (policy.ts).
 * The row is upserted FIRST, which locks it: a concurrent event for the same address waits here,
 * and the transient count it reads after the wait (a new snapshot under READ COMMITTED) sees the
 * event that held the lock, so no count is lost and the third transient is never missed by both.
 * Answers the reason the address became suppressed by this event, or null.
 */
export async function recordOnSuppressionRow(
  tx: Db,
  event: ParsedSesEvent,
  r: SesRecipientEvent,
  facts: MessageFacts,
  now: Date,
): Promise<SuppressionReason | null> {
  const at = event.eventAt;
  const kind = event.eventType === 'Complaint' ? 'COMPLAINT' : 'BOUNCE';
  const [row] = rowsOf(
    await tx.execute(sql`insert into email_suppressions (email, suppressed, reason, first_seen_at, last_seen_at, created_at)
      values (${r.recipient}, false, ${kind}, ${iso(at)}::timestamptz, ${iso(at)}::timestamptz, ${iso(now)}::timestamptz)
      on conflict (email) do update set email = excluded.email
      returning suppressed, released_at, last_seen_at`),
  );
  if (!row) throw new Error('email_suppressions upsert answered no row');
  const releasedAt = asDate(row.released_at);
  const lastSeenAt = asDate(row.last_seen_at) ?? at;
  // A released address is suppressed again only by what happens after the release.
  const afterRelease = releasedAt === null || at > releasedAt;
  const policyEvent = { eventType: event.eventType, ...r };
  let burst = false;
  if (afterRelease && countsAsTransient(policyEvent)) {
    const days = `${TRANSIENT_WINDOW_DAYS} days`;
    const times = rowsOf(
      await tx.execute(sql`select event_at from ses_events
        where recipient = ${r.recipient} and event_type = 'Bounce' and bounce_type = 'Transient'
          and bounce_subtype is distinct from 'General'
          and event_at between ${iso(at)}::timestamptz - ${days}::interval and ${iso(at)}::timestamptz + ${days}::interval
          ${releasedAt ? sql`and event_at > ${iso(releasedAt)}::timestamptz` : sql``}
        order by event_at limit 1000`),
    ).map((t) => new Date(String(t.event_at)));
    burst = transientBurst(times);
  }
  const reason = afterRelease ? suppressionFor(policyEvent, burst) : null;
  const suppressNow = reason !== null && row.suppressed !== true;
  // The "last" fields describe the latest event by its own time, whatever order they arrived in.
  const latest = at >= lastSeenAt;
  const isBounce = event.eventType === 'Bounce';
  await tx.execute(sql`update email_suppressions set
      bounce_count = bounce_count + ${isBounce ? 1 : 0},
      complaint_count = complaint_count + ${isBounce ? 0 : 1},
      last_bounce_type = ${isBounce && latest ? sql`${r.bounceType}` : sql`last_bounce_type`},
      last_bounce_subtype = ${isBounce && latest ? sql`${r.bounceSubtype}` : sql`last_bounce_subtype`},
      last_diagnostic_code = ${isBounce && latest ? sql`${r.diagnosticCode}` : sql`last_diagnostic_code`},
      last_template = ${latest && facts.subject !== null ? sql`${facts.subject}` : sql`last_template`},
      client_ids = ${
        facts.clientId === null
          ? sql`client_ids`
          : sql`case when ${facts.clientId}::int = any(client_ids) then client_ids else array_append(client_ids, ${facts.clientId}::int) end`
      },
      first_seen_at = least(first_seen_at, ${iso(at)}::timestamptz),
      last_seen_at = greatest(last_seen_at, ${iso(at)}::timestamptz),
      ${suppressNow ? sql`suppressed = true, reason = ${reason}, suppressed_at = ${iso(at)}::timestamptz,` : sql``}
      email = email
    where email = ${r.recipient}`);
  return suppressNow ? reason : null;
}
