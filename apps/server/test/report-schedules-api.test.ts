import { type PerformanceReport, performanceColumns, performanceCsv, type ReportSchedule, reviewSitesOf, sortRows } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { reportSchedules } from '../src/db/schema/index.ts';
import { createMessenger } from '../src/messaging/send.ts';
import { claimRun } from '../src/report-schedules/claim.ts';
import { sendDueReports } from '../src/report-schedules/loop.ts';
import { lastCompletePeriod, lastSendAt } from '../src/report-schedules/period.ts';
import { sendRun, timingOf } from '../src/report-schedules/run.ts';
import { bearer, failingMessenger, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const PATH = '/api/report-schedules';
/** Monday 23 November 2026, 07:30 in Chicago (CST, UTC−6): a weekly Monday 07:00 schedule is due. */
const MONDAY = new Date('2026-11-23T13:30:00Z');

/**
 * Scheduled report e-mails (docs/decisions/069): 422s naming fields, the resource's routes, the
 * worker pass sending once per period with the Performance Report's CSV attached (equal to what
 * the report API answers, made by the screen's CSV code), a run finished after its process died,
 * Send now, a failed send shown, and the messages in Tracking Logs as type `report`.
 */
for (const kind of testDatabaseKinds()) {
  describe(`scheduled reports API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
      ctx.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
    const body = (over: Record<string, unknown> = {}) => ({
      report: 'performance',
      name: 'Weekly results',
      filters: { clients: [clientId], groupBy: 'location', channel: 'all' },
      recipients: ['Owner@example.com', 'manager@example.com', 'owner@example.com'],
      frequency: 'weekly',
      weekday: 'mon',
      hour: 7,
      timezone: 'America/Chicago',
      ...over,
    });
    const create = async (over: Record<string, unknown> = {}): Promise<ReportSchedule> => {
      const res = await send('POST', PATH, body(over));
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { data: ReportSchedule }).data;
    };
    /** Made a week ago, so this Monday's send is its first due one. */
    const backdate = (id: number) =>
      ctx.database.db.execute(
        sql`update report_schedules set created_at = ${new Date(MONDAY.getTime() - 7 * 86_400_000).toISOString()}::timestamptz where id = ${id}`,
      );
    const messagesOf = async (runId: number) =>
      rowsOf(
        await ctx.database.db.execute(sql`
          select n.id, n.recipient, n.status, n.type, n.related_id, a.filename, a.content_type, a.size_bytes, a.content
          from notification_logs n left join notification_attachments a on a.notification_id = n.id
          where n.related_type = 'report_schedule_run' and split_part(n.related_id, '.', 1) = ${String(runId)} order by n.id`),
      );
    const runsOf = async (scheduleId: number) =>
      rowsOf(
        await ctx.database.db.execute(
          sql`select id, period_start::text as period_start, period_end::text as period_end, status, attempt, error from report_schedule_runs where schedule_id = ${scheduleId} order by id`,
        ),
      );
    const pause = (id: number) => ctx.database.db.update(reportSchedules).set({ status: 'paused' }).where(sql`id = ${id}`);

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const [row] = rowsOf(await ctx.database.db.execute(sql`select current_client_id from users where email = 'admin@example.com'`));
      clientId = Number(row?.current_client_id);
    });
    afterAll(() => ctx.close());

    it('refuses bad input with 422s naming each field', async () => {
      const rules = await send('POST', PATH, body({ name: '', frequency: 'daily', hour: 30, timezone: 'Mars/Olympus' }));
      expect(rules.statusCode, rules.body).toBe(422);
      expect(Object.keys(rules.json().errors).sort()).toEqual(['frequency', 'hour', 'name', 'timezone']);

      const none = await send('POST', PATH, body({ recipients: [] }));
      expect(none.statusCode).toBe(422);
      expect(none.json().errors.recipients[0]).toContain('Recipients');
      const bad = await send('POST', PATH, body({ recipients: ['ok@example.com', 'not-an-address'] }));
      expect(bad.json().errors.recipients[0]).toMatch(/Recipients.*not-an-address/);
      const many = await send('POST', PATH, body({ recipients: Array.from({ length: 21 }, (_, i) => `p${i}@example.com`) }));
      expect(many.json().errors.recipients[0]).toContain('at most 20');
      const monthly = await send('POST', PATH, body({ frequency: 'monthly', day_of_month: null }));
      expect(monthly.json().errors).toHaveProperty('day_of_month');
      const day29 = await send('POST', PATH, body({ frequency: 'monthly', day_of_month: 29 }));
      expect(day29.json().errors).toHaveProperty('day_of_month');

      const other = await send('POST', PATH, body({ report: 'review_alerts' }));
      expect(other.statusCode).toBe(422);
      expect(other.json().errors.report[0]).toContain('only the Performance Report');

      // A location of another client than the chosen one, refused as the report API refuses it.
      const [foreign] = rowsOf(await ctx.database.db.execute(sql`select _id from locations where client_id <> ${clientId} limit 1`));
      const theirs = await send('POST', PATH, body({ filters: { clients: [clientId], locations: [String(foreign?._id)] } }));
      expect(theirs.statusCode, theirs.body).toBe(422);
      expect(theirs.json().errors['filters.locations'][0]).toContain('of no chosen client');
      const report = await send(
        'GET',
        `/api/reports/performance?clients=${clientId}&locations=${String(foreign?._id)}&from=2026-11-01&to=2026-11-07`,
      );
      expect(report.statusCode).toBe(422);
      const group = await send('POST', PATH, body({ filters: { groupBy: 'weekday' } }));
      expect(group.statusCode).toBe(422);
      expect(group.json().errors).toHaveProperty(['filters.groupBy']);
    });

    it('creates, lists with the schedule in words, edits, pauses, resumes and deletes', async () => {
      const made = await create({ name: 'CRUD schedule' });
      expect(made.recipients).toEqual(['owner@example.com', 'manager@example.com']);
      expect(made.client_id).toBe(clientId);
      expect(made.next_send_at).not.toBeNull();
      const list = (await send('GET', `${PATH}?q=CRUD`)).json() as { data: ReportSchedule[]; total: number };
      expect(list.data.map((s) => s.name)).toEqual(['CRUD schedule']);
      const edited = await send('PATCH', `${PATH}/${made.id}`, {
        frequency: 'monthly',
        day_of_month: '1',
        hour: '6',
        timezone: 'Europe/Paris',
        updated_at: made.updated_at,
      });
      expect(edited.statusCode, edited.body).toBe(200);
      const after = edited.json().data as ReportSchedule;
      expect([after.frequency, after.day_of_month, after.weekday, after.hour]).toEqual(['monthly', 1, null, 6]);
      const paused = await send('PATCH', `${PATH}/${made.id}/status`, { status: 'paused', updated_at: after.updated_at });
      expect(paused.statusCode, paused.body).toBe(200);
      expect(paused.json().data.next_send_at).toBeNull();
      const resumed = await send('PATCH', `${PATH}/${made.id}/status`, { status: 'active', updated_at: paused.json().data.updated_at });
      expect(resumed.json().data.status).toBe('active');
      const archived = await send('PATCH', `${PATH}/${made.id}/status`, { status: 'inactive', updated_at: resumed.json().data.updated_at });
      expect(archived.statusCode, archived.body).toBe(200);
      const refused = await send('POST', `${PATH}/${made.id}/send`, {});
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().message).toMatch(/archived/);
      expect((await send('DELETE', `${PATH}/${made.id}`)).statusCode).toBe(204);
      expect((await send('GET', `${PATH}/${made.id}`)).statusCode).toBe(404);
      expect((await send('DELETE', `${PATH}/${made.id}`)).statusCode).toBe(404);
    });

    it("sends once per period, each recipient the report API's rows as the screen's CSV, shown in Tracking Logs as Report", async () => {
      const s = await create({ name: 'Loop schedule' });
      await backdate(s.id);
      const before = MONDAY.getTime() - 60 * 60_000; // 06:30 Chicago: not yet
      expect(await sendDueReports(ctx.database.db, ctx.app.messenger, new Date(before))).toBe(0);
      expect(await sendDueReports(ctx.database.db, ctx.app.messenger, MONDAY)).toBe(1);
      expect(await sendDueReports(ctx.database.db, ctx.app.messenger, new Date(MONDAY.getTime() + 5 * 60_000))).toBe(0);
      const runs = await runsOf(s.id);
      expect(runs).toMatchObject([{ period_start: '2026-11-16', period_end: '2026-11-22', status: 'sent', attempt: 1 }]);
      await pause(s.id);

      const api = await send('GET', `/api/reports/performance?clients=${clientId}&from=2026-11-16&to=2026-11-22&groupBy=location`);
      expect(api.statusCode).toBe(200);
      const rows = (api.json() as { data: PerformanceReport }).data.rows;
      const columns = performanceColumns('location', reviewSitesOf(rows));
      const csv = `\uFEFF${performanceCsv(sortRows(rows, columns, { key: 'group', order: 'asc' }), columns)}`;

      const messages = await messagesOf(Number(runs[0]?.id));
      expect(messages.map((m) => m.recipient)).toEqual(['owner@example.com', 'manager@example.com']);
      for (const m of messages) {
        expect(m).toMatchObject({ type: 'report', status: 'sent', content_type: 'text/csv; charset=utf-8' });
        expect(m.filename).toBe('performance-report-2026-11-16-to-2026-11-22-by-location.csv');
        // PGlite's text decoder drops a leading byte-order mark when it reads; the size is of what was sent.
        expect(String(m.content).replace(/^\uFEFF/, '')).toBe(csv.slice(1));
        expect(Number(m.size_bytes)).toBe(Buffer.byteLength(csv));
      }
      expect(rows.length).toBeGreaterThan(0);

      const logs = await send('GET', `/api/notifications-logs?type=report&client=${clientId}`);
      expect(logs.statusCode, logs.body).toBe(200);
      const ids = (logs.json().data as { id: number; type: string }[]).filter((l) => l.type === 'report').map((l) => Number(l.id));
      for (const m of messages) expect(ids).toContain(Number(m.id));

      const detail = await send('GET', `/api/notifications-logs/${String(messages[0]?.id)}`);
      expect(detail.json().data.attachments).toEqual([
        {
          filename: 'performance-report-2026-11-16-to-2026-11-22-by-location.csv',
          content_type: 'text/csv; charset=utf-8',
          size_bytes: Buffer.byteLength(csv),
        },
      ]);

      const listed = (await send('GET', `${PATH}/${s.id}`)).json().data as ReportSchedule;
      expect(listed).toMatchObject({ last_status: 'sent', last_period: '2026-11-16 – 2026-11-22', last_error: null });
    });

    it('finishes a run whose process died mid-send: nobody twice but the message in hand-over, nobody lost', async () => {
      const s = await create({ name: 'Crash schedule', recipients: ['a@example.com', 'b@example.com', 'c@example.com'] });
      await backdate(s.id);
      const [row] = await ctx.database.db.select().from(reportSchedules).where(sql`id = ${s.id}`);
      if (!row) throw new Error('no schedule');
      const period = lastCompletePeriod(MONDAY, timingOf(row));
      const claim = await claimRun(ctx.database.db, s.id, period, MONDAY);
      if (!claim) throw new Error('not claimed');
      // A process whose hand-over of b's message never returns: it "dies" there.
      const dying = createMessenger(ctx.database.db, ctx.config.messaging, {
        now: () => MONDAY,
        email: {
          name: 'dies',
          send: (email) =>
            email.to === 'b@example.com' ? new Promise(() => {}) : Promise.resolve({ providerMessageId: null, detail: 'ok' }),
          close: () => undefined,
        },
      });
      void sendRun(ctx.database.db, dying, row, period, claim, MONDAY);
      for (let i = 0; i < 200 && (await messagesOf(claim.id)).length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect((await messagesOf(claim.id)).map((m) => [m.recipient, m.status])).toEqual([
        ['a@example.com', 'sent'],
        ['b@example.com', 'queued'],
      ]);
      // Another worker, before the claim is stale, leaves it; after, finishes it.
      expect(await sendDueReports(ctx.database.db, ctx.app.messenger, new Date(MONDAY.getTime() + 60_000))).toBe(0);
      expect(await sendDueReports(ctx.database.db, ctx.app.messenger, new Date(MONDAY.getTime() + 11 * 60_000))).toBe(1);
      await pause(s.id);
      const after = await messagesOf(claim.id);
      expect(after.map((m) => [m.recipient, m.status])).toEqual([
        ['a@example.com', 'sent'],
        ['b@example.com', 'failed'],
        ['b@example.com', 'sent'],
        ['c@example.com', 'sent'],
      ]);
      expect(await runsOf(s.id)).toMatchObject([{ status: 'sent', attempt: 1 }]);
    });

    it('Send now sends the last complete period once, again when forced; a failed send is shown with its error', async () => {
      const s = await create({ name: 'Send now schedule', recipients: ['now@example.com'] });
      const first = await send('POST', `${PATH}/${s.id}/send`, {});
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().data.run.status).toBe('sent');
      expect(first.json().data.schedule.last_status).toBe('sent');
      const again = await send('POST', `${PATH}/${s.id}/send`, {});
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toContain('already sent');
      const forced = await send('POST', `${PATH}/${s.id}/send`, { force: true });
      expect(forced.statusCode, forced.body).toBe(200);
      expect(await runsOf(s.id)).toMatchObject([{ status: 'sent', attempt: 2 }]);
      expect(await messagesOf(Number(forced.json().data.run.id))).toHaveLength(2);

      const broken = await create({ name: 'Broken schedule', recipients: ['x@example.com'] });
      await pause(s.id);
      const [row] = await ctx.database.db.select().from(reportSchedules).where(sql`id = ${broken.id}`);
      if (!row) throw new Error('no schedule');
      // The worker's pass at the latest send time (before today's Send now), made failing.
      const due = lastSendAt(new Date(), timingOf(row));
      const period = lastCompletePeriod(new Date(), timingOf(row));
      await ctx.database.db.execute(
        sql`update report_schedules set created_at = ${new Date(due.getTime() - 86_400_000).toISOString()}::timestamptz where id = ${broken.id}`,
      );
      await sendDueReports(
        ctx.database.db,
        failingMessenger(ctx.database.db, () => due),
        new Date(due.getTime() + 60_000),
      );
      const shown = (await send('GET', `${PATH}/${broken.id}`)).json().data as ReportSchedule;
      expect(shown.last_status).toBe('failed');
      expect(shown.last_error).toContain('421 4.3.0 Temporary failure');
      // Send now (the same period: still the last complete one) retries the failed recipients.
      const retried = await send('POST', `${PATH}/${broken.id}/send`, {});
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retried.json().data.run).toMatchObject({ status: 'sent', period: `${period.start} – ${period.end}` });
      expect((await messagesOf(Number(retried.json().data.run.id))).map((m) => m.status)).toEqual(['failed', 'sent']);
      await pause(broken.id);
    });

    it("refuses another client's schedule and unknown ids", async () => {
      const s = await create({ name: 'Mine' });
      const [other] = rowsOf(await ctx.database.db.execute(sql`select id from clients where id <> ${clientId} order by id limit 1`));
      await ctx.database.db.execute(sql`update report_schedules set client_id = ${Number(other?.id)} where id = ${s.id}`);
      expect((await send('POST', `${PATH}/${s.id}/send`, {})).statusCode).toBe(404);
      expect((await send('DELETE', `${PATH}/${s.id}`)).statusCode).toBe(404);
      expect((await send('POST', `${PATH}/99999999/send`, {})).statusCode).toBe(404);
      expect((await send('POST', `${PATH}/abc/send`, {})).statusCode).toBeLessThan(500);
    });
  });
}
