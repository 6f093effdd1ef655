import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRefusalSummaries, clientUsers, dataFeeds, endpointConfigs, locations, surveys, users } from '../src/db/schema/index.ts';
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

    /** Saves the settings with their version as loaded (none before the endpoint is set up). */
    const save = async (payload: Record<string, unknown>) => {
      const { updated_at: seen } = (await get(`/api/api-endpoints/${locationId}`)).json().data;
      return send('PUT', `/api/api-endpoints/${locationId}`, { ...payload, ...(seen ? { updated_at: seen } : {}) });
    };
    /** Pause, resume or archive, with the version of the settings as loaded. */
    const setStatus = async (status: string) => {
      const { updated_at: seen } = (await get(`/api/api-endpoints/${locationId}`)).json().data;
      return send('PATCH', `/api/api-endpoints/${locationId}/status`, { status, updated_at: seen });
    };

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
      // A user of the location's client: their token feeds that client's endpoints (TOKEN_HOLDER_RULE).
      const [portal] = await db
        .select()
        .from(clientUsers)
        .where(eq(clientUsers.clientId, location?.clientId ?? 0))
        .limit(1);
      tokenId = (await send('POST', '/api/api-token', { user_id: portal?.userId, name: 'Feeds', scopes: ['feeds:write'] })).json().data.id;
    });
    afterAll(() => ctx.close());

    it('lists every location as an endpoint, not set up until saved', async () => {
      const list = await get('/api/api-endpoints?client=all&perPage=200');
      expect(list.statusCode).toBe(200);
      const row = list.json().data.find((r: { _id: string }) => r._id === locationId);
      expect(row).toMatchObject({ configured: false, ingest_path: `/api/v1/endpoints/${locationId}/transactions`, calls_24h: 0 });
    });

    it('saves the settings and makes the api feed, a webhook secret only when asked (shown once), and refuses bad links naming the field', async () => {
      const bad = await save({ survey_id: otherSurveyId, rate_limit_per_min: 0 });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors.rate_limit_per_min).toEqual(['The Rate limit per minute field must be between 1 and 6000']);
      const wrongSurvey = await save({ survey_id: otherSurveyId });
      expect(Object.keys(wrongSurvey.json().errors)).toEqual(['survey_id']);

      const saved = await save({
        survey_id: surveyId,
        token_id: tokenId,
        allowed_ips: ['127.0.0.1', '::1'],
        payload_format: 'json',
        rate_limit_per_min: 120,
      });
      expect(saved.statusCode).toBe(200);
      const { endpoint, webhook_secret: none } = saved.json().data;
      expect(none).toBeNull();
      expect(endpoint).toMatchObject({
        configured: true,
        survey_id: surveyId,
        token_name: 'Feeds',
        rate_limit_per_min: 120,
        status: 'active',
        has_webhook_secret: false,
      });
      const [config] = await ctx.database.db.select().from(endpointConfigs).where(eq(endpointConfigs.locationId, locationId));
      expect(config?.webhookSecretHash).toBeNull();
      const [feed] = await ctx.database.db
        .select()
        .from(dataFeeds)
        .where(eq(dataFeeds.id, config?.dataFeedId ?? 0));
      expect(feed).toMatchObject({ sourceType: 'api', locationMode: 'single', locationId, surveyId });
      expect(feed?.fieldMapping).toMatchObject({ first_name: 'first_name', transaction_id: 'transaction_id' });

      // Asked for: made, shown once, stored hashed; kept by a later save; removed when asked.
      const asked = await save({ survey_id: surveyId, webhook_secret_action: 'new' });
      const secret = asked.json().data.webhook_secret;
      expect(secret).toMatch(/^[A-Za-z0-9_-]{32,128}$/);
      expect(asked.json().data.endpoint.has_webhook_secret).toBe(true);
      const [withSecret] = await ctx.database.db.select().from(endpointConfigs).where(eq(endpointConfigs.locationId, locationId));
      expect(withSecret?.webhookSecretHash).toMatch(/^[0-9a-f]{64}$/);
      expect(withSecret?.webhookSecretHash).not.toBe(secret);
      const again = await save({ survey_id: surveyId, rate_limit_per_min: '90' });
      expect(again.json().data).toMatchObject({ webhook_secret: null, endpoint: { has_webhook_secret: true } });
      const removed = await save({ survey_id: surveyId, webhook_secret_action: 'remove' });
      expect(removed.json().data).toMatchObject({ webhook_secret: null, endpoint: { has_webhook_secret: false } });
      const unknown = await save({ survey_id: surveyId, webhook_secret_action: 'rotate' });
      expect(unknown.statusCode).toBe(400);
      // Once set up, a save says which version it edits: none is 422, an older one 409.
      const blind = await send('PUT', `/api/api-endpoints/${locationId}`, { survey_id: surveyId });
      expect(blind.statusCode).toBe(422);
      expect(blind.json()).toMatchObject({ message: 'Please correct: Last updated.' });
      const stale = await send('PUT', `/api/api-endpoints/${locationId}`, { survey_id: surveyId, updated_at: endpoint.updated_at });
      expect(stale.statusCode).toBe(409);
      const feeds = await ctx.database.db
        .select()
        .from(dataFeeds)
        .where(and(eq(dataFeeds.locationId, locationId), eq(dataFeeds.sourceType, 'api')));
      expect(feeds).toHaveLength(1);
    });

    it('sends a test payload as a dry run: the sample row checked by the feed, nothing written', async () => {
      const res = await send('POST', `/api/api-endpoints/${locationId}/test`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.result).toMatchObject({ rows_read: 1, rows_valid: 1, rows_invalid: 0 });
    });

    it('pauses, resumes and archives; the feed follows', async () => {
      const paused = await setStatus('paused');
      expect(paused.json().data.status).toBe('paused');
      const [config] = await ctx.database.db.select().from(endpointConfigs).where(eq(endpointConfigs.locationId, locationId));
      const [feed] = await ctx.database.db
        .select()
        .from(dataFeeds)
        .where(eq(dataFeeds.id, config?.dataFeedId ?? 0));
      expect(feed?.status).toBe('paused');
      expect((await setStatus('active')).json().data.status).toBe('active');
      const options = await get(`/api/api-endpoints/${locationId}/survey-options`);
      expect(options.json().data.map((o: { value: string }) => o.value)).toContain(String(surveyId));
      const tokens = await get(`/api/api-endpoints/${locationId}/token-options`);
      expect(tokens.json().data.map((o: { value: string }) => o.value)).toContain(String(tokenId));
    });

    describe('the ingest endpoint', () => {
      let token: string;
      const url = () => `/api/v1/endpoints/${locationId}/transactions`;
      const call = (body: unknown, opts: { token?: string | null; ip?: string; type?: string; secret?: string } = {}) =>
        ctx.app.inject({
          method: 'POST',
          url: url(),
          remoteAddress: opts.ip ?? '127.0.0.1',
          headers: {
            'content-type': opts.type ?? 'application/json',
            ...(opts.token === null ? {} : { authorization: `Bearer ${opts.token ?? token}` }),
            ...(opts.secret === undefined ? {} : { 'x-webhook-secret': opts.secret }),
          },
          payload: typeof body === 'string' ? body : JSON.stringify(body),
        });
      const row = (n: number, extra: Record<string, unknown> = {}) => ({
        first_name: 'Pat',
        last_name: `Ingest${n}`,
        email: `pat.ingest.${n}@example.com`,
        transaction_id: `API-${kind}-${n}`,
        transaction_date: new Date().toISOString().slice(0, 10),
        ...extra,
      });

      beforeAll(async () => {
        // A fresh token for the endpoint (regenerate the linked one, so the endpoint takes the new one).
        const regen = await send('POST', `/api/api-token/${tokenId}/regenerate`, { grace_hours: 1 });
        token = regen.json().data.token;
        tokenId = regen.json().data.id;
        const saved = await save({
          survey_id: surveyId,
          token_id: tokenId,
          allowed_ips: ['127.0.0.1', '::1'],
          payload_format: 'json',
          rate_limit_per_min: 1000,
        });
        expect(saved.statusCode).toBe(200);
      });

      it('accepts good rows with their processing item ids and rejects bad ones with reasons', async () => {
        const res = await call([row(1), { ...row(2), first_name: '', email: 'not-an-email' }]);
        expect(res.statusCode).toBe(200);
        const { accepted, rejected, run_id: runId } = res.json().data;
        expect(runId).toEqual(expect.any(Number));
        expect(accepted).toEqual([expect.objectContaining({ row: 1, processing_item_id: expect.any(Number), status: expect.any(String) })]);
        expect(rejected).toHaveLength(1);
        expect(rejected[0].row).toBe(2);
        expect(rejected[0].errors.length).toBeGreaterThan(0);
        const calls = (await get(`/api/api-endpoints/${locationId}/calls`)).json().data;
        expect(calls[0]).toMatchObject({ status_code: 200, rows_accepted: 1, rows_rejected: 1, ip: '127.0.0.1', run_id: runId });
        const listed = (await get(`/api/api-endpoints?client=all&perPage=200&q=${locationId}`)).json().data[0];
        expect(listed).toMatchObject({ calls_24h: 1, errors_24h: 1 });
      });

      it('takes CSV only when the endpoint says so (415 otherwise)', async () => {
        const csv = `first_name,email,transaction_id,transaction_date\nCasey,casey@example.com,API-${kind}-csv,${new Date().toISOString().slice(0, 10)}\n`;
        expect((await call(csv, { type: 'text/csv' })).statusCode).toBe(415);
        await save({
          survey_id: surveyId,
          token_id: tokenId,
          allowed_ips: ['127.0.0.1'],
          payload_format: 'csv',
          rate_limit_per_min: 1000,
        });
        const res = await call(csv, { type: 'text/csv' });
        expect(res.statusCode).toBe(200);
        expect(res.json().data.accepted).toHaveLength(1);
        await save({
          survey_id: surveyId,
          token_id: tokenId,
          allowed_ips: ['127.0.0.1'],
          payload_format: 'json',
          rate_limit_per_min: 1000,
        });
      });

      it('refuses without a token (401), a session token (401), another scope (403), another address (403); logs only the last', async () => {
        const before = (await get(`/api/api-endpoints/${locationId}/calls`)).json().data.length;
        expect((await call([row(3)], { token: null })).statusCode).toBe(401);
        expect((await call([row(3)], { token: headers.authorization?.slice(7) })).statusCode).toBe(401);
        const [admin] = await ctx.database.db.select().from(users).where(eq(users.email, 'admin@example.com'));
        const other = await send('POST', '/api/api-token', { user_id: admin?.id, name: 'Reports only', scopes: ['reports:read'] });
        const wrongScope = await call([row(3)], { token: other.json().data.token });
        expect(wrongScope.statusCode).toBe(403);
        expect(wrongScope.json().message).toContain('feeds:write');
        await send('POST', `/api/api-token/${other.json().data.id}/revoke`);
        expect((await call([row(3)], { ip: '198.51.100.9' })).statusCode).toBe(403);
        // The first three established no credential: nobody's calls, counted in the address's
        // refusal summary (System Logs), not in the endpoint's recent calls.
        const calls = (await get(`/api/api-endpoints/${locationId}/calls`)).json().data;
        expect(calls).toHaveLength(before + 1);
        expect(calls[0]).toMatchObject({ status_code: 403, ip: '198.51.100.9' });
        const [summary] = await ctx.database.db.select().from(apiRefusalSummaries).where(eq(apiRefusalSummaries.ip, '127.0.0.1'));
        expect(summary).toMatchObject({ refused: 3, throttled: 0, endpoints: [locationId] });
        // A token never opens a console route.
        expect(
          (await ctx.app.inject({ method: 'GET', url: '/api/api-token', headers: { authorization: `Bearer ${token}` } })).statusCode,
        ).toBe(401);
      });

      it('answers 423 while paused and 429 with Retry-After past the rate limit', async () => {
        await setStatus('paused');
        const paused = await call([row(4)]);
        expect(paused.statusCode).toBe(423);
        await setStatus('active');
        await save({
          survey_id: surveyId,
          token_id: tokenId,
          allowed_ips: ['127.0.0.1'],
          rate_limit_per_min: 2,
        });
        // Two calls a minute: within six calls a 429 comes even if a minute turns meanwhile.
        let limited = null;
        for (let i = 0; i < 6 && !limited; i++) {
          const res = await call([row(10 + i)]);
          if (res.statusCode === 429) limited = res;
          else expect(res.statusCode).toBe(200);
        }
        expect(limited?.headers['retry-after']).toMatch(/^\d+$/);
        expect(limited?.json()).toMatchObject({ statusCode: 429, message: expect.stringContaining('Rate limit') });
      });

      it("refuses a revoked token (401) and lets the old token work through a regenerate's grace period", async () => {
        await save({
          survey_id: surveyId,
          token_id: tokenId,
          allowed_ips: ['127.0.0.1'],
          rate_limit_per_min: 1000,
        });
        const regen = await send('POST', `/api/api-token/${tokenId}/regenerate`, { grace_hours: 2 });
        const fresh = regen.json().data;
        expect((await call([row(20)], { token })).statusCode).toBe(200);
        expect((await call([row(21)], { token: fresh.token })).statusCode).toBe(200);
        await send('POST', `/api/api-token/${fresh.id}/revoke`);
        expect((await call([row(22)], { token: fresh.token })).statusCode).toBe(401);
        expect((await call([row(23)], { token })).statusCode).toBe(401);
      });
    });
  });
}
