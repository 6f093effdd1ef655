import { and, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCallLogs, apiTokens, clientUsers, endpointConfigs, locations, surveys, users } from '../src/db/schema/index.ts';
import { newApiToken, storedParts } from '../src/modules/api-tokens/token.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * Who may feed an ingest endpoint (issue 18, items 11 and 12; decision 032): a token whose user
 * may hold one, for its own client only, checked on every call; and the endpoint's webhook
 * secret, made only when asked, removable, and bound by the endpoint's token binding.
 */
for (const kind of testDatabaseKinds()) {
  describe(`Ingest endpoint access (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let locationId: string;
    let clientId: number;
    let surveyId: number;
    /** Users of the location's client and of another client. */
    let ownUserId: number;
    let otherUserId: number;
    const send = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown> = {}) =>
      ctx.app.inject({ method, url, headers, payload });
    /** Saves the settings with their version as loaded (none before the endpoint is set up). */
    const save = async (extra: Record<string, unknown> = {}) => {
      const current = await ctx.app.inject({ method: 'GET', url: `/api/api-endpoints/${locationId}`, headers });
      const seen: string | undefined = current.json().data.updated_at;
      return send('PUT', `/api/api-endpoints/${locationId}`, {
        survey_id: surveyId,
        rate_limit_per_min: 6000,
        ...(seen ? { updated_at: seen } : {}),
        ...extra,
      });
    };
    let n = 0;
    const row = () => {
      n += 1;
      return {
        first_name: 'Pat',
        email: `pat.access.${n}@example.com`,
        transaction_id: `ACC-${kind}-${n}`,
        transaction_date: new Date().toISOString().slice(0, 10),
      };
    };
    const call = (credential: { token?: string; secret?: string }, target = locationId) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/endpoints/${target}/transactions`,
        remoteAddress: '127.0.0.1',
        headers: {
          'content-type': 'application/json',
          ...(credential.token ? { authorization: `Bearer ${credential.token}` } : {}),
          ...(credential.secret ? { 'x-webhook-secret': credential.secret } : {}),
        },
        payload: JSON.stringify([row()]),
      });
    const generate = async (userId: number, name: string) => {
      const res = await send('POST', '/api/api-token', { user_id: userId, name, scopes: ['feeds:write'] });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as { id: number; token: string };
    };
    const lastCall = async () => {
      const [last] = await ctx.database.db
        .select()
        .from(apiCallLogs)
        .where(eq(apiCallLogs.locationId, locationId))
        .orderBy(sql`${apiCallLogs.id} desc`)
        .limit(1);
      return last;
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const db = ctx.database.db;
      const [location] = await db.select().from(locations).limit(1);
      locationId = location?.id ?? '';
      clientId = location?.clientId ?? 0;
      const [survey] = await db.select().from(surveys).where(eq(surveys.clientId, clientId)).limit(1);
      surveyId = survey?.id ?? 0;
      const [own] = await db.select().from(clientUsers).where(eq(clientUsers.clientId, clientId)).limit(1);
      const [other] = await db.select().from(clientUsers).where(ne(clientUsers.clientId, clientId)).limit(1);
      ownUserId = own?.userId ?? 0;
      otherUserId = other?.userId ?? 0;
      expect((await save()).statusCode).toBe(200);
    });
    afterAll(() => ctx.close());

    it("a token feeds only its own client's endpoints; another client's token is neither offered nor bound", async () => {
      const own = await generate(ownUserId, 'Own client');
      const other = await generate(otherUserId, 'Other client');
      expect((await call({ token: own.token })).statusCode).toBe(200);
      const foreign = await call({ token: other.token });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json().message).toContain('another client');
      const options = (await ctx.app.inject({ method: 'GET', url: `/api/api-endpoints/${locationId}/token-options`, headers })).json();
      const offered = options.data.map((o: { value: string }) => Number(o.value));
      expect(offered).toContain(own.id);
      expect(offered).not.toContain(other.id);
      const bind = await save({ token_id: other.id });
      expect(bind.statusCode).toBe(422);
      expect(Object.keys(bind.json().errors)).toEqual(['token_id']);
      // A token issued before the rule, to one of the provider's staff: refused on every call.
      const [staff] = await ctx.database.db.select().from(users).where(eq(users.email, 'staff@example.com'));
      const legacy = newApiToken();
      await ctx.database.db
        .insert(apiTokens)
        .values({ userId: staff?.id ?? 0, name: 'Legacy', ...storedParts(legacy), scopes: ['feeds:write'] });
      const refused = await call({ token: legacy });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toContain('may no longer hold');
      const admin = await generate((await ctx.app.inject({ method: 'GET', url: '/api/user', headers })).json().data.user.id, 'Admin');
      expect((await call({ token: admin.token })).statusCode).toBe(200);
      await send('POST', `/api/api-token/${admin.id}/revoke`);
    });

    it('makes a webhook secret only when asked; it opens only its own endpoint, and is removed when asked', async () => {
      // A retry starts as the first attempt did, without the secret that attempt made.
      await save({ webhook_secret_action: 'remove' });
      const none = await save();
      expect(none.json().data).toMatchObject({ webhook_secret: null, endpoint: { has_webhook_secret: false } });
      expect((await call({ secret: 'a'.repeat(48) })).statusCode).toBe(401);
      const secret: string = (await save({ webhook_secret_action: 'new' })).json().data.webhook_secret;
      const ok = await call({ secret });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(await lastCall()).toMatchObject({ statusCode: 200, tokenId: null });
      // One character off (a secret may already end in x: one in 64 did, and passed as itself).
      expect((await call({ secret: `${secret.slice(0, -1)}${secret.endsWith('x') ? 'y' : 'x'}` })).statusCode).toBe(401);
      expect((await call({ secret: 'x'.repeat(300) })).statusCode).toBe(401);
      const [elsewhere] = await ctx.database.db.select().from(locations).where(ne(locations.id, locationId)).limit(1);
      expect((await call({ secret }, elsewhere?.id)).statusCode).toBe(401);
      expect((await ctx.app.inject({ method: 'GET', url: '/api/api-token', headers: { 'x-webhook-secret': secret } })).statusCode).toBe(
        401,
      );
      // With an Authorization header the token decides, whatever the secret says.
      expect((await call({ token: 'rp_not-a-token', secret })).statusCode).toBe(401);
      expect((await save({ webhook_secret_action: 'remove' })).json().data.endpoint.has_webhook_secret).toBe(false);
      expect((await call({ secret })).statusCode).toBe(401);
    });

    it('bound to a token, the secret speaks for that token: its checks apply, it follows a regenerate, and dies with a revoke', async () => {
      const db = ctx.database.db;
      // The user's token of the first test makes way for a fresh one.
      const [live] = await db
        .select()
        .from(apiTokens)
        .where(and(eq(apiTokens.userId, ownUserId), sql`${apiTokens.revokedAt} is null`));
      if (live) await send('POST', `/api/api-token/${live.id}/revoke`);
      const bound = await generate(ownUserId, 'Bound');
      const secret: string = (await save({ token_id: bound.id, webhook_secret_action: 'new' })).json().data.webhook_secret;
      expect((await call({ secret })).statusCode).toBe(200);
      expect(await lastCall()).toMatchObject({ statusCode: 200, tokenId: bound.id });

      // The token's own allowed addresses bind the secret too.
      await db
        .update(apiTokens)
        .set({ allowedIps: ['198.51.100.0/24'] })
        .where(eq(apiTokens.id, bound.id));
      expect((await call({ secret })).statusCode).toBe(403);
      await db.update(apiTokens).set({ allowedIps: [] }).where(eq(apiTokens.id, bound.id));
      // Its user may no longer hold a token (a second client): refused.
      const [second] = await db.select().from(clientUsers).where(ne(clientUsers.clientId, clientId)).limit(1);
      await db.insert(clientUsers).values({ clientId: second?.clientId ?? 0, userId: ownUserId });
      const refused = await call({ secret });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toContain('may no longer hold');
      await db.delete(clientUsers).where(and(eq(clientUsers.userId, ownUserId), eq(clientUsers.clientId, second?.clientId ?? 0)));
      // Expired: refused, as the token would be.
      await db
        .update(apiTokens)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(eq(apiTokens.id, bound.id));
      expect((await call({ secret })).statusCode).toBe(401);

      // Regenerated (an expired token's new expiry must be chosen): the endpoint takes the new token,
      // and the secret speaks for it.
      const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
      const fresh = (await send('POST', `/api/api-token/${bound.id}/regenerate`, { grace_hours: 0, expires_at: expiresAt })).json().data;
      expect((await call({ secret })).statusCode).toBe(200);
      expect(await lastCall()).toMatchObject({ statusCode: 200, tokenId: fresh.id });
      // Revoked: the bound endpoints' secrets end with it, even if the endpoint is later unbound.
      await send('POST', `/api/api-token/${fresh.id}/revoke`);
      const [config] = await db.select().from(endpointConfigs).where(eq(endpointConfigs.locationId, locationId));
      expect(config?.webhookSecretHash).toBeNull();
      expect((await call({ secret })).statusCode).toBe(401);
      await save();
      expect((await call({ secret })).statusCode).toBe(401);
    });
  });
}
