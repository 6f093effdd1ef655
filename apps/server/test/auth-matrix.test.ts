import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../src/db/schema/index.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { bearer, login, sessionFor, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/** Routes that are public on purpose. Adding one must be a conscious change to this list. */
const PUBLIC_API_ROUTES = ['POST /api/login', 'POST /api/logout', 'POST /api/public/responses/:token', 'GET /api/public/testimonials'];

for (const kind of testDatabaseKinds()) {
  describe(`auth matrix over every /api route (${kind})`, () => {
    let ctx: TestContext;
    const tokens: Record<string, string> = {};

    beforeAll(async () => {
      ctx = await startTestApp(kind, { clockControl: true });
      tokens.admin = await login(ctx.app, 'admin@example.com');
      tokens.staff = await sessionFor(ctx, 'staff@example.com');
      tokens.master = await sessionFor(ctx, 'master@example.com');
      tokens.expired = await sessionFor(ctx, 'admin@example.com');
      await ctx.database.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.tokenHash, sha256Hex(tokens.expired)));
      tokens.idle = await sessionFor(ctx, 'admin@example.com');
      await ctx.database.db
        .update(sessions)
        .set({ idleExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.tokenHash, sha256Hex(tokens.idle)));
    });
    afterAll(() => ctx.close());

    const apiRoutes = () => ctx.app.routeTable.filter((r) => r.url.startsWith('/api'));
    const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
    const concrete = (url: string) => url.replace(/:[A-Za-z_]+/g, '1');

    it('declares exactly the expected public routes', () => {
      const publicRoutes = apiRoutes()
        .filter((r) => r.access === 'public')
        .map(key)
        .sort();
      expect(publicRoutes).toEqual([...PUBLIC_API_ROUTES].sort());
      expect(apiRoutes().length).toBeGreaterThanOrEqual(8);
    });

    const cases: { name: string; headers: () => Record<string, string>; expected: number }[] = [
      { name: 'no token', headers: () => ({}), expected: 401 },
      { name: 'a malformed header', headers: () => ({ authorization: 'Token abc' }), expected: 401 },
      { name: 'an unknown token', headers: () => bearer('x'.repeat(43)), expected: 401 },
      { name: 'an expired token', headers: () => bearer(tokens.expired ?? ''), expected: 401 },
      { name: 'an idle-expired token', headers: () => bearer(tokens.idle ?? ''), expected: 401 },
      { name: 'a non-super-admin', headers: () => bearer(tokens.staff ?? ''), expected: 403 },
      { name: 'the retired master', headers: () => bearer(tokens.master ?? ''), expected: 403 },
    ];

    for (const c of cases) {
      it(`refuses ${c.name} on every protected route with ${c.expected}`, async () => {
        const protectedRoutes = apiRoutes().filter((r) => r.access === 'superadmin');
        expect(protectedRoutes.length).toBeGreaterThan(0);
        for (const route of protectedRoutes) {
          const res = await ctx.app.inject({
            method: route.method as 'GET',
            url: concrete(route.url),
            headers: c.headers(),
            ...(route.method === 'GET' ? {} : { payload: {} }),
          });
          expect({ route: key(route), status: res.statusCode }).toEqual({ route: key(route), status: c.expected });
          expect(res.json()).toMatchObject({ statusCode: c.expected, message: expect.any(String) });
        }
      });
    }

    it('lets the admin through every protected route (never 401, 403 or 500)', async () => {
      for (const route of apiRoutes().filter((r) => r.access === 'superadmin' && r.url !== '/api/logout')) {
        const res = await ctx.app.inject({
          method: route.method as 'GET',
          url: concrete(route.url),
          headers: bearer(tokens.admin ?? ''),
          ...(route.method === 'GET' ? {} : { payload: {} }),
        });
        expect({ route: key(route), ok: ![401, 403].includes(res.statusCode) && res.statusCode < 500 }).toEqual({
          route: key(route),
          ok: true,
        });
      }
    });

    // Machine routes (`{ token: scope }`, e.g. the ingest endpoint) take an API token only: no session opens them.
    it("refuses every session, even the admin's, on machine routes with 401", async () => {
      const machineRoutes = apiRoutes().filter((r) => typeof r.access === 'object' && 'token' in r.access);
      expect(machineRoutes.length).toBeGreaterThan(0);
      for (const route of machineRoutes) {
        for (const token of [tokens.admin, tokens.staff, undefined]) {
          const res = await ctx.app.inject({
            method: route.method as 'POST',
            url: concrete(route.url),
            headers: token ? bearer(token) : {},
            payload: [],
          });
          expect({ route: key(route), status: res.statusCode }).toEqual({ route: key(route), status: 401 });
        }
      }
    });

    // Provider callbacks (`{ signed: check }`) are opened by their signature alone: a session, the
    // admin's included, or nothing at all, with no signature, is refused.
    it('refuses unsigned requests on provider callback routes, whatever session comes with them', async () => {
      const signedRoutes = apiRoutes().filter((r) => typeof r.access === 'object' && 'signed' in r.access);
      for (const route of signedRoutes) {
        for (const token of [tokens.admin, tokens.staff, undefined]) {
          const res = await ctx.app.inject({
            method: route.method as 'POST',
            url: concrete(route.url),
            headers: token ? bearer(token) : {},
            payload: {},
          });
          expect({ route: key(route), refused: [400, 403, 415].includes(res.statusCode) }).toEqual({ route: key(route), refused: true });
        }
      }
    });

    it('answers unknown /api paths with 401 to strangers and 404 to the admin', async () => {
      expect((await ctx.app.inject({ method: 'GET', url: '/api/nope' })).statusCode).toBe(401);
      const res = await ctx.app.inject({ method: 'GET', url: '/api/nope', headers: bearer(tokens.admin ?? '') });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, message: expect.stringContaining('/api/nope') });
    });
  });
}
