import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiCallLogs, apiRefusalSummaries, clientUsers, locations, surveys, systemLogs } from '../src/db/schema/index.ts';
import { installHousekeeping, nextRunAfter } from '../src/housekeeping/job.ts';
import { REFUSAL_WINDOW_MINUTES, REFUSALS_PER_WINDOW } from '../src/modules/api-endpoints/refusals.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { createQueue } from '../src/pipeline/queue.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const WINDOW_MS = REFUSAL_WINDOW_MINUTES * 60_000;

/**
 * Anonymous calls to a known ingest URL (issue 18, item 10; decision 032): no call-log row each,
 * one summary per address and window, 429 without a credential check past the limit; and the
 * call log is pruned by retention.
 */
for (const kind of testDatabaseKinds()) {
  describe(`Refused ingest calls and the call log's retention (${kind})`, () => {
    let ctx: TestContext;
    let locationId: string;
    let token: string;
    const call = (ip: string, authorization?: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/endpoints/${locationId}/transactions`,
        remoteAddress: ip,
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        payload: JSON.stringify([
          { first_name: 'Pat', email: 'pat.refusals@example.com', transaction_id: `R-${ip}`, transaction_date: '2026-01-15' },
        ]),
      });
    const logsOf = (ip: string) => ctx.database.db.select().from(apiCallLogs).where(eq(apiCallLogs.ip, ip));
    const summariesOf = (ip: string) => ctx.database.db.select().from(apiRefusalSummaries).where(eq(apiRefusalSummaries.ip, ip));

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      const headers = bearer(await login(ctx.app, 'admin@example.com'));
      const db = ctx.database.db;
      const [location] = await db.select().from(locations).limit(1);
      locationId = location?.id ?? '';
      const [survey] = await db
        .select()
        .from(surveys)
        .where(eq(surveys.clientId, location?.clientId ?? 0))
        .limit(1);
      const [portal] = await db
        .select()
        .from(clientUsers)
        .where(eq(clientUsers.clientId, location?.clientId ?? 0))
        .limit(1);
      const made = await ctx.app.inject({
        method: 'POST',
        url: '/api/api-token',
        headers,
        payload: { user_id: portal?.userId, name: 'Refusals', scopes: ['feeds:write'] },
      });
      token = made.json().data.token;
      const saved = await ctx.app.inject({
        method: 'PUT',
        url: `/api/api-endpoints/${locationId}`,
        headers,
        payload: { survey_id: survey?.id, rate_limit_per_min: 6000 },
      });
      expect(saved.statusCode).toBe(200);
    });
    afterEach(() => {
      vi.useRealTimers();
    });
    afterAll(() => ctx.close());

    it('counts a flood of anonymous calls in one summary per address and window, throttles it unchecked, and keeps real calls in view', async () => {
      // The clock stands still a second into a window, moved by hand.
      vi.useFakeTimers({ toFake: ['Date'] });
      const start = Math.ceil(Date.now() / WINDOW_MS) * WINDOW_MS + 1000;
      vi.setSystemTime(start);
      const ip = '192.0.2.50';
      const lookups = vi.spyOn(ctx.app.apiTokens, 'authenticate');
      const answers: number[] = [];
      for (let i = 0; i < REFUSALS_PER_WINDOW + 15; i++)
        answers.push((await call(ip, i % 2 === 0 ? undefined : 'Bearer rp_guess')).statusCode);
      expect(answers.filter((s) => s === 401)).toHaveLength(REFUSALS_PER_WINDOW);
      expect(answers.slice(REFUSALS_PER_WINDOW)).toEqual(Array.from({ length: 15 }, () => 429));
      // Past the limit no credential is looked up, even a real one's.
      lookups.mockClear();
      const blocked = await call(ip, `Bearer ${token}`);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.headers['retry-after']).toBe(String(WINDOW_MS / 1000 - 1));
      expect(lookups).not.toHaveBeenCalled();
      lookups.mockRestore();

      expect(await logsOf(ip)).toEqual([]);
      // Throttled calls reach the summary at most every 10 s: 11 s later the next one writes them all.
      vi.setSystemTime(start + 11_000);
      expect((await call(ip)).statusCode).toBe(429);
      const [summary, ...others] = await summariesOf(ip);
      expect(others).toEqual([]);
      expect(summary).toMatchObject({ refused: REFUSALS_PER_WINDOW, throttled: 17, endpoints: [locationId], moreEndpoints: false });
      const logs = await ctx.database.db.select().from(systemLogs).where(eq(systemLogs.ip, ip));
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ level: 'warn', service: 'api', action: 'api.ingest.refused_summary' });
      expect(logs[0]?.message).toContain(`${REFUSALS_PER_WINDOW} without a valid credential, 17 throttled`);

      // Another address with the token: answered, and the one call in the endpoint's recent calls.
      expect((await call('192.0.2.51', `Bearer ${token}`)).statusCode).toBe(200);
      expect(await logsOf('192.0.2.51')).toHaveLength(1);

      // The next window: the address is checked again, in a new summary.
      vi.setSystemTime(start + WINDOW_MS);
      expect((await call(ip)).statusCode).toBe(401);
      expect(await summariesOf(ip)).toHaveLength(2);
    });

    it('writes one summary and one System Logs row for parallel refusals from one address', async () => {
      const ip = '192.0.2.60';
      const answers = await Promise.all(Array.from({ length: 30 }, () => call(ip)));
      expect(answers.map((a) => a.statusCode)).toEqual(Array.from({ length: 30 }, () => 401));
      const summaries = await summariesOf(ip);
      expect(summaries.reduce((total, s) => total + s.refused, 0)).toBe(30);
      // A window may turn during the burst: at most two then, never one per call.
      expect(summaries.length).toBeLessThanOrEqual(2);
      const logs = await ctx.database.db.select().from(systemLogs).where(eq(systemLogs.ip, ip));
      expect(logs).toHaveLength(summaries.length);
      expect(await logsOf(ip)).toEqual([]);
    });

    it('prunes call-log rows and refusal summaries past the retention, on the daily housekeeping job', async () => {
      const db = ctx.database.db;
      const now = new Date();
      const old = new Date(now.getTime() - 31 * 86_400_000);
      const recent = new Date(now.getTime() - 29 * 86_400_000);
      const base = { locationId, ip: '192.0.2.70', statusCode: 200 };
      await db.insert(apiCallLogs).values([
        { ...base, receivedAt: old },
        { ...base, receivedAt: old },
        { ...base, receivedAt: recent },
      ]);
      const summary = { systemLogId: 0, endpoints: [locationId], firstAt: old, lastAt: old };
      await db.insert(apiRefusalSummaries).values([
        { ...summary, ip: '192.0.2.71', windowStart: old },
        { ...summary, ip: '192.0.2.72', windowStart: recent },
      ]);
      // A worker's first poll queues the day's housekeeping run (docs/decisions/073-housekeeping.md);
      // a queue of that job alone, so the demo's next-day work is not run too.
      const queue = createQueue(db, movableClock(now));
      installHousekeeping(queue, db, ctx.config.retention);
      await queue.runDue(now);
      await queue.runDue(nextRunAfter(now));
      expect((await logsOf('192.0.2.70')).map((r) => r.receivedAt.getTime())).toEqual([recent.getTime()]);
      expect(await summariesOf('192.0.2.71')).toEqual([]);
      expect(await summariesOf('192.0.2.72')).toHaveLength(1);
    });
  });
}
