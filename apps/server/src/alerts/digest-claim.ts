import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';

/**
 * A digest row is the claim on its period's message (unique on rule, recipient, channel and period
 * start). One left unsent this long — its worker died, or the send threw, before it was marked
 * sent — is claimed again, so its pending alerts go out late rather than never; a crash between
 * the send and its marking may then send it twice.
 */
export const DIGEST_CLAIM_MS = 10 * 60_000;

/** Claims a digest of survey or review alerts for its period; null when another pass holds it or sent it. */
export async function claimDigest(
  db: Db,
  table: 'survey_alert_digests' | 'review_alert_digests',
  key: { ruleId: number; channel: string; recipient: string; periodStart: Date },
  now: Date,
): Promise<number | null> {
  const t = sql.raw(table);
  const stale = new Date(now.getTime() - DIGEST_CLAIM_MS).toISOString();
  const result = await db.execute(sql`
    insert into ${t} (rule_id, channel, recipient, period_start, created_at)
    values (${key.ruleId}, ${key.channel}, ${key.recipient}, ${key.periodStart.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
    on conflict (rule_id, recipient, channel, period_start) do update set created_at = excluded.created_at
      where ${t}.sent_at is null and ${t}.created_at < ${stale}::timestamptz
    returning id`);
  const [row] = rowsOf(result);
  return row ? Number(row.id) : null;
}

/** What a survey or review digest reads of its rule and client (each kind adds its schedule). */
export type DigestRule = { ruleId: number; ruleName: string; status: string; clientId: number; clientName: string; timezone: string };

/** A rule row selected as `id, name, status, client_id, client_name, timezone` (and the kind's schedule). */
export const digestRuleOf = (r: Record<string, unknown>): DigestRule => ({
  ruleId: Number(r.id),
  ruleName: String(r.name),
  status: String(r.status),
  clientId: Number(r.client_id),
  clientName: String(r.client_name),
  timezone: String(r.timezone),
});
