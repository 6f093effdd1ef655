import { PERFORMANCE_CHANNEL_LABELS, PERFORMANCE_GROUP_BY_LABELS, scheduleText } from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { reportScheduleRuns, reportSchedules } from '../db/schema/index.ts';
import { describeError } from '../messaging/log-row.ts';
import type { Messenger } from '../messaging/send.ts';
import type { ClaimedRun } from './claim.ts';
import type { Period } from './period.ts';
import { performanceFile, type ReportFile } from './report.ts';

export type ScheduleRow = typeof reportSchedules.$inferSelect;
/** How a run ended: `sent` when every recipient's message went out, else `failed` with why. */
export type RunOutcome = { runId: number; status: 'sent' | 'failed'; error: string | null; notificationIds: number[] };

/** What a schedule's messages are related to in Tracking Logs: the run and its attempt. */
export const RUN_RELATED_TYPE = 'report_schedule_run';
const INTERRUPTED = 'Interrupted: the process stopped while handing this message over; it was sent again';

export const timingOf = (s: ScheduleRow) => ({
  frequency: s.frequency === 'monthly' ? ('monthly' as const) : ('weekly' as const),
  weekday: s.weekday,
  dayOfMonth: s.dayOfMonth,
  hour: s.hour,
  timezone: s.timezone,
});

function messageText(s: ScheduleRow, period: Period, file: ReportFile): string {
  const groupBy = PERFORMANCE_GROUP_BY_LABELS[file.query.groupBy];
  const channel = PERFORMANCE_CHANNEL_LABELS[file.query.channel];
  return [
    `Performance Report: ${s.name}`,
    `Period: ${period.start} – ${period.end} (${s.timezone})`,
    `Grouped by ${groupBy} · ${channel}`,
    `${file.rows} ${file.rows === 1 ? 'row' : 'rows'} in the attached ${file.filename}.`,
    '',
    `Sent ${scheduleText({ frequency: timingOf(s).frequency, weekday: s.weekday, day_of_month: s.dayOfMonth, hour: s.hour, timezone: s.timezone })}. To change or stop it, open Scheduled reports in the admin console.`,
  ].join('\n');
}

/** Messages this attempt already wrote, by recipient (lower case): the latest of each. */
async function earlierMessages(db: Db, related: string): Promise<Map<string, { id: number; status: string }>> {
  const rows = rowsOf(
    await db.execute(sql`
      select id, lower(recipient) as recipient, status from notification_logs
      where related_type = ${RUN_RELATED_TYPE} and related_id = ${related} order by id`),
  );
  return new Map(rows.map((r) => [String(r.recipient), { id: Number(r.id), status: String(r.status) }]));
}

/** A message left `queued` by a process that died during its hand-over: closed as failed, with why. */
async function closeInterrupted(db: Db, id: number, now: Date): Promise<void> {
  const at = now.toISOString();
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`update notification_logs set status = 'failed', error = ${INTERRUPTED}, updated_at = ${at}::timestamptz where id = ${id}`,
    );
    await tx.execute(
      sql`insert into notification_events (notification_id, status, at, detail) values (${id}, 'failed', ${at}::timestamptz, ${INTERRUPTED})`,
    );
  });
}

async function finish(db: Db, s: ScheduleRow, claim: ClaimedRun, period: Period, now: Date, outcome: Omit<RunOutcome, 'runId'>) {
  await db.transaction(async (tx) => {
    await tx
      .update(reportScheduleRuns)
      .set({ status: outcome.status, error: outcome.error, finishedAt: now, notificationIds: outcome.notificationIds })
      .where(eq(reportScheduleRuns.id, claim.id));
    await tx
      .update(reportSchedules)
      .set({
        lastSentAt: now,
        lastStatus: outcome.status,
        lastPeriodStart: period.start,
        lastPeriodEnd: period.end,
        lastError: outcome.error,
      })
      .where(eq(reportSchedules.id, s.id));
  });
  return { runId: claim.id, ...outcome };
}

/**
 * Sends a claimed run: the report for the period (the report API's own function, report.ts), then
 * one e-mail per recipient with the CSV attached, through the messenger (type `report`). A
 * recipient this attempt already answered is skipped, so a run taken over after a crash finishes
 * without doubling; a message the dead process left `queued` is closed as interrupted and sent
 * again (docs/decisions/069). Any failure makes the run `failed` with its reason.
 */
export async function sendRun(db: Db, messenger: Messenger, s: ScheduleRow, period: Period, claim: ClaimedRun, now: Date) {
  const filters = s.filters;
  let file: ReportFile;
  try {
    file = await performanceFile(db, filters, period);
  } catch (err) {
    return finish(db, s, claim, period, now, {
      status: 'failed',
      error: `The report could not be made: ${describeError(err)}`,
      notificationIds: [],
    });
  }
  const related = `${claim.id}.${claim.attempt}`;
  const earlier = await earlierMessages(db, related);
  const ids: number[] = [];
  const failures: string[] = [];
  for (const to of s.recipients) {
    const prior = earlier.get(to.toLowerCase());
    if (prior && prior.status !== 'queued' && prior.status !== 'failed') {
      ids.push(prior.id);
      if (prior.status === 'suppressed') failures.push(`${to}: not sent (suppressed or opted out)`);
      continue;
    }
    if (prior?.status === 'queued') await closeInterrupted(db, prior.id, now);
    const result = await messenger.send({
      channel: 'email',
      type: 'report',
      to,
      clientId: s.clientId,
      related: { type: RUN_RELATED_TYPE, id: related },
      subject: `${s.name}: Performance Report ${period.start} – ${period.end}`,
      text: messageText(s, period, file),
      attachments: [{ filename: file.filename, contentType: 'text/csv; charset=utf-8', content: file.content }],
    });
    ids.push(result.id);
    if (result.status !== 'sent') failures.push(`${to}: ${result.error ?? result.status}`);
  }
  return finish(db, s, claim, period, now, {
    status: failures.length > 0 ? 'failed' : 'sent',
    error: failures.length > 0 ? failures.join('; ') : null,
    notificationIds: ids,
  });
}
