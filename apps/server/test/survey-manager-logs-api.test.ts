import { randomBytes } from 'node:crypto';
import { parseCsv } from '@admin/shared';
import type { FeedRun, FeedRunDetail, SurveyChange } from '@admin/shared/resources/survey-manager-logs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFeedRowErrors, dataFeedRuns, dataFeeds, surveyProcessingItems } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const BODY = 'Hi {first_name}, how was {location_name}? {survey_link}\nUnsubscribe: {unsubscribe_link}';
const QUESTIONS = [
  { id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', required: true, is_key_metric: true },
  { id: 2, type: 'text', text: 'Why?' },
];

for (const kind of testDatabaseKinds()) {
  describe(`Survey Manager Logs API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let userId: number;
    let locationIds: string[];
    const tag = randomBytes(4).toString('hex');
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH', url: string, payload?: object) =>
      ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const changesOf = async (surveyId: number) => {
      const res = await get(`/api/survey-manager-logs/changes?survey=${surveyId}&order=asc`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as SurveyChange[];
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      userId = (await get('/api/user')).json().data.user.id;
      locationIds = (await get('/api/endpoints?perPage=1')).json().data.map((l: { _id: string }) => l._id);
    });
    afterAll(() => ctx.close());

    it('logs each survey change with who made it and a diff, questions one by one', async () => {
      const created = await send('POST', '/api/surveys', {
        name: `Logged ${tag}`,
        type: 'nps',
        channel: 'email',
        location_ids: locationIds,
        questions: QUESTIONS,
        email_subject: 'How was {location_name}?',
        email_body: BODY,
        sender_name: 'Acme',
      });
      expect(created.statusCode, created.body).toBe(201);
      const survey = created.json().data;
      const edited = await send('PATCH', `/api/surveys/${survey.id}`, {
        name: `Logged ${tag} v2`,
        send_delay_hours: 48,
        questions: [
          { ...QUESTIONS[0], text: 'Would you recommend us?' },
          { id: 3, type: 'text', text: 'Anything else?' },
        ],
        updated_at: survey.updated_at,
      });
      expect(edited.statusCode, edited.body).toBe(200);
      for (const status of ['paused', 'active', 'inactive', 'active']) {
        const current = (await get(`/api/surveys/${survey.id}`)).json().data;
        const res = await send('PATCH', `/api/surveys/${survey.id}/status`, { status, updated_at: current.updated_at });
        expect(res.statusCode, res.body).toBe(200);
      }
      const copy = await send('POST', `/api/surveys/${survey.id}/duplicate`);
      expect(copy.statusCode, copy.body).toBe(201);

      const changes = await changesOf(survey.id);
      expect(changes.map((c) => c.action)).toEqual([
        'created',
        'updated',
        'question_changed',
        'question_added',
        'question_removed',
        'paused',
        'resumed',
        'archived',
        'restored',
      ]);
      expect(changes.every((c) => c.user_id === userId && c.survey_name === `Logged ${tag} v2`)).toBe(true);
      expect(changes[0]?.diff.name).toEqual({ before: null, after: `Logged ${tag}` });
      expect(changes[1]?.diff).toEqual({
        name: { before: `Logged ${tag}`, after: `Logged ${tag} v2` },
        send_delay_hours: { before: 24, after: 48 },
      });
      expect(changes[2]?.diff['question 1']?.after).toMatchObject({ text: 'Would you recommend us?' });
      expect(changes[4]?.diff['question 2']).toMatchObject({ before: { text: 'Why?' }, after: null });
      expect(changes[7]?.diff).toEqual({ status: { before: 'active', after: 'inactive' } });
      const duplicated = await changesOf(copy.json().data.id);
      expect(duplicated.map((c) => c.action)).toEqual(['duplicated']);

      // Filters: action, user, search by survey name; the CSV shows the diff in words.
      const updates = (await get(`/api/survey-manager-logs/changes?survey=${survey.id}&action=updated&user=${userId}`)).json();
      expect(updates.data).toHaveLength(1);
      expect((await get(`/api/survey-manager-logs/changes?q=${tag}%20v2`)).json().data.length).toBeGreaterThanOrEqual(9);
      const csv = await get(`/api/survey-manager-logs/changes/export?survey=${survey.id}&action=updated`);
      expect(parseCsv(csv.body)[1]).toContain(`Name: Logged ${tag} → Logged ${tag} v2; Send delay (hours): 24 → 48`);
    });

    it('lists a feed’s runs with their errors and downloads the rejected rows as CSV', async () => {
      const surveyId = (await get(`/api/surveys?q=Logged%20${tag}`)).json().data[0].id as number;
      const clientId = (await get('/api/user')).json().data.user.current_client_id as number;
      const db = ctx.database.db;
      const [feed] = await db
        .insert(dataFeeds)
        .values({
          clientId,
          name: `Feed ${tag}`,
          sourceType: 'csv_upload',
          triggerEvent: 'invoice_paid',
          surveyId,
          fieldMapping: { first_name: 'Name', email: 'Email', transaction_date: 'Date' },
        })
        .returning();
      if (!feed) throw new Error('no feed');
      const started = new Date('2026-11-20T10:00:00Z');
      const [run] = await db
        .insert(dataFeedRuns)
        .values({
          dataFeedId: feed.id,
          clientId,
          source: 'csv_upload',
          sourceName: `invoices-${tag}.csv`,
          startedAt: started,
          finishedAt: new Date(started.getTime() + 42_000),
          rowsRead: 5,
          rowsAccepted: 3,
          rowsSkipped: { skipped_duplicate: 1 },
          rowsInvalid: 2,
          scheduled: 2,
          status: 'partial',
          startedBy: userId,
        })
        .returning();
      if (!run) throw new Error('no run');
      await db.insert(dataFeedRowErrors).values([
        {
          runId: run.id,
          rowNumber: 4,
          column: 'Email',
          message: 'The Email field must be a valid email',
          raw: { Name: 'Al', Email: 'al@', Notes: 'VIP' },
        },
        { runId: run.id, rowNumber: 2, column: 'Date', message: 'The Date must be yyyy-MM-dd', raw: { Name: '=cmd', Date: '13/45' } },
      ]);
      // Three invitations of the run, two of them sent (data_feed_runs.sent is never written).
      await db.insert(surveyProcessingItems).values(
        [new Date('2026-11-21T15:00:00Z'), new Date('2026-11-21T15:05:00Z'), null].map((sentAt) => ({
          clientId,
          surveyId,
          dataFeedId: feed.id,
          runId: run.id,
          firstName: 'Dana',
          email: 'dana@example.com',
          channel: 'email' as const,
          status: sentAt ? ('sent' as const) : ('scheduled' as const),
          sentAt,
          token: randomBytes(32).toString('base64url'),
          expiresAt: new Date('2026-12-21T15:00:00Z'),
          source: 'csv_upload' as const,
        })),
      );

      const list = await get(
        `/api/survey-manager-logs/runs?feed=${feed.id}&status=partial,failed&user=${userId}&startDate=2026-11-20&endDate=2026-11-20`,
      );
      expect(list.statusCode, list.body).toBe(200);
      const [row] = list.json().data as FeedRun[];
      expect(row).toMatchObject({
        id: run.id,
        feed_name: `Feed ${tag}`,
        duration_s: 42,
        errors: 2,
        sent: 2,
        run_status: 'partial',
        survey_id: surveyId,
      });
      expect((await get(`/api/survey-manager-logs/runs?feed=${feed.id}&status=succeeded`)).json().data).toEqual([]);
      const detail = (await get(`/api/survey-manager-logs/runs/${run.id}`)).json().data as FeedRunDetail;
      expect(detail.row_errors.map((e) => e.row_number)).toEqual([2, 4]);
      expect(detail.sent).toBe(2);
      const options = (await get(`/api/survey-manager-logs/runs/options/feed?q=${tag}`)).json();
      expect(options.data).toEqual([{ value: String(feed.id), label: `Feed ${tag}` }]);

      const csv = await get(`/api/survey-manager-logs/runs/${run.id}/rejected`);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toContain('text/csv');
      expect(parseCsv(csv.body)).toEqual([
        // The feed's mapped columns in the template's field order, then the others by name; then
        // the row's line in its file and its errors (test/rejected-rows-api.test.ts has more).
        ['Name', 'Email', 'Date', 'Notes', 'Line', 'Errors'],
        ["'=cmd", '', '13/45', '', '2', 'Date: The Date must be yyyy-MM-dd'],
        ['Al', 'al@', '', 'VIP', '4', 'Email: The Email field must be a valid email'],
      ]);
      expect((await get('/api/survey-manager-logs/runs/999999/rejected')).statusCode).toBe(404);
      const runsCsv = await get(`/api/survey-manager-logs/runs/export?feed=${feed.id}&columns=id,rows_skipped,status`);
      expect(parseCsv(runsCsv.body)[1]).toEqual([String(run.id), 'Skipped: duplicate 1', 'Partial']);

      // Re-run failed rows: a new run over the refused rows as received, naming this one.
      const rerun = await send('POST', `/api/survey-manager-logs/runs/${run.id}/rerun`);
      expect(rerun.statusCode, rerun.body).toBe(202);
      expect(rerun.json().data).toMatchObject({
        rerun_of: run.id,
        rows_read: 2,
        source: 'rerun',
        data_feed_id: feed.id,
        run_status: 'running',
      });
      expect(rerun.json().data.source_name).toContain(`Re-run of run ${run.id}`);
      // The workers admit it: the same two rows, refused again for the same reasons.
      await ctx.app.jobs.runDue();
      const rerunDone = (await get(`/api/survey-manager-logs/runs/${rerun.json().data.id}`)).json().data as FeedRunDetail;
      expect(rerunDone).toMatchObject({ run_status: 'failed', rows_done: 2, rows_invalid: 2 });
      expect([...new Set(rerunDone.row_errors.map((e) => e.row_number))]).toEqual([2, 4]);
      // Re-run once: a second click names the re-run, whose own failed rows are re-run from it.
      const again = await send('POST', `/api/survey-manager-logs/runs/${run.id}/rerun`);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toContain(`already re-run as run ${rerunDone.id}`);
      // Ten clicks at once (on PostgreSQL truly in parallel): one re-run.
      const clicks = await Promise.all(
        Array.from({ length: 10 }, () => send('POST', `/api/survey-manager-logs/runs/${rerunDone.id}/rerun`)),
      );
      expect(clicks.map((c) => c.statusCode).sort()).toEqual([202, ...Array(9).fill(409)]);
      // A run still running has no final list of refused rows yet.
      const running = clicks.find((c) => c.statusCode === 202)?.json().data as FeedRunDetail;
      const early = await send('POST', `/api/survey-manager-logs/runs/${running.id}/rerun`);
      expect(early.statusCode).toBe(409);
      expect(early.json().message).toContain('still running');
      await ctx.app.jobs.runDue();
      await db.delete(dataFeedRowErrors).where(eq(dataFeedRowErrors.runId, running.id));
      const nothing = await send('POST', `/api/survey-manager-logs/runs/${running.id}/rerun`);
      expect(nothing.statusCode).toBe(409);
      expect(nothing.json().message).toContain('refused no rows');
      expect((await send('POST', '/api/survey-manager-logs/runs/999999/rerun')).statusCode).toBe(404);
    });
  });
}
