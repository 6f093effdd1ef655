import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, systemLogs, users } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

type RootTeam = { id: number; name: string; clientId: number; clientName: string };

for (const kind of testDatabaseKinds()) {
  describe(`the calls the shell makes (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(() => ctx.close());

    it('lists the root team of every active client, by client name', async () => {
      const res = await get('/api/client-root-teams');
      expect(res.statusCode).toBe(200);
      const teams = res.json().data as RootTeam[];
      expect(teams).toHaveLength(12);
      expect(teams[0]).toEqual({
        id: expect.any(Number),
        name: expect.any(String),
        clientId: expect.any(Number),
        clientName: expect.any(String),
      });
      const names = teams.map((t) => t.clientName);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    });

    it('lists the current client users, never the reserved id 1000', async () => {
      const res = await get('/api/clients-user-list');
      expect(res.statusCode).toBe(200);
      const list = res.json().data as { id: number; name: string }[];
      expect(list.length).toBeGreaterThanOrEqual(3);
      expect(list.every((u) => u.id > 1000 && Object.keys(u).length === 2)).toBe(true);
    });

    it('gets a user by id; bad ids are 400, unknown 404', async () => {
      const me = (await get('/api/user')).json().data.user as { id: number };
      expect((await get(`/api/get-user/${me.id}`)).json().data).toMatchObject({ id: me.id, name: 'Ada Admin' });
      expect((await get('/api/get-user/abc')).statusCode).toBe(400);
      expect((await get('/api/get-user/1000')).statusCode).toBe(400);
      expect((await get('/api/get-user/99999999999')).statusCode).toBe(400);
      const missing = await get('/api/get-user/999999');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: 'User not found.', statusCode: 404 });
    });

    it('gets a client by id', async () => {
      const [first] = (await get('/api/client-root-teams')).json().data as RootTeam[];
      const res = await get(`/api/clients/${first?.clientId}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        id: first?.clientId,
        name: first?.clientName,
        status: 'active',
        default_review_site: 'google',
      });
      expect((await get('/api/clients/0')).statusCode).toBe(400);
      expect((await get('/api/clients/424242')).statusCode).toBe(404);
    });

    it('switches the current client, audits it, and the user list follows', async () => {
      const teams = (await get('/api/client-root-teams')).json().data as RootTeam[];
      const target = teams[5];
      if (!target) throw new Error('demo data has fewer clients than expected');
      const before = (await get('/api/clients-user-list')).json().data;
      const res = await ctx.app.inject({ method: 'PUT', url: `/api/users/switch-client/${target.clientId}`, headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.current_client_id).toBe(target.clientId);
      expect((await get('/api/user')).json().data.user.current_client_id).toBe(target.clientId);
      const after = (await get('/api/clients-user-list')).json().data;
      expect(after).not.toEqual(before);
      const [log] = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(eq(systemLogs.action, 'user.switch_client'))
        .orderBy(sql`${systemLogs.id} desc`)
        .limit(1);
      expect(log).toMatchObject({ clientId: target.clientId, entityType: 'user', after: { current_client_id: target.clientId } });
      expect(log?.requestId).toBeTruthy();
    });

    it('refuses to switch to an unknown (404) or archived (409) client', async () => {
      expect((await ctx.app.inject({ method: 'PUT', url: '/api/users/switch-client/999999', headers })).statusCode).toBe(404);
      const [archived] = await ctx.database.db.insert(clients).values({ name: 'Archived Co', status: 'inactive' }).returning();
      const res = await ctx.app.inject({ method: 'PUT', url: `/api/users/switch-client/${archived?.id}`, headers });
      expect(res.statusCode).toBe(409);
      expect(res.json().errors).toHaveProperty('clientId');
    });

    it('never gives a real user the reserved id 1000', async () => {
      const [{ min } = { min: 0 }] = await ctx.database.db.select({ min: sql<number>`min(${users.id})::int` }).from(users);
      expect(min).toBeGreaterThanOrEqual(1001);
      await expect(ctx.database.db.insert(users).values({ id: 1000, name: 'x', email: 'x@example.com' })).rejects.toThrow();
    });

    it('sends the security headers', async () => {
      const res = await get('/api/client-root-teams');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
      expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
      expect(res.headers['referrer-policy']).toBeTruthy();
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
}
