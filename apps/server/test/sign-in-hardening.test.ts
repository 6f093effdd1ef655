import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginRefusalSummaries, systemLogs, users } from '../src/db/schema/index.ts';
import { dummyPasswordHash, hashPassword, kdfRuns, parseHash, verifyPassword } from '../src/lib/crypto.ts';
import { backOffSeconds, retryAfterSeconds, SUMMARY_MAX_ACCOUNTS } from '../src/modules/identity/throttle.ts';
import { DEMO_PASSWORD, startTestApp, steppingClock, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * Regression tests for the attacks on `POST /api/login`: account enumeration by timing, locking
 * the real user out from another address, and flooding System Logs with refused attempts.
 * Timing itself is measured in bench/login, never asserted here: these tests check the work done
 * (KDF runs) and the throttle's decisions.
 */

const TOO_MANY = { message: 'Too many failed sign-in attempts. Please wait a few minutes and try again.', statusCode: 429 };
const INVALID = { message: 'Invalid email or password.', statusCode: 401 };
const LIMITS = { windowMinutes: 15, perAccountAndIp: 5, perIp: 30, baseDelaySeconds: 1 };

describe('password hashing does the same work for every account', () => {
  it('the dummy hash parses with the same scrypt parameters and sizes as a real hash', async () => {
    const dummy = parseHash(await dummyPasswordHash());
    const real = parseHash(
      // Made the way the demo accounts' hashes are.
      await hashPassword('some password'),
    );
    expect(dummy).not.toBeNull();
    expect(real).not.toBeNull();
    expect({ N: dummy?.N, r: dummy?.r, p: dummy?.p, salt: dummy?.salt.length, hash: dummy?.hash.length }).toEqual({
      N: real?.N,
      r: real?.r,
      p: real?.p,
      salt: real?.salt.length,
      hash: real?.hash.length,
    });
    // Production's cost: N=2^15.
    expect(real?.N).toBe(32768);
    // Made once per process.
    expect(await dummyPasswordHash()).toBe(await dummyPasswordHash());
  });

  it('a lower configured cost (test runs) makes the dummy and real hashes alike at that cost', async () => {
    const dummy = parseHash(await dummyPasswordHash(10));
    const real = parseHash(await hashPassword('some password', 10));
    expect([dummy?.N, real?.N]).toEqual([1024, 1024]);
    expect(await verifyPassword('some password', await hashPassword('some password', 10), 10)).toBe(true);
    const before = kdfRuns.count;
    expect(await verifyPassword('anything', 'not a hash', 10)).toBe(false);
    expect(kdfRuns.count - before).toBe(1);
  });

  it('the old fixed dummy hash was malformed, and a malformed hash still costs one KDF run and never verifies', async () => {
    const oldDummy = 'scrypt$32768$8$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    expect(parseHash(oldDummy)).toBeNull();
    for (const stored of [oldDummy, '', 'not a hash', 'scrypt$1048576$64$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAA']) {
      const before = kdfRuns.count;
      expect(await verifyPassword('anything', stored)).toBe(false);
      expect(kdfRuns.count - before).toBe(1);
    }
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`sign-in hardening (${kind})`, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await startTestApp(kind);
    });
    afterAll(() => ctx.close());
    afterEach(() => {
      vi.useRealTimers();
    });

    const attempt = (remoteAddress: string, email: string, password: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress });

    /** Runs one sign-in and returns its status and how many KDF runs it caused. */
    async function kdfRunsOf(remoteAddress: string, email: string, password: string) {
      const before = kdfRuns.count;
      const res = await attempt(remoteAddress, email, password);
      return { status: res.statusCode, runs: kdfRuns.count - before };
    }

    it('runs the KDF exactly once for a wrong password, an unknown account and an account without a password', async () => {
      const [noPassword] = await ctx.database.db.select({ email: users.email }).from(users).where(isNull(users.passwordHash)).limit(1);
      if (!noPassword) throw new Error('the demo data has no account without a password');
      expect(await kdfRunsOf('10.10.0.1', 'admin@example.com', 'wrong-password')).toEqual({ status: 401, runs: 1 });
      expect(await kdfRunsOf('10.10.0.1', 'nobody@example.com', 'wrong-password')).toEqual({ status: 401, runs: 1 });
      expect(await kdfRunsOf('10.10.0.1', noPassword.email, 'wrong-password')).toEqual({ status: 401, runs: 1 });
      expect(await kdfRunsOf('10.10.0.1', 'admin@example.com', DEMO_PASSWORD)).toEqual({ status: 200, runs: 1 });
      expect(await kdfRunsOf('10.10.0.1', 'staff@example.com', DEMO_PASSWORD)).toEqual({ status: 403, runs: 1 });
    });

    it('an attacker at one address cannot lock the real user out at another address', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await attempt('10.20.0.1', 'admin@example.com', `guess-${i}`)).statusCode);
      expect(statuses.slice(0, LIMITS.perAccountAndIp)).toEqual(Array(LIMITS.perAccountAndIp).fill(401));
      expect(statuses.slice(LIMITS.perAccountAndIp)).toContain(429);
      const real = await attempt('10.20.0.2', 'admin@example.com', DEMO_PASSWORD);
      expect(real.statusCode).toBe(200);
    });

    it('past the free attempts, each further attempt waits twice as long since the last failure', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const t0 = Date.now() + 3_600_000;
      const at = (seconds: number) => vi.setSystemTime(new Date(t0 + seconds * 1000));
      const ip = '10.30.0.1';
      const wrong = () => attempt(ip, 'admin@example.com', 'wrong-password');
      at(0);
      for (let i = 0; i < LIMITS.perAccountAndIp; i++) expect((await wrong()).statusCode).toBe(401);
      const expectWait = async (seconds: number) => {
        const res = await wrong();
        expect(res.statusCode).toBe(429);
        expect(res.json()).toEqual(TOO_MANY);
        expect(res.headers['retry-after']).toBe(String(seconds));
      };
      await expectWait(1);
      at(1);
      expect((await wrong()).json()).toEqual(INVALID); // 6th failure at 1 s
      await expectWait(2);
      at(2);
      await expectWait(1); // still counted from the last failure, not from the refused attempt
      at(3);
      expect((await wrong()).statusCode).toBe(401); // 7th failure at 3 s
      await expectWait(4);
      at(7);
      expect((await wrong()).statusCode).toBe(401); // 8th failure at 7 s
      await expectWait(8);
      // The right password waits too, and is not even checked while the back-off runs.
      expect(await kdfRunsOf(ip, 'admin@example.com', DEMO_PASSWORD)).toEqual({ status: 429, runs: 0 });
      // Failures older than the window no longer count.
      at(7 + LIMITS.windowMinutes * 60 + 1);
      expect((await attempt(ip, 'admin@example.com', DEMO_PASSWORD)).statusCode).toBe(200);
    });

    it('the wait doubles from the base delay and never exceeds the window', () => {
      const waits = [4, 5, 6, 7, 8, 15, 40].map((failures) => backOffSeconds(failures, LIMITS.perAccountAndIp, LIMITS));
      expect(waits).toEqual([0, 1, 2, 4, 8, 900, 900]);
      const now = new Date('2026-11-23T12:00:00Z');
      const state = (pair: number, ip: number, secondsAgo: number) => ({
        pairFailures: pair,
        pairLastFailure: new Date(now.getTime() - secondsAgo * 1000),
        ipFailures: ip,
        ipLastFailure: new Date(now.getTime() - secondsAgo * 1000),
      });
      expect(retryAfterSeconds(state(4, 29, 0), LIMITS, now)).toBe(0);
      expect(retryAfterSeconds(state(7, 7, 1), LIMITS, now)).toBe(3);
      expect(retryAfterSeconds(state(0, 32, 0.5), LIMITS, now)).toBe(4); // 4 s for the address, 3.5 s left, rounded up
      expect(retryAfterSeconds(state(7, 7, 5), LIMITS, now)).toBe(0);
    });

    it("a successful sign-in resets that account-and-address pair's count", async () => {
      // Each attempt 10 ms after the one before, whatever the machine's speed: on a busy machine
      // the back-off after the free attempts (1 s) could pass between two real attempts, and the
      // last one would be let through.
      const tick = steppingClock();
      const next = (password: string) => {
        tick();
        return attempt('10.40.0.1', 'admin@example.com', password);
      };
      for (let i = 0; i < LIMITS.perAccountAndIp - 1; i++) expect((await next('wrong')).statusCode).toBe(401);
      expect((await next(DEMO_PASSWORD)).statusCode).toBe(200);
      for (let i = 0; i < LIMITS.perAccountAndIp; i++) expect((await next('wrong')).statusCode).toBe(401);
      expect((await next('wrong')).statusCode).toBe(429);
    });

    it('failures from one address across many accounts are throttled per address, with back-off', async () => {
      const ip = '10.50.0.1';
      // Each attempt 10 ms after the one before, as above: a real clock let the back-off lapse at load 5.
      const tick = steppingClock();
      const next = (address: string, email: string, password: string) => {
        tick();
        return attempt(address, email, password);
      };
      for (let i = 0; i < LIMITS.perIp; i++) expect((await next(ip, `someone-${i}@example.com`, 'wrong')).statusCode).toBe(401);
      const limited = await next(ip, 'admin@example.com', DEMO_PASSWORD);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe(String(LIMITS.baseDelaySeconds));
      expect((await next('10.50.0.2', 'admin@example.com', DEMO_PASSWORD)).statusCode).toBe(200);
    });

    it('a flood of refused attempts makes one System Logs row per address and window, with the counts', async () => {
      const ip = '10.60.0.1';
      const accounts = SUMMARY_MAX_ACCOUNTS + 5;
      const password = 'hunter2-secret-guess';
      // The clock stands still, so no back-off runs out while the burst is being answered.
      vi.useFakeTimers({ toFake: ['Date'] });
      // All at once: the first refusals race to create the summary, and to pass the throttle.
      const responses = await Promise.all(
        Array.from({ length: 120 }, (_, i) => attempt(ip, `victim-${i % accounts}@example.com`, password)),
      );
      const statuses = responses.map((r) => r.statusCode);
      const failed = statuses.filter((s) => s === 401).length;
      const throttled = statuses.filter((s) => s === 429).length;
      expect(failed + throttled).toBe(120);
      // The burst is counted one attempt at a time: exactly the address's free attempts check a
      // password, although all of them arrived before the first was recorded.
      expect(failed).toBe(LIMITS.perIp);

      const rows = await ctx.database.db.select().from(systemLogs).where(eq(systemLogs.ip, ip));
      expect(rows).toHaveLength(1);
      const [row] = rows;
      expect(row).toMatchObject({ level: 'warn', service: 'auth', action: 'auth.login.refused_summary', ip });
      const after = row?.after as { failed: number; throttled: number; accounts: string[]; moreAccounts: boolean };
      expect({ failed: after.failed, throttled: after.throttled }).toEqual({ failed, throttled });
      expect(after.accounts).toHaveLength(SUMMARY_MAX_ACCOUNTS);
      expect(after.moreAccounts).toBe(true);
      expect(row?.message).toContain(`${failed} wrong password(s), ${throttled} throttled attempt(s)`);
      expect(JSON.stringify(row)).not.toContain(password);
    });

    it('the first refusal in a new window starts a new summary row; other addresses get their own', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const windowMs = LIMITS.windowMinutes * 60_000;
      const start = (Math.floor(Date.now() / windowMs) + 10) * windowMs;
      const ip = '10.70.0.1';
      vi.setSystemTime(new Date(start + 1_000));
      await attempt(ip, 'admin@example.com', 'wrong');
      vi.setSystemTime(new Date(start + windowMs - 1_000));
      await attempt(ip, 'nobody@example.com', 'wrong');
      await attempt('10.70.0.2', 'admin@example.com', 'wrong');
      vi.setSystemTime(new Date(start + windowMs + 1_000));
      await attempt(ip, 'admin@example.com', 'wrong');
      const summaries = await ctx.database.db
        .select({
          windowStart: loginRefusalSummaries.windowStart,
          failed: loginRefusalSummaries.failed,
          accounts: loginRefusalSummaries.accounts,
        })
        .from(loginRefusalSummaries)
        .where(eq(loginRefusalSummaries.ip, ip))
        .orderBy(loginRefusalSummaries.windowStart);
      expect(summaries).toEqual([
        { windowStart: new Date(start), failed: 2, accounts: ['admin@example.com', 'nobody@example.com'] },
        { windowStart: new Date(start + windowMs), failed: 1, accounts: ['admin@example.com'] },
      ]);
      const [logRows] = await ctx.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'auth.login.refused_summary'), sql`${systemLogs.ip} in ('10.70.0.1', '10.70.0.2')`));
      expect(logRows?.n).toBe(3);
    });

    it('keeps the audit rows of sign-ins and refused accounts', async () => {
      expect((await attempt('10.80.0.1', 'master@example.com', DEMO_PASSWORD)).statusCode).toBe(403);
      const actions = await ctx.database.db
        .select({ action: systemLogs.action })
        .from(systemLogs)
        .where(sql`${systemLogs.action} in ('auth.login', 'auth.login.refused')`);
      expect(new Set(actions.map((a) => a.action))).toEqual(new Set(['auth.login', 'auth.login.refused']));
    });
  });

  describe(`sign-in hardening behind a proxy (${kind})`, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await startTestApp(kind, { trustProxy: 1 });
    });
    afterAll(() => ctx.close());

    it('throttles the client address the trusted proxy reports, not the proxy', async () => {
      // Each attempt 10 ms after the one before, so the back-off cannot lapse between two attempts on a busy machine.
      const tick = steppingClock();
      const via = (client: string, password: string) => {
        tick();
        return ctx.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: 'admin@example.com', password },
          remoteAddress: '10.0.0.1',
          headers: { 'x-forwarded-for': client },
        });
      };
      for (let i = 0; i < LIMITS.perAccountAndIp; i++) expect((await via('203.0.113.7', 'wrong')).statusCode).toBe(401);
      expect((await via('203.0.113.7', 'wrong')).statusCode).toBe(429);
      expect((await via('203.0.113.8', DEMO_PASSWORD)).statusCode).toBe(200);
      const [row] = await ctx.database.db
        .select({ ip: systemLogs.ip })
        .from(systemLogs)
        .where(eq(systemLogs.action, 'auth.login.refused_summary'));
      expect(row?.ip).toBe('203.0.113.7');
    });
  });
}
