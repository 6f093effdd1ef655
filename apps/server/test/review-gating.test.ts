import { randomBytes } from 'node:crypto';
import type { SurveyQuestion } from '@admin/shared/surveys/questions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, locations, surveyProcessingItems, surveys } from '../src/db/schema/index.ts';
import { startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const QUESTIONS: SurveyQuestion[] = [
  { id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', options: [], required: true, is_key_metric: true },
];
/** The offered site's button (its href is the recorded `/r/{token}` link, apps/server/test/amplification-links.test.ts). */
const REVIEW_LINK = 'Review us on Google';

/**
 * Issue 19 item 4: the builder's hint says who the thank-you page offers review sites to, so the
 * page must do what the chosen mode says — every respondent by default, and in threshold mode only
 * respondents at or above the threshold (review gating, warned against in the builder).
 */
for (const kind of testDatabaseKinds()) {
  describe(`Review sites on the thank-you page follow the survey’s mode (${kind})`, () => {
    let ctx: TestContext;
    let clientId: number;
    let locationId: string;

    async function surveyIn(mode: 'all_respondents' | 'threshold'): Promise<number> {
      const [survey] = await ctx.database.db
        .insert(surveys)
        .values({
          clientId,
          name: `Gating ${mode}`,
          type: 'nps',
          language: 'en',
          channel: 'email',
          questions: QUESTIONS,
          senderName: 'Acme',
          reviewInviteMode: mode,
          reviewInviteThreshold: mode === 'threshold' ? 9 : null,
          reviewSites: ['google'],
        })
        .returning({ id: surveys.id });
      if (!survey) throw new Error('no survey');
      return survey.id;
    }

    /** Answers a fresh invitation of the survey with `score` on the form; the page, then the page reopened. */
    async function answer(surveyId: number, score: number): Promise<[string, string]> {
      const token = randomBytes(32).toString('base64url');
      await ctx.database.db.insert(surveyProcessingItems).values({
        clientId,
        locationId,
        surveyId,
        firstName: 'Jo',
        email: 'jo@example.com',
        channel: 'email',
        status: 'sent',
        token,
        expiresAt: new Date(Date.now() + 86_400_000),
        source: 'api',
      });
      const html = { accept: 'text/html' };
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/s/${token}`,
        payload: new URLSearchParams([['q1', String(score)]]).toString(),
        headers: { ...html, 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const again = await ctx.app.inject({ method: 'GET', url: `/s/${token}`, headers: html });
      return [res.body, again.body];
    }

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      const db = ctx.database.db;
      const [client] = await db.select({ id: clients.id }).from(clients).orderBy(clients.id).limit(1);
      clientId = client?.id ?? 0;
      const [location] = await db.select({ id: locations.id }).from(locations).where(eq(locations.clientId, clientId)).limit(1);
      locationId = location?.id ?? '';
      await db
        .update(locations)
        .set({ reviewLinks: { google: 'https://g.page/r/gating/review' } })
        .where(eq(locations.id, locationId));
    });
    afterAll(async () => ctx?.close());

    it('offers the review sites to every respondent, a detractor too, by default', async () => {
      const survey = await surveyIn('all_respondents');
      for (const page of await answer(survey, 2)) expect(page).toContain(REVIEW_LINK);
    });

    it('in threshold mode offers them only at or above the threshold, also when the link is opened again', async () => {
      const survey = await surveyIn('threshold');
      for (const page of await answer(survey, 9)) expect(page).toContain(REVIEW_LINK);
      for (const page of await answer(survey, 8)) {
        expect(page).toContain('Thank you');
        expect(page).not.toContain(REVIEW_LINK);
      }
    });
  });
}
