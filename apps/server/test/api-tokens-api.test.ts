import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, systemLogs, users } from '../src/db/schema/index.ts';
import { authenticateToken } from '../src/modules/api-tokens/repository.ts';
import { storedParts } from '../src/modules/api-tokens/token.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

for (const kind of testDatabaseKinds()) {
  describe(`API Token Generation API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let staffId: number;
    let adminId: number;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown> = {}) =>
      ctx.app.inject({ method, url, headers, payload });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const all = await ctx.database.db.select({ id: users.id, email: users.email }).from(users);
      staffId = all.find((u) => u.email === 'staff@example.com')?.id ?? 0;
      adminId = all.find((u) => u.email === 'admin@example.com')?.id ?? 0;
    });
    afterAll(() => ctx.close());

    it('creates a token: the plaintext once in the 201, only its hash stored, never in the list, export or audit', async () => {
      const res = await send('POST', '/api/api-token', {
        user_id: staffId,
        name: 'DMS export',
        scopes: ['feeds:write'],
        allowed_ips: ['203.0.113.0/24'],
      });
      expect(res.statusCode).toBe(201);
      const { token, ...meta } = res.json().data;
      expect(token).toMatch(/^rp_[0-9A-Za-z]{46}$/);
      expect(meta).toMatchObject({ name: 'DMS export', prefix: token.slice(0, 7), last4: token.slice(-4), state: 'active' });
      // Default expiry: 90 days from today.
      expect(meta.expires_at.slice(0, 10)).toBe(inDays(90));

      const [row] = await ctx.database.db.select().from(apiTokens).where(eq(apiTokens.id, meta.id));
      expect(row?.tokenHash).toBe(storedParts(token).tokenHash);
      expect(JSON.stringify(row)).not.toContain(token);
      const [user] = await ctx.database.db.select().from(users).where(eq(users.id, staffId));
      expect(user?.apiToken).toBe(row?.tokenHash);

      const list = await get('/api/api-token?perPage=200');
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(token);
      expect(list.body).not.toContain(row?.tokenHash);
      const staff = list.json().data.find((u: { id: number }) => u.id === staffId);
      expect(staff).toMatchObject({ api_token: `${token.slice(0, 7)}…${token.slice(-4)}`, token_name: 'DMS export', state: 'active' });
      const exported = await get('/api/api-token/export');
      expect(exported.statusCode).toBe(200);
      expect(exported.body).not.toContain(token);
      const logs = await ctx.database.db.select().from(systemLogs);
      expect(JSON.stringify(logs)).not.toContain(token);
      expect(logs.some((l) => l.action === 'api_token.create')).toBe(true);

      const again = await send('POST', '/api/api-token', { user_id: staffId, name: 'Second', scopes: ['feeds:write'] });
      expect(again.statusCode).toBe(409);
    });

    it('refuses bad input naming the field: name, scopes, expiry, allowed IPs, user', async () => {
      const bad = await send('POST', '/api/api-token', { user_id: adminId, name: '', scopes: ['feeds:write'], expires_at: inDays(0) });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors.name).toEqual(['The Token name field is required']);
      const past = await send('POST', '/api/api-token', { user_id: adminId, name: 'A', scopes: ['feeds:write'], expires_at: inDays(0) });
      expect(past.json().errors).toEqual({ expires_at: ['The Expires must be after today'] });
      const shape = await send('POST', '/api/api-token', {
        user_id: adminId,
        name: 'A',
        scopes: ['feeds:write'],
        expires_at: '12/01/2030',
      });
      expect(shape.statusCode).toBe(422);
      const scopes = await send('POST', '/api/api-token', { user_id: adminId, name: 'A', scopes: [] });
      expect(scopes.statusCode).toBe(400);
      expect(JSON.stringify(scopes.json())).toContain('Scopes');
      const ips = await send('POST', '/api/api-token', {
        user_id: adminId,
        name: 'A',
        scopes: ['feeds:write'],
        allowed_ips: ['example.com'],
      });
      expect(ips.statusCode).toBe(400);
      expect(JSON.stringify(ips.json())).toContain('Allowed IPs');
      const nobody = await send('POST', '/api/api-token', { user_id: 999_999, name: 'A', scopes: ['feeds:write'] });
      expect(nobody.json().errors).toEqual({ user_id: ['The User does not exist'] });
    });

    it('edits, regenerates with a grace period, and revokes; the list filters by token and expiry', async () => {
      const made = (
        await send('POST', '/api/api-token', { user_id: adminId, name: 'Admin tools', scopes: ['feeds:write'], expires_at: 'never' })
      ).json().data;
      expect(made.expires_at).toBeNull();
      const edited = await send('PATCH', `/api/api-token/${made.id}`, { name: 'Admin tooling', scopes: ['feeds:write', 'reports:read'] });
      expect(edited.json().data).toMatchObject({ name: 'Admin tooling', scopes: ['feeds:write', 'reports:read'] });

      const regen = await send('POST', `/api/api-token/${made.id}/regenerate`, { grace_hours: 24 });
      expect(regen.statusCode).toBe(201);
      const fresh = regen.json().data;
      expect(fresh.token).not.toBe(made.token);
      // A token made to never expire stays so.
      expect(fresh.expires_at).toBeNull();
      const [old] = await ctx.database.db.select().from(apiTokens).where(eq(apiTokens.id, made.id));
      expect(old?.revokedAt?.getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
      expect((await send('POST', `/api/api-token/${made.id}/regenerate`, { grace_hours: 73 })).statusCode).toBe(400);

      const withToken = (await get('/api/api-token?has_token=yes&perPage=200')).json().data.map((u: { id: number }) => u.id);
      expect(withToken).toContain(adminId);
      const revoked = await send('POST', `/api/api-token/${fresh.id}/revoke`);
      expect(revoked.json().data.state).toBe('revoked');
      const [oldAfter] = await ctx.database.db.select().from(apiTokens).where(eq(apiTokens.id, made.id));
      expect(oldAfter?.revokedAt?.getTime()).toBeLessThanOrEqual(Date.now());
      const without = (await get('/api/api-token?has_token=no&perPage=200')).json().data.map((u: { id: number }) => u.id);
      expect(without).toContain(adminId);
      expect((await get('/api/api-token?expired=yes')).json().data).toEqual([]);
      // After a revoke the user may be given a new token.
      expect((await send('POST', '/api/api-token', { user_id: adminId, name: 'Next', scopes: ['feeds:write'] })).statusCode).toBe(201);
    });

    it('regenerates an expired token with a fresh expiry: the default 90 days, or the one asked for', async () => {
      const db = ctx.database.db;
      const [live] = await db
        .select()
        .from(apiTokens)
        .where(and(eq(apiTokens.userId, staffId), isNull(apiTokens.revokedAt)));
      if (!live) throw new Error('no staff token');
      await db
        .update(apiTokens)
        .set({ expiresAt: new Date(Date.now() - 86_400_000) })
        .where(eq(apiTokens.id, live.id));
      const regen = await send('POST', `/api/api-token/${live.id}/regenerate`, { grace_hours: 0 });
      expect(regen.statusCode, regen.body).toBe(201);
      const fresh = regen.json().data;
      expect(fresh.state).toBe('active');
      expect(fresh.expires_at.slice(0, 10)).toBe(inDays(90));
      // It works where a token is checked (the ingest endpoint's check).
      const auth = await authenticateToken(db, fresh.token, '203.0.113.9', 'feeds:write', new Date());
      expect(auth.token.id).toBe(fresh.id);

      const bad = await send('POST', `/api/api-token/${fresh.id}/regenerate`, { grace_hours: 0, expires_at: inDays(0) });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({ expires_at: ['The Expires must be after today'] });
      const asked = await send('POST', `/api/api-token/${fresh.id}/regenerate`, { grace_hours: 0, expires_at: inDays(30) });
      expect(asked.statusCode, asked.body).toBe(201);
      expect(asked.json().data.expires_at.slice(0, 10)).toBe(inDays(30));
    });
  });
}
