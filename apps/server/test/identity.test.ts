import { loginRejectionMessage } from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, systemLogs, users } from '../src/db/schema/index.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { bearer, login, startTestApp, steppingClock, type TestContext, testDatabaseKinds } from './helpers.ts';

for (const kind of testDatabaseKinds()) {
  describe(`identity (${kind})`, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await startTestApp(kind, { cookieDomain: 'example.test' });
    });
    afterAll(() => ctx.close());

    const post = (payload: unknown, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'POST', url: '/api/login', payload: payload as object, headers });

    it('signs the admin in: a random token, stored only as its hash, and the ssoToken cookie', async () => {
      const res = await post({ email: 'Admin@Example.com', password: 'demo-password' });
      expect(res.statusCode).toBe(200);
      const token = (res.json() as { data: { token: string } }).data.token;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toContain(`ssoToken=${token}`);
      expect(cookie).toContain('Path=/');
      expect(cookie).toContain('Domain=example.test');
      expect(cookie).toContain('SameSite=Lax');
      expect(cookie).not.toContain('HttpOnly');
      const stored = await ctx.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, sha256Hex(token)));
      expect(stored).toHaveLength(1);
      const plain = await ctx.database.db.select().from(sessions).where(eq(sessions.tokenHash, token));
      expect(plain).toHaveLength(0);
    });

    it('stores passwords as scrypt hashes of the configured cost', async () => {
      const [admin] = await ctx.database.db.select().from(users).where(eq(users.email, 'admin@example.com'));
      // Tests hash at cost 10 (N=1024); production's N=2^15 is checked in sign-in-hardening.test.ts.
      expect(admin?.passwordHash).toMatch(new RegExp(`^scrypt\\$${2 ** ctx.config.passwordHashCost}\\$8\\$1\\$`));
    });

    it('answers GET /api/user with the user and nothing secret', async () => {
      const token = await login(ctx.app, 'admin@example.com');
      const res = await ctx.app.inject({ method: 'GET', url: '/api/user', headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      const { user } = (res.json() as { data: { user: Record<string, unknown> } }).data;
      expect(user).toMatchObject({ name: 'Ada Admin', email: 'admin@example.com', is_superadmin: 1 });
      expect(Object.keys(user).sort()).toEqual(['current_client_id', 'email', 'id', 'is_superadmin', 'name']);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('refuses wrong passwords and unknown accounts alike with 401', async () => {
      for (const payload of [
        { email: 'admin@example.com', password: 'wrong-password' },
        { email: 'nobody@example.com', password: 'demo-password' },
      ]) {
        const res = await post(payload, { 'x-forwarded-for': '10.0.0.1' });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ message: 'Invalid email or password.', statusCode: 401 });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    });

    it('refuses a non-super-admin and the retired master with the spec message and no cookie', async () => {
      for (const email of ['staff@example.com', 'master@example.com']) {
        const res = await post({ email, password: 'demo-password' });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: loginRejectionMessage(email), statusCode: 403 });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    });

    it('names the field for bad input and rejects unknown fields', async () => {
      const missing = await post({ email: 'not-an-email' });
      expect(missing.statusCode).toBe(400);
      expect(Object.keys(missing.json().errors).sort()).toEqual(['email', 'password']);
      expect(missing.json().errors.email).toEqual(['The Email field must be a valid email']);
      const extra = await post({ email: 'admin@example.com', password: 'demo-password', role: 'root' });
      expect(extra.statusCode).toBe(400);
      expect(extra.json().errors).toEqual({ role: ['This field is not allowed.'] });
    });

    it('never answers 500 to malformed requests', async () => {
      const bad = [
        { payload: '{"email":', headers: { 'content-type': 'application/json' } },
        { payload: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        { payload: '[]', headers: { 'content-type': 'application/json' } },
        { payload: 'null', headers: { 'content-type': 'application/json' } },
        { payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2_000_000) }), headers: { 'content-type': 'application/json' } },
      ];
      for (const b of bad) {
        const res = await ctx.app.inject({ method: 'POST', url: '/api/login', payload: b.payload, headers: b.headers });
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
        expect(res.json()).toMatchObject({ statusCode: res.statusCode, message: expect.any(String) });
      }
      const longToken = await ctx.app.inject({ method: 'GET', url: '/api/user', headers: bearer('a'.repeat(10_000)) });
      expect(longToken.statusCode).toBe(401);
    });

    it('throttles repeated failures for an account at one address with 429, and only there', async () => {
      const email = 'ratelimit@example.com';
      // Each attempt 10 ms after the one before, whatever the machine's speed: on a busy machine the
      // back-off after the free attempts (1 s) could lapse between two real attempts.
      const tick = steppingClock();
      const from = (remoteAddress: string, password: string, account = email) => {
        tick();
        return ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: account, password }, remoteAddress });
      };
      for (let i = 0; i < ctx.config.loginLimits.perAccountAndIp; i++) {
        expect((await from('10.1.0.1', 'wrong-password')).statusCode).toBe(401);
      }
      const limited = await from('10.1.0.1', 'wrong-password');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        message: 'Too many failed sign-in attempts. Please wait a few minutes and try again.',
        statusCode: 429,
      });
      // Back-off: the first wait is the base delay, not the whole window.
      expect(limited.headers['retry-after']).toBe(String(ctx.config.loginLimits.baseDelaySeconds));
      // The same account from another address, and other accounts from this one, are unaffected.
      expect((await from('10.1.0.2', 'wrong-password')).statusCode).toBe(401);
      expect((await from('10.1.0.1', 'demo-password', 'admin@example.com')).statusCode).toBe(200);
    });

    it('sign-out revokes the token on the server and expires the cookie', async () => {
      const token = await login(ctx.app, 'admin@example.com');
      const out = await ctx.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) });
      expect(out.statusCode).toBe(204);
      const cookie = String(out.headers['set-cookie']);
      expect(cookie).toMatch(/ssoToken=;/);
      expect(cookie).toContain('Expires=Thu, 01 Jan 1970');
      expect(cookie).toContain('Domain=example.test');
      const after = await ctx.app.inject({ method: 'GET', url: '/api/user', headers: bearer(token) });
      expect(after.statusCode).toBe(401);
      const [row] = await ctx.database.db
        .select({ revoked: sql<boolean>`${sessions.revokedAt} is not null` })
        .from(sessions)
        .where(eq(sessions.tokenHash, sha256Hex(token)));
      expect(row?.revoked).toBe(true);
    });

    it('sign-out with only the ssoToken cookie (no Authorization header) revokes that session too', async () => {
      const signedIn = await ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'admin@example.com', password: 'demo-password' },
      });
      const cookie = signedIn.cookies.find((c) => c.name === 'ssoToken');
      const token = (signedIn.json() as { data: { token: string } }).data.token;
      expect(cookie?.value).toBe(token);
      const out = await ctx.app.inject({ method: 'POST', url: '/api/logout', cookies: { ssoToken: cookie?.value ?? '' } });
      expect(out.statusCode).toBe(204);
      expect(String(out.headers['set-cookie'])).toMatch(/ssoToken=;/);
      const after = await ctx.app.inject({ method: 'GET', url: '/api/user', headers: bearer(token) });
      expect(after.statusCode).toBe(401);
    });

    it('records sign-ins in the audit log', async () => {
      const [row] = await ctx.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(systemLogs)
        .where(eq(systemLogs.action, 'auth.login'));
      expect(row?.n).toBeGreaterThan(0);
    });
  });
}
