import { and, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { reportSchedules } from '../db/schema/index.ts';
import type { Messenger } from '../messaging/send.ts';
import type { WorkerLoop } from '../pipeline/queue.ts';
import { claimRun, RUN_CLAIM_MS } from './claim.ts';
import { lastCompletePeriod, lastSendAt } from './period.ts';
import { type ScheduleRow, sendRun, timingOf } from './run.ts';

/** How often (clock time) a worker looks for due schedules: sends are on the hour, so a minute is soon enough. */
const EVERY_MS = 60_000;

/**
 * One pass: first finishes runs left `sending` by a process that died (past RUN_CLAIM_MS), then
 * sends each active schedule whose latest send time has come (and is not before the schedule was
 * made) and whose period has no run yet. Answers how many runs it sent or failed.
 */
export async function sendDueReports(db: Db, messenger: Messenger, now: Date): Promise<number> {
  let done = 0;
  const stale = new Date(now.getTime() - RUN_CLAIM_MS).toISOString();
  const left = rowsOf(
    await db.execute(sql`
      select r.schedule_id, r.period_start::text as period_start, r.period_end::text as period_end from report_schedule_runs r
      where r.status = 'sending' and r.claimed_at < ${stale}::timestamptz order by r.id limit 50`),
  );
  for (const r of left) {
    const [schedule] = await db
      .select()
      .from(reportSchedules)
      .where(eq(reportSchedules.id, Number(r.schedule_id)));
    const period = { start: String(r.period_start), end: String(r.period_end) };
    const claim = schedule ? await claimRun(db, schedule.id, period, now) : null;
    if (schedule && claim) {
      await sendRun(db, messenger, schedule, period, claim, now);
      done++;
    }
  }
  const active: ScheduleRow[] = await db
    .select()
    .from(reportSchedules)
    .where(and(eq(reportSchedules.status, 'active')));
  for (const schedule of active) {
    const timing = timingOf(schedule);
    if (lastSendAt(now, timing).getTime() < schedule.createdAt.getTime()) continue;
    const period = lastCompletePeriod(now, timing);
    if (schedule.lastPeriodStart === period.start) continue;
    const claim = await claimRun(db, schedule.id, period, now);
    if (!claim) continue;
    await sendRun(db, messenger, schedule, period, claim, now);
    done++;
  }
  return done;
}

/** The worker loop of scheduled report e-mails (pipeline/worker.ts installs it on every worker). */
export function reportScheduleLoop(db: Db, messenger: Messenger): WorkerLoop {
  let lastPass: number | null = null;
  return {
    name: 'report-schedules',
    async run(now) {
      const at = now.getTime();
      if (lastPass !== null && at >= lastPass && at - lastPass < EVERY_MS) return 0;
      lastPass = at;
      return sendDueReports(db, messenger, now);
    },
  };
}
