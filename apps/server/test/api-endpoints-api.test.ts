import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFeeds, endpointConfigs, locations, surveys, users } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

for (const kind of testDatabaseKinds()) {
  describe(`API Managers API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let locationId: string;
    let surveyId: number;
    let otherSurveyId: number;
    let tokenId: number;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: Record<string, unknown> = {}) =>
      ctx.app.inject({ method, url, headers, payload });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const db = ctx.database.db;
      const [location] = await db.select().from(locations).limit(1);
      locationId = location?.id ?? '';
      const [survey] = await db
        .select()
        .from(surveys)
        .where(eq(surveys.clientId, location?.clientId ?? 0))
        .limit(1);
      surveyId = survey?.id ?? 0;
      const [other] = await db
        .select()
        .from(surveys)
        .where(ne(surveys.clientId, location?.clientId ?? 0))
        .limit(1);
      otherSurveyId = other?.id ?? 0;
      const [staff] = await db.select().from(users).where(eq(users.email, 'staff@example.com'));
      tokenId = (await send('POST', '/api/api-token', { user_id: staff?.id, name: 'Feeds', scopes: ['feeds:write'] })).json().data.id;
    });
    afterAll(() => ctx.close());

    it('lists every location as an endpoint, not set up until saved', async () => {
      const list = await get('/api/api-endpoints?client=all&perPage=200');
      expect(list.statusCode).toBe(200);
      const row = list.json().data.find((r: { _id: string }) => r._id === locationId);
      expect(row).toMatchObject({ configured: false, ingest_path: `/api/v1/endpoints/${locationId}/transactions`, calls_24h: 0 });
    });

    it('saves the settings, makes the api feed and a webhook secret shown once, and refuses bad links naming the field', async () => {
      const bad = await send('PUT', `/api/api-endpoints/${locationId}`, { survey_id: otherSurveyId, rate_limit_per_min: 0 });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors.rate_limit_per_min).toEqual(['The Rate limit per minute field must be between 1 and 6000']);
      const wrongSurvey = await send('PUT', `/api/api-endpoints/${locationId}`, { survey_id: otherSurveyId });
      expect(Object.keys(wrongSurvey.json().errors)).toEqual(['survey_id']);

      const saved = await send('PUT', `/api/api-endpoints/${locationId}`, {
        survey_id: surveyId,
        token_id: tokenId,
        allowed_ips: ['127.0.0.1', '::1'],
        payload_format: 'json',
        rate_limit_per_min: 120,
      });
      expect(saved.statusCode).toBe(200);
      const { endpoint, webhook_secret: secret } = saved.json().data;
      expect(secret).toMatch(/^[A-Za-z0-9_-]{32,128}$/);
      expect(endpoint).toMatchObject({
        configured: true,
        survey_id: surveyId,
        token_name: 'Feeds',
        rate_limit_per_min: 120,
        status: 'active',
      });
      const [config] = await ctx.database.db.select().from(endpointConfigs).where(eq(endpointConfigs.locationId, locationId));
      expect(config?.webhookSecretHash).not.toBe(secret);
      const [feed] = await ctx.database.db
        .select()
        .from(dataFeeds)
        .where(eq(dataFeeds.id, config?.dataFeedId ?? 0));
      expect(feed).toMatchObject({ sourceType: 'api', locationMode: 'single', locationId, surveyId });
      expect(feed?.fieldMapping).toMatchObject({ first_name: 'first_name', transaction_id: 'transaction_id' });

      const again = await send('PUT', `/api/api-endpoints/${locationId}`, { survey_id: surveyId, rate_limit_per_min: '90' });
      expect(again.json().data.webhook_secret).toBeNull();
      const feeds = await ctx.database.db
        .select()
        .from(dataFeeds)
        .where(and(eq(dataFeeds.locationId, locationId), eq(dataFeeds.sourceType, 'api')));
      expect(feeds).toHaveLength(1);
    });

    it('pauses, resumes and archives; the feed follows', async () => {
      const paused = await send('PATCH', `/api/api-endpoints/${locationId}/status`, { status: 'paused' });
      expect(paused.json().data.status).toBe('paused');
      const [config] = await ctx.database.db.select().from(endpointConfigs).where(eq(endpointConfigs.locationId, locationId));
      const [feed] = await ctx.database.db
        .select()
        .from(dataFeeds)
        .where(eq(dataFeeds.id, config?.dataFeedId ?? 0));
      expect(feed?.status).toBe('paused');
      expect((await send('PATCH', `/api/api-endpoints/${locationId}/status`, { status: 'active' })).json().data.status).toBe('active');
      const options = await get(`/api/api-endpoints/${locationId}/survey-options`);
      expect(options.json().data.map((o: { value: string }) => o.value)).toContain(String(surveyId));
      const tokens = await get('/api/api-endpoints/token-options');
      expect(tokens.json().data.map((o: { value: string }) => o.value)).toContain(String(tokenId));
    });
  });
}
