import { randomBytes } from 'node:crypto';
import { parseCsv } from '@admin/shared';
import type { SurveyResponse } from '@admin/shared/resources/survey-responses';
import type { Survey } from '@admin/shared/resources/surveys';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { surveyProcessingItems, surveyResponses, surveys } from '../src/db/schema/index.ts';
import { score30d } from '../src/kit/counted-responses.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const DAY_MS = 86_400_000;
const BODY = 'Hi {first_name}: {survey_link}\nUnsubscribe: {unsubscribe_link}';
const keyQuestion = (type: 'nps_0_10' | 'rating_1_5') => [{ id: 1, type, text: 'Your score?', required: true, is_key_metric: true }];

/**
 * Issue 19 items 3 and 5: Surveys' "NPS or avg 30d" is computed from the last 30 days' counted
 * responses, and an answer to a Send test is marked as a test and left out of every figure.
 */
for (const kind of testDatabaseKinds()) {
  describe(`Survey figures: the 30-day score and test responses (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let locationId: string;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const post = (url: string, payload: Record<string, unknown>) => ctx.app.inject({ method: 'POST', url, headers, payload });

    async function newSurvey(name: string, type: 'nps' | 'csat'): Promise<Survey> {
      const res = await post('/api/surveys', {
        name,
        type,
        channel: 'email',
        location_ids: [locationId],
        questions: keyQuestion(type === 'nps' ? 'nps_0_10' : 'rating_1_5'),
        email_subject: 'How was it?',
        email_body: BODY,
        sender_name: 'Acme',
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data;
    }

    /** A real invitation (as a feed row makes it) answered with `score`, `daysAgo` days ago. */
    async function answered(survey: Survey, score: number, daysAgo = 1): Promise<number> {
      const token = randomBytes(32).toString('base64url');
      const [item] = await ctx.database.db
        .insert(surveyProcessingItems)
        .values({
          clientId: survey.client_id,
          locationId,
          surveyId: survey.id,
          firstName: 'Pat',
          email: 'pat@example.com',
          channel: 'email',
          status: 'sent',
          sentAt: new Date(),
          token,
          expiresAt: new Date(Date.now() + DAY_MS),
          source: 'api',
        })
        .returning({ id: surveyProcessingItems.id });
      if (!item) throw new Error('no item');
      const res = await ctx.app.inject({ method: 'POST', url: `/api/public/responses/${token}`, payload: { answers: { '1': score } } });
      expect(res.statusCode, res.body).toBe(201);
      const id: number = res.json().data.id;
      if (daysAgo > 1)
        await ctx.database.db
          .update(surveyResponses)
          .set({ submittedAt: new Date(Date.now() - daysAgo * DAY_MS) })
          .where(eq(surveyResponses.id, id));
      return id;
    }

    const listed = async (survey: Survey): Promise<Survey> => {
      const res = await get(`/api/surveys?q=${encodeURIComponent(survey.name)}`);
      expect(res.statusCode, res.body).toBe(200);
      const found = (res.json().data as Survey[]).find((s) => s.id === survey.id);
      if (!found) throw new Error(`${survey.name} is not listed`);
      return found;
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const [location] = (await get('/api/endpoints?perPage=1')).json().data as { _id: string }[];
      if (!location) throw new Error('no location');
      locationId = location._id;
    });
    afterAll(() => ctx.close());

    it('shows NPS (promoters − detractors) of the last 30 days on the list, the record and the CSV', async () => {
      const survey = await newSurvey('Figures NPS', 'nps');
      expect((await listed(survey)).score_30d).toBeNull();
      // 3 promoters, 1 passive, 2 detractors: (3 − 2) / 6 = 17%.
      for (const score of [10, 9, 9, 8, 3, 6]) await answered(survey, score);
      // Left out: older than 30 days, and one excluded from reports.
      await answered(survey, 0, 31);
      const excluded = await answered(survey, 0);
      await ctx.database.db.update(surveyResponses).set({ excluded: true }).where(eq(surveyResponses.id, excluded));

      expect((await listed(survey)).score_30d).toBe(17);
      expect((await get(`/api/surveys/${survey.id}`)).json().data.score_30d).toBe(17);
      const csv = await get(`/api/surveys/export?q=${encodeURIComponent(survey.name)}`);
      expect(csv.statusCode).toBe(200);
      const [head, row] = parseCsv(csv.body);
      expect(row?.[head?.indexOf('NPS or avg 30d') ?? -1]).toBe('17');
    });

    it('shows the average key score, to one decimal, for a CSAT survey', async () => {
      const survey = await newSurvey('Figures CSAT', 'csat');
      for (const score of [5, 4, 4]) await answered(survey, score);
      expect((await listed(survey)).score_30d).toBe(4.3);
    });

    it('marks an answer to a Send test as a test, lists it so, and counts it in no figure', async () => {
      const survey = await newSurvey('Figures test send', 'nps');
      await answered(survey, 10);
      const before = await listed(survey);
      expect(before).toMatchObject({ score_30d: 100, sent_30d: 1, responded_30d: 1 });

      const sent = await post(`/api/surveys/${survey.id}/send-test`, { to: 'staff@example.com' });
      expect(sent.statusCode, sent.body).toBe(201);
      const token = String(sent.json().data.link).split('/s/')[1];
      const answer = await ctx.app.inject({ method: 'POST', url: `/api/public/responses/${token}`, payload: { answers: { '1': 0 } } });
      expect(answer.statusCode, answer.body).toBe(201);
      const responseId: number = answer.json().data.id;

      // Survey Manager lists it, marked, and its filter tells tests from real responses.
      const all = (await get(`/api/survey-responses?survey=${survey.id}`)).json().data as SurveyResponse[];
      expect(all.map((r) => [r.key_score, r.test])).toEqual([
        [0, true],
        [10, false],
      ]);
      expect((await get(`/api/survey-responses/${responseId}`)).json().data.test).toBe(true);
      const real = (await get(`/api/survey-responses?survey=${survey.id}&test=no`)).json().data as SurveyResponse[];
      expect(real.map((r) => r.key_score)).toEqual([10]);
      const tests = (await get(`/api/survey-responses?survey=${survey.id}&test=yes`)).json().data as SurveyResponse[];
      expect(tests.map((r) => r.id)).toEqual([responseId]);
      const csv = parseCsv((await get(`/api/survey-responses/export?survey=${survey.id}`)).body);
      const customerColumn = csv[0]?.indexOf('Customer') ?? -1;
      expect(csv.slice(1).map((r) => r[customerColumn])).toEqual(['Test response · Alex', 'Pat']);

      // Survey Processing's CSV names the invitation a test send (the screen shows a badge).
      const items = parseCsv((await get(`/api/survey-processing/export?survey=${survey.id}`)).body);
      const customer = items[0]?.indexOf('Customer') ?? -1;
      expect(items.slice(1).map((r) => r[customer]?.startsWith('Test send · '))).toEqual([true, false]);

      // The survey's figures are what they were: the test's 0 would have made NPS 0.
      expect(await listed(survey)).toMatchObject({ score_30d: 100, sent_30d: 1, responded_30d: 1 });
    });

    it('reads one survey’s 30-day window through its index, not every response', async () => {
      const ids = (await ctx.database.db.select({ id: surveys.id }).from(surveys).limit(3)).map((s) => s.id);
      const query = ctx.database.db
        .select({ score: score30d(sql`${surveys.id}`, sql`${surveys.type}`) })
        .from(surveys)
        .where(inArray(surveys.id, ids));
      // Without sequential scans the plan must take the (survey_id, submitted_at) index: the
      // aggregate can be answered from each survey's window alone.
      const plan = await ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        return tx.execute(sql`explain ${query}`);
      });
      const text = JSON.stringify(plan);
      expect(text).toContain('survey_responses_survey_submitted_idx');
    });
  });
}
