import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

type RootTeam = { clientId: number; clientName: string };

/**
 * Two tabs, two clients (issue 19, item 1): the console names the client its tab shows in
 * `X-Client-Id`; a call naming another client than the user's current one (switched in another
 * tab) is refused with 409 and writes nothing.
 */
for (const kind of testDatabaseKinds()) {
  describe(`the client a tab shows (${kind})`, () => {
    let ctx: TestContext;
    let auth: Record<string, string>;
    let x: RootTeam;
    let y: RootTeam;
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, client: number | string | null, payload?: Record<string, unknown>) =>
      ctx.app.inject({
        method,
        url,
        headers: { ...auth, ...(client === null ? {} : { 'x-client-id': String(client) }) },
        ...(payload ? { payload } : {}),
      });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      auth = bearer(await login(ctx.app, 'admin@example.com'));
      const teams = (await call('GET', '/api/client-root-teams', null)).json().data as RootTeam[];
      const [first, second] = teams;
      if (!first || !second) throw new Error('demo data has fewer clients than expected');
      [x, y] = [first, second];
      // Tab A shows X; tab B then switches to Y.
      expect((await call('PUT', `/api/users/switch-client/${x.clientId}`, null)).statusCode).toBe(200);
      expect((await call('PUT', `/api/users/switch-client/${y.clientId}`, x.clientId)).statusCode).toBe(200);
    });
    afterAll(() => ctx.close());

    it("refuses tab A's write (409, naming both clients) and saves nothing", async () => {
      const res = await call('POST', '/api/product', x.clientId, { name: 'Saved where?', code: 'TWO-TABS' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(
        `This tab shows ${x.clientName}, but your current client is now ${y.clientName} (switched in another tab or window). ` +
          'Nothing was read or saved: choose the client in this tab, then try again.',
      );
      expect(res.headers['x-current-client-id']).toBe(String(y.clientId));
      expect(await ctx.database.db.select().from(products).where(eq(products.code, 'TWO-TABS'))).toEqual([]);
    });

    it("refuses tab A's reads too, so it never lists Y's records under X", async () => {
      expect((await call('GET', '/api/product', x.clientId)).statusCode).toBe(409);
    });

    it('lets a tab naming the current client write, and calls without the header are scoped as before', async () => {
      const created = await call('POST', '/api/product', y.clientId, { name: 'Saved under Y', code: 'TAB-B' });
      expect(created.statusCode).toBe(201);
      expect(created.json().data.client_id).toBe(y.clientId);
      expect((await call('GET', '/api/product', null)).statusCode).toBe(200);
    });

    it("still lets tab A load the switcher's clients and switch back", async () => {
      expect((await call('GET', '/api/client-root-teams', x.clientId)).statusCode).toBe(200);
      expect((await call('GET', '/api/user', x.clientId)).statusCode).toBe(200);
      expect((await call('PUT', `/api/users/switch-client/${x.clientId}`, x.clientId)).statusCode).toBe(200);
      expect((await call('POST', '/api/product', x.clientId, { name: 'Saved under X', code: 'TAB-A' })).statusCode).toBe(201);
    });

    it('refuses a header that is not a client id (400)', async () => {
      expect((await call('GET', '/api/product', 'abc')).statusCode).toBe(400);
    });
  });
}
