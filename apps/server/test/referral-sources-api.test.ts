import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

for (const kind of testDatabaseKinds()) {
  describe(`referral sources API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH', url: string, payload: unknown) =>
      ctx.app.inject({ method, url, headers, payload: payload as Record<string, unknown> });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(() => ctx.close());

    it("lists the client's own sources with the global defaults, filterable by scope", async () => {
      const all = (await get('/api/referral-source')).json();
      expect(all.total).toBe(7);
      expect(all.data.filter((s: { client_name: string }) => s.client_name === 'All clients')).toHaveLength(5);
      expect((await get('/api/referral-source?scope=global')).json().total).toBe(5);
      expect((await get('/api/referral-source?scope=client')).json().total).toBe(2);
      expect((await get('/api/referral-source?type=advertising')).json().total).toBe(2);
    });

    it('creates client and global sources with per-owner unique codes and the form rules', async () => {
      const bad = await send('POST', '/api/referral-source', { name: 'X', code: 'X', type: 'telepathy' });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({ type: ['The Type field must be a valid value'] });
      const own = await send('POST', '/api/referral-source', { name: 'Google search (ours)', code: 'GOOGLE', type: 'online' });
      expect(own.statusCode).toBe(201); // the global GOOGLE does not clash with a client's own
      expect(own.json().data.client_id).not.toBeNull();
      const dupGlobal = await send('POST', '/api/referral-source', { name: 'Google again', code: 'google', type: 'online', global: true });
      expect(dupGlobal.statusCode).toBe(409);
      const global = await send('POST', '/api/referral-source', { name: 'Radio', code: 'RADIO', type: 'advertising', global: true });
      expect(global.json().data).toMatchObject({ client_id: null, client_name: 'All clients' });
      const id = global.json().data.id;
      const renamed = (
        await send('PATCH', `/api/referral-source/${id}`, { name: 'Local radio', updated_at: global.json().data.updated_at })
      ).json().data;
      expect(renamed.name).toBe('Local radio');
      expect(
        (await send('PATCH', `/api/referral-source/${id}/status`, { status: 'paused', updated_at: renamed.updated_at })).json().data.status,
      ).toBe('paused');
    });
  });
}
