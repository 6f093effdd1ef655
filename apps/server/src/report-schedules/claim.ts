import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import type { Period } from './period.ts';

/**
 * A run left `sending` this long — its process died between the claim and the end — is claimed
 * again and finished: recipients already answered are skipped (run.ts). As the alert digests'
 * claim (alerts/digest-claim.ts).
 */
export const RUN_CLAIM_MS = 10 * 60_000;

/** A claimed run: its row, and the attempt its messages are related to (`<id>.<attempt>`). */
export type ClaimedRun = { id: number; attempt: number };

/**
 * Claims the run of a schedule's period: the row unique on schedule and period start is the claim,
 * so two workers (or a worker and Send now) never both send it. Taken again when it was left
 * sending past RUN_CLAIM_MS (same attempt: finish it), when it failed and `retryFailed` (same
 * attempt: the failed recipients only), or when `force` (a new attempt to every recipient).
 * Null when another holds it or it is done.
 */
export async function claimRun(
  db: Db,
  scheduleId: number,
  period: Period,
  now: Date,
  options: { force?: boolean; retryFailed?: boolean } = {},
): Promise<ClaimedRun | null> {
  const at = now.toISOString();
  const stale = new Date(now.getTime() - RUN_CLAIM_MS).toISOString();
  const force = options.force === true;
  const retry = force || options.retryFailed === true;
  const result = await db.execute(sql`
    insert into report_schedule_runs as r (schedule_id, period_start, period_end, status, attempt, claimed_at, created_at)
    values (${scheduleId}, ${period.start}::date, ${period.end}::date, 'sending', 1, ${at}::timestamptz, ${at}::timestamptz)
    on conflict (schedule_id, period_start) do update set
      status = 'sending', claimed_at = excluded.claimed_at, finished_at = null, error = null,
      attempt = r.attempt + case when ${force} and r.status <> 'sending' then 1 else 0 end,
      notification_ids = case when ${force} and r.status <> 'sending' then '{}'::bigint[] else r.notification_ids end
    where (r.status = 'sending' and r.claimed_at < ${stale}::timestamptz)
      or (${force} and r.status <> 'sending')
      or (${retry} and r.status = 'failed')
    returning id, attempt`);
  const [row] = rowsOf(result);
  return row ? { id: Number(row.id), attempt: Number(row.attempt) } : null;
}

/** The run of a schedule's period as it stands (Send now says why it sent nothing). */
export async function runOf(db: Db, scheduleId: number, periodStart: string) {
  const [row] = rowsOf(
    await db.execute(sql`
      select id, status, claimed_at, finished_at from report_schedule_runs where schedule_id = ${scheduleId} and period_start = ${periodStart}::date`),
  );
  return row
    ? { id: Number(row.id), status: String(row.status), finishedAt: row.finished_at === null ? null : String(row.finished_at) }
    : null;
}
