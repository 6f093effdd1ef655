import { randomBytes } from 'node:crypto';
import { parseCsv } from '@admin/shared';
import type { SurveyResponse, SurveyResponseDetail } from '@admin/shared/resources/survey-responses';
import type { SurveyQuestion } from '@admin/shared/surveys/questions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, locations, surveyProcessingItems, surveys } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const QUESTIONS: SurveyQuestion[] = [
  { id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', options: [], required: true, is_key_metric: true },
  { id: 2, type: 'text', text: 'Why?', options: [], required: false, is_key_metric: false },
];

type Page = { data: SurveyResponse[]; total: number; nextCursor: string | null };

for (const kind of testDatabaseKinds()) {
  describe(`Survey Manager API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let surveyId: number;
    const page = async (query: string) => {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/survey-responses${query}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Page;
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const db = ctx.database.db;
      const [client] = await db.select({ id: clients.id }).from(clients).orderBy(clients.id).limit(1);
      const clientId = client?.id ?? 0;
      const [location] = await db.select({ id: locations.id }).from(locations).where(eq(locations.clientId, clientId)).limit(1);
      const [survey] = await db
        .insert(surveys)
        .values({
          clientId,
          name: 'Manager test survey',
          type: 'nps',
          language: 'en',
          channel: 'email',
          questions: QUESTIONS,
          senderName: 'Acme',
        })
        .returning({ id: surveys.id });
      surveyId = survey?.id ?? 0;
      // Three respondents answer through the public API: 10 with a comment, 7, 2 with a comment.
      for (const [name, answers] of [
        ['Ann', { '1': 10, '2': 'Superb' }],
        ['Bob', { '1': 7 }],
        ['Cy', { '1': 2, '2': 'Slow service' }],
      ] as const) {
        const token = randomBytes(32).toString('base64url');
        await db.insert(surveyProcessingItems).values({
          clientId,
          locationId: location?.id ?? null,
          surveyId,
          firstName: name,
          lastName: 'Tester',
          email: `${name.toLowerCase()}@example.com`,
          channel: 'email',
          status: 'sent',
          token,
          expiresAt: new Date(Date.now() + 86_400_000),
          source: 'manual_test',
        });
        const res = await ctx.app.inject({ method: 'POST', url: `/api/public/responses/${token}`, payload: { answers } });
        expect(res.statusCode, res.body).toBe(201);
      }
    });
    afterAll(async () => ctx?.close());

    it('lists responses newest first with names, scores and classes', async () => {
      const p = await page(`?survey=${surveyId}`);
      expect(p.total).toBe(3);
      expect(p.data.map((r) => r.customer)).toEqual(['Cy Tester', 'Bob Tester', 'Ann Tester']);
      expect(p.data[0]).toMatchObject({
        key_score: 2,
        nps_class: 'detractor',
        comment: 'Slow service',
        survey_name: 'Manager test survey',
      });
    });

    it('filters by score range, class, comment and search', async () => {
      expect((await page(`?survey=${surveyId}&score_min=7&score_max=9`)).data.map((r) => r.key_score)).toEqual([7]);
      expect((await page(`?survey=${surveyId}&class=promoter,detractor`)).total).toBe(2);
      expect((await page(`?survey=${surveyId}&has_comment=yes`)).total).toBe(2);
      expect((await page(`?survey=${surveyId}&q=superb`)).data.map((r) => r.customer)).toEqual(['Ann Tester']);
      const bad = await ctx.app.inject({ method: 'GET', url: '/api/survey-responses?score_min=11', headers });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('score_min');
    });

    it('shows the full answers and excludes / includes with a required reason', async () => {
      const [ann] = (await page(`?survey=${surveyId}&q=superb`)).data;
      const detail = await ctx.app.inject({ method: 'GET', url: `/api/survey-responses/${ann?.id}`, headers });
      expect((detail.json().data as SurveyResponseDetail).answers).toEqual([
        { question_id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', is_key_metric: true, value: 10 },
        { question_id: 2, type: 'text', text: 'Why?', is_key_metric: false, value: 'Superb' },
      ]);
      const url = `/api/survey-responses/${ann?.id}/exclusion`;
      const noReason = await ctx.app.inject({ method: 'POST', url, headers, payload: { excluded: true, reason: ' ' } });
      expect(noReason.statusCode).toBe(400);
      expect(noReason.body).toContain('reason');
      const ok = await ctx.app.inject({ method: 'POST', url, headers, payload: { excluded: true, reason: 'Staff test' } });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data).toMatchObject({ excluded: true, excluded_reason: 'Staff test' });
      expect((await page(`?survey=${surveyId}&excluded=yes`)).total).toBe(1);
      await ctx.app.inject({ method: 'POST', url, headers, payload: { excluded: false, reason: 'A real customer after all' } });
      expect((await page(`?survey=${surveyId}&excluded=yes`)).total).toBe(0);
      expect((await ctx.app.inject({ method: 'GET', url: '/api/survey-responses/999999', headers })).statusCode).toBe(404);
    });

    it('exports CSV with the definition headers and offers survey options', async () => {
      const csv = await ctx.app.inject({ method: 'GET', url: `/api/survey-responses/export?survey=${surveyId}`, headers });
      expect(csv.statusCode).toBe(200);
      const rows = parseCsv(csv.body);
      expect(rows[0]).toContain('Key score');
      expect(rows).toHaveLength(4);
      const opts = await ctx.app.inject({ method: 'GET', url: '/api/survey-responses/options/survey?q=manager', headers });
      expect(opts.json().data).toEqual([{ value: String(surveyId), label: 'Manager test survey' }]);
      expect((await ctx.app.inject({ method: 'GET', url: '/api/survey-responses' })).statusCode).toBe(401);
    });
  });
}
