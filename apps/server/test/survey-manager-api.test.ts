import { randomBytes } from 'node:crypto';
import { parseCsv } from '@admin/shared';
import type { SurveyResponse, SurveyResponseDetail } from '@admin/shared/resources/survey-responses';
import type { SurveyQuestion } from '@admin/shared/surveys/questions';
import { and, desc, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, locations, notificationLogs, personnel, surveyProcessingItems, surveys, systemLogs } from '../src/db/schema/index.ts';
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
    let clientId: number;
    let locationId: string | null;
    const post = (url: string, payload?: object) => ctx.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
    /** A processing item of the test survey, by e-mail, as a sent invitation. */
    const newItem = async (fields: Partial<typeof surveyProcessingItems.$inferInsert> = {}) => {
      const [item] = await ctx.database.db
        .insert(surveyProcessingItems)
        .values({
          clientId,
          locationId,
          surveyId,
          firstName: 'Dee',
          email: 'dee@example.com',
          channel: 'email',
          status: 'sent',
          token: randomBytes(32).toString('base64url'),
          expiresAt: new Date(Date.now() + 86_400_000),
          source: 'manual_test',
          ...fields,
        })
        .returning();
      if (!item) throw new Error('no item');
      return item;
    };
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
      clientId = client?.id ?? 0;
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
          emailSubject: 'How was {location_name}, {first_name}?',
          emailBody: 'Tell us: {survey_link} Unsubscribe: {unsubscribe_link}',
        })
        .returning({ id: surveys.id });
      surveyId = survey?.id ?? 0;
      locationId = location?.id ?? null;
      // Three respondents answer through the public API: 10 with a comment, 7, 2 with a comment.
      for (const [name, answers] of [
        ['Ann', { '1': 10, '2': 'Superb' }],
        ['Bob', { '1': 7 }],
        ['Cy', { '1': 2, '2': 'Slow service' }],
      ] as const) {
        const token = randomBytes(32).toString('base64url');
        await db.insert(surveyProcessingItems).values({
          clientId,
          locationId,
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
    it('reassigns personnel within the client, audited, on the response and its item', async () => {
      const db = ctx.database.db;
      const [mine] = await db
        .insert(personnel)
        .values({ clientId, firstName: 'Zelda', lastName: 'Reassigned' })
        .returning({ id: personnel.id });
      const [other] = await db.select({ id: clients.id }).from(clients).where(ne(clients.id, clientId)).limit(1);
      const [theirs] = await db
        .insert(personnel)
        .values({ clientId: other?.id ?? 0, firstName: 'Yuri', lastName: 'Elsewhere' })
        .returning({ id: personnel.id });
      const [bob] = (await page(`?survey=${surveyId}&q=bob`)).data;
      const opts = await ctx.app.inject({ method: 'GET', url: `/api/survey-responses/${bob?.id}/options/personnel?q=zelda`, headers });
      expect(opts.json().data).toEqual([{ value: String(mine?.id), label: 'Zelda Reassigned' }]);
      const foreign = await ctx.app.inject({ method: 'GET', url: `/api/survey-responses/${bob?.id}/options/personnel?q=yuri`, headers });
      expect(foreign.json().data).toEqual([]);

      const refused = await post(`/api/survey-responses/${bob?.id}/personnel`, { personnel_id: theirs?.id });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.personnel_id[0]).toContain('must be a person of');
      const bad = await post(`/api/survey-responses/${bob?.id}/personnel`, { personnel_id: 'x' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('personnel_id');

      const ok = await post(`/api/survey-responses/${bob?.id}/personnel`, { personnel_id: mine?.id });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data).toMatchObject({ personnel_id: mine?.id, personnel_name: 'Zelda Reassigned' });
      expect((await page(`?survey=${surveyId}&q=bob`)).data[0]?.personnel_name).toBe('Zelda Reassigned');

      // The Personnel filter: Zelda's responses only; every client's people are its options, a chosen one named.
      expect((await page(`?survey=${surveyId}&personnel=${mine?.id}`)).data.map((r) => r.customer)).toEqual(['Bob Tester']);
      expect((await page(`?survey=${surveyId}&personnel=${theirs?.id}`)).total).toBe(0);
      const filterOptions = await ctx.app.inject({ method: 'GET', url: '/api/survey-responses/options/personnel?q=yuri%20else', headers });
      expect(filterOptions.json().data).toEqual([{ value: String(theirs?.id), label: 'Yuri Elsewhere' }]);
      const chosen = await ctx.app.inject({
        method: 'GET',
        url: `/api/survey-responses/options/personnel?q=yuri&value=${mine?.id}`,
        headers,
      });
      expect(chosen.json().data).toContainEqual({ value: String(mine?.id), label: 'Zelda Reassigned' });
      const badFilter = await ctx.app.inject({ method: 'GET', url: '/api/survey-responses?personnel=x', headers });
      expect(badFilter.statusCode).toBe(400);
      expect(badFilter.body).toContain('personnel');
      const [item] = await db
        .select()
        .from(surveyProcessingItems)
        .where(eq(surveyProcessingItems.id, bob?.processing_item_id ?? 0));
      expect(item?.personnelId).toBe(mine?.id);
      const [audit] = await db
        .select()
        .from(systemLogs)
        .where(eq(systemLogs.action, 'survey_responses.reassign_personnel'))
        .orderBy(desc(systemLogs.id))
        .limit(1);
      expect(audit).toMatchObject({
        before: { personnel_id: null, personnel_name: null },
        after: { personnel_id: mine?.id, personnel_name: 'Zelda Reassigned' },
      });
    });

    it('reassigns the location within the client', async () => {
      const db = ctx.database.db;
      const [target] = await db
        .select({ id: locations.id, name: locations.locationname })
        .from(locations)
        .where(and(eq(locations.clientId, clientId), ne(locations.id, locationId ?? '')))
        .limit(1);
      const [foreign] = await db.select({ id: locations.id }).from(locations).where(ne(locations.clientId, clientId)).limit(1);
      const [cy] = (await page(`?survey=${surveyId}&q=slow`)).data;
      const opts = await ctx.app.inject({ method: 'GET', url: `/api/survey-responses/${cy?.id}/options/location?perPage=100`, headers });
      const values = (opts.json().data as { value: string }[]).map((o) => o.value);
      expect(values).toContain(target?.id);
      expect(values).not.toContain(foreign?.id);

      const refused = await post(`/api/survey-responses/${cy?.id}/location`, { location_id: foreign?.id });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.location_id[0]).toContain('must be a location of');
      const ok = await post(`/api/survey-responses/${cy?.id}/location`, { location_id: target?.id });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data).toMatchObject({ location_id: target?.id, location_name: target?.name });
      const [item] = await db
        .select()
        .from(surveyProcessingItems)
        .where(eq(surveyProcessingItems.id, cy?.processing_item_id ?? 0));
      expect(item?.locationId).toBe(target?.id);
    });

    it('resends a sent, unanswered, unexpired invitation as a new NotificationLog row', async () => {
      const item = await newItem();
      const res = await post(`/api/survey-responses/items/${item.id}/resend`);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({ item_id: item.id, notification_status: 'sent', error: null });
      const [log] = await ctx.database.db.select().from(notificationLogs).where(eq(notificationLogs.id, res.json().data.notification_id));
      expect(log).toMatchObject({
        type: 'survey_invite',
        recipient: 'dee@example.com',
        relatedType: 'survey_processing_item',
        relatedId: String(item.id),
        clientId,
      });
      expect(log?.bodyText).toContain(`/s/${item.token}`);
      expect(log?.bodyText).toContain(`/u/${item.token}`);
      expect(log?.subjectOrTemplate).toMatch(/, Dee\?$/);
      const second = await post(`/api/survey-responses/items/${item.id}/resend`);
      expect(second.json().data.notification_id).not.toBe(res.json().data.notification_id);
      const [after] = await ctx.database.db.select().from(surveyProcessingItems).where(eq(surveyProcessingItems.id, item.id));
      expect(after?.attempts).toBe(2);
    });

    it('refuses to resend an answered, expired or never sent invitation', async () => {
      const [ann] = (await page(`?survey=${surveyId}&q=superb`)).data;
      const answered = await post(`/api/survey-responses/items/${ann?.processing_item_id}/resend`);
      expect(answered.statusCode).toBe(409);
      expect(answered.body).toContain('already answered');
      const expired = await newItem({ expiresAt: new Date(Date.now() - 1000) });
      const late = await post(`/api/survey-responses/items/${expired.id}/resend`);
      expect(late.statusCode).toBe(409);
      expect(late.body).toContain('expired');
      const queued = await newItem({ status: 'queued' });
      expect((await post(`/api/survey-responses/items/${queued.id}/resend`)).statusCode).toBe(409);
      expect((await post('/api/survey-responses/items/999999/resend')).statusCode).toBe(404);
    });
  });
}
