import { randomBytes } from 'node:crypto';
import type { SurveyQuestion } from '@admin/shared/surveys/questions';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import {
  clientSurveySettings,
  clients,
  emailOptOuts,
  locations,
  surveyProcessingItems,
  surveyResponses,
  surveys,
} from '../src/db/schema/index.ts';
import { startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/** What a browser asks for; anything else gets the API's error envelope on a refusal. */
const html = { accept: 'text/html,application/xhtml+xml' };

const QUESTIONS: SurveyQuestion[] = [
  { id: 1, type: 'text', text: 'Anything we could do better?', options: [], required: false, is_key_metric: false },
  { id: 2, type: 'nps_0_10', text: 'How likely are you to recommend us?', options: [], required: true, is_key_metric: true },
  { id: 3, type: 'single_choice', text: 'Which visit?', options: ['First', 'Repeat'], required: false, is_key_metric: false },
];

for (const kind of testDatabaseKinds()) {
  describe(`Public survey page (${kind})`, () => {
    let ctx: TestContext;
    let clientId: number;
    let locationId: string;
    let surveyId: number;

    /** A fresh invitation; its token is the link. */
    async function invitation(overrides: { expiresAt?: Date; email?: string } = {}) {
      const token = randomBytes(32).toString('base64url');
      const [item] = await ctx.database.db
        .insert(surveyProcessingItems)
        .values({
          clientId,
          locationId,
          surveyId,
          firstName: 'Jane <b>',
          email: overrides.email ?? 'jane@example.com',
          channel: 'email',
          status: 'sent',
          token,
          expiresAt: overrides.expiresAt ?? new Date(Date.now() + 86_400_000),
          source: 'manual_test',
        })
        .returning({ id: surveyProcessingItems.id });
      return { token, id: item?.id ?? 0 };
    }
    const form = (fields: [string, string][]) => new URLSearchParams(fields).toString();
    const post = (token: string, body: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/s/${token}`,
        payload: body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      const db = ctx.database.db;
      const [client] = await db.select({ id: clients.id }).from(clients).orderBy(clients.id).limit(1);
      clientId = client?.id ?? 0;
      const [location] = await db.select({ id: locations.id }).from(locations).where(eq(locations.clientId, clientId)).limit(1);
      locationId = location?.id ?? '';
      await db
        .update(locations)
        .set({ reviewLinks: { google: 'https://g.page/r/example/review', yelp: 'https://www.yelp.com/writeareview/biz/x' } })
        .where(eq(locations.id, locationId));
      await db
        .insert(clientSurveySettings)
        .values({
          clientId,
          fromName: 'Acme',
          fromEmail: 'hello@example.com',
          brandColor: '#ffcc00',
          logoUrl: 'https://cdn.example.com/logo.png',
        })
        .onConflictDoUpdate({
          target: clientSurveySettings.clientId,
          set: { brandColor: '#ffcc00', logoUrl: 'https://cdn.example.com/logo.png' },
        });
      const [survey] = await db
        .insert(surveys)
        .values({
          clientId,
          name: 'After your visit <script>',
          type: 'nps',
          language: 'en',
          channel: 'email',
          questions: QUESTIONS,
          senderName: 'Acme',
        })
        .returning({ id: surveys.id });
      surveyId = survey?.id ?? 0;
    });
    afterAll(async () => ctx?.close());

    it('renders the survey: key metric first, escaped text, no script, labelled groups, branding', async () => {
      const { token } = await invitation();
      const res = await ctx.app.inject({ method: 'GET', url: `/s/${token}`, headers: html });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      const body = res.body;
      expect(body.indexOf('How likely')).toBeLessThan(body.indexOf('Anything we could'));
      expect(body).toContain('After your visit &lt;script&gt;');
      expect(body).toContain('Jane &lt;b&gt;');
      expect(body).not.toMatch(/<script/i);
      expect(body).toContain('<legend>How likely are you to recommend us?');
      expect(body.match(/type="radio" name="q2"/g)).toHaveLength(11);
      expect(body).toContain('src="https://cdn.example.com/logo.png"');
      // A light brand colour gets dark text on it.
      expect(body).toContain('background:#ffcc00;color:#111111');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    });

    it('unknown tokens get the not-found page', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/s/nope', headers: html });
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('We could not find this survey');
      const probe = await ctx.app.inject({ method: 'GET', url: '/s/nope' });
      expect(probe.statusCode).toBe(404);
      expect(probe.json()).toMatchObject({ statusCode: 404, message: 'Survey link not found.' });
    });

    it('shows the problems beside the questions and keeps what was typed', async () => {
      const { token } = await invitation();
      const res = await post(
        token,
        form([
          ['q1', 'Great <staff>'],
          ['q3', 'Other'],
        ]),
      );
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain('Please answer this question');
      expect(res.body).toContain('Choose one of the options');
      expect(res.body).toContain('>Great &lt;staff&gt;</textarea>');
      expect(res.body).toContain('aria-describedby="q2-problem"');
    });

    it('records a form answer once, with key score, class and comment; then says it was answered', async () => {
      const { token, id } = await invitation();
      const res = await post(
        token,
        form([
          ['q2', '9'],
          ['q1', '  Lovely  '],
          ['q3', 'Repeat'],
          ['testimonial_consent', 'yes'],
        ]),
      );
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Thank you');
      expect(res.body).toContain('href="https://g.page/r/example/review"');
      expect(res.body).toContain('Review us on Yelp');
      const [row] = await ctx.database.db.select().from(surveyResponses).where(eq(surveyResponses.processingItemId, id));
      expect(row).toMatchObject({
        keyScore: 9,
        npsClass: 'promoter',
        comment: 'Lovely',
        testimonialConsent: true,
        surveyId,
        clientId,
        locationId,
      });
      expect(row?.answers).toEqual({ '1': '  Lovely  ', '2': 9, '3': 'Repeat' });
      const [item] = await ctx.database.db
        .select({ status: surveyProcessingItems.status })
        .from(surveyProcessingItems)
        .where(eq(surveyProcessingItems.id, id));
      expect(item?.status).toBe('responded');

      const again = await post(token, form([['q2', '1']]));
      expect(again.statusCode).toBe(409);
      expect(again.body).toContain('already answered');
      const page = await ctx.app.inject({ method: 'GET', url: `/s/${token}`, headers: html });
      expect(page.body).toContain('already answered');
      const api = await ctx.app.inject({ method: 'POST', url: `/api/public/responses/${token}`, payload: { answers: { '2': 3 } } });
      expect(api.statusCode).toBe(409);
    });

    it('the JSON API records, names problems by answer, and refuses a second submit', async () => {
      const { token } = await invitation();
      const url = `/api/public/responses/${token}`;
      const bad = await ctx.app.inject({ method: 'POST', url, payload: { answers: { '2': 11, '9': 'x' } } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({ 'answers.2': ['Choose a score from 0 to 10'], 'answers.9': ['No such question'] });
      const malformed = await ctx.app.inject({ method: 'POST', url, payload: { answers: 'x' } });
      expect(malformed.statusCode).toBe(400);
      const ok = await ctx.app.inject({ method: 'POST', url, payload: { answers: { '2': 4 } } });
      expect(ok.statusCode).toBe(201);
      expect(ok.json().data).toMatchObject({ key_score: 4, nps_class: 'detractor' });
      // What follows a response is queued with it, once each (pipeline/response-stored.ts).
      const jobs = await ctx.database.db.execute(
        sql`select queue from jobs where payload->>'responseId' = ${String(ok.json().data.id)} order by queue`,
      );
      expect(rowsOf(jobs).map((j) => j.queue)).toEqual(['evaluate-alerts', 'make-testimonial']);
      const twice = await ctx.app.inject({ method: 'POST', url, payload: { answers: { '2': 4 } } });
      expect(twice.statusCode).toBe(409);
      const unknown = await ctx.app.inject({ method: 'POST', url: '/api/public/responses/zzz', payload: { answers: {} } });
      expect(unknown.statusCode).toBe(404);
    });

    it('expired links say so and record nothing', async () => {
      const { token, id } = await invitation({ expiresAt: new Date(Date.now() - 1000) });
      const res = await ctx.app.inject({ method: 'GET', url: `/s/${token}`, headers: html });
      expect(res.statusCode).toBe(410);
      expect(res.body).toContain('expired');
      expect((await post(token, form([['q2', '9']]))).statusCode).toBe(410);
      const api = await ctx.app.inject({ method: 'POST', url: `/api/public/responses/${token}`, payload: { answers: { '2': 9 } } });
      expect(api.statusCode).toBe(410);
      const rows = await ctx.database.db.select().from(surveyResponses).where(eq(surveyResponses.processingItemId, id));
      expect(rows).toHaveLength(0);
    });

    it('unsubscribe: a button first, then the address is opted out and the next send is suppressed', async () => {
      const { token } = await invitation({ email: 'Leave.Me@Example.com' });
      const page = await ctx.app.inject({ method: 'GET', url: `/u/${token}`, headers: html });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<button type="submit">Unsubscribe</button>');
      const before = await ctx.database.db.select().from(emailOptOuts).where(eq(emailOptOuts.email, 'leave.me@example.com'));
      expect(before).toHaveLength(0);
      const done = await ctx.app.inject({ method: 'POST', url: `/u/${token}`, headers: html });
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain('You are unsubscribed');
      const send = await ctx.app.messenger.send({
        channel: 'email',
        type: 'survey_invite',
        to: 'leave.me@example.com',
        subject: 'How did we do?',
        text: 'Answer here',
        clientId,
      });
      expect(send.status).toBe('suppressed');
      expect((await ctx.app.inject({ method: 'GET', url: '/u/unknown' })).statusCode).toBe(404);
    });
  });
}
