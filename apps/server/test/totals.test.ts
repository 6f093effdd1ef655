import { LOG_LEVELS } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { ESTIMATE_TTL_MS, EXACT_COUNT_LIMIT } from '../src/kit/totals.ts';
import { generateSystemLogs } from '../src/seed/system-logs.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

type Page = { total: number; totalIsEstimate: boolean };

/** An estimate is sane when it is within a factor of 1.5 of the real count. */
const SANE = 1.5;

for (const kind of testDatabaseKinds()) {
  describe(`estimated totals past ${EXACT_COUNT_LIMIT.toLocaleString()} rows (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    const page = async (query: string) => {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/system-logs?perPage=1${query}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Page;
    };
    const count = async (where = sql`true`) =>
      Number(rowsOf(await ctx.database.db.execute(sql`select count(*)::int as n from system_logs where ${where}`))[0]?.n);
    const analyzeCount = async () =>
      Number(
        rowsOf(await ctx.database.db.execute(sql`select analyze_count::int as n from pg_stat_user_tables where relname = 'system_logs'`))[0]
          ?.n ?? 0,
      );
    const expectNear = (p: Page, real: number) => {
      expect(p.totalIsEstimate).toBe(true);
      expect(p.total).not.toBe(EXACT_COUNT_LIMIT + 1);
      expect(p.total).toBeGreaterThanOrEqual(real / SANE);
      expect(p.total).toBeLessThanOrEqual(real * SANE);
    };

    beforeAll(async () => {
      // The demo data: 20,000+ System Logs rows. The copy comes analyzed (the run seeds it once,
      // decision 064): its statistics are removed, as a table freshly written has none.
      ctx = await startTestApp(kind);
      await ctx.database.db.execute(sql`delete from pg_statistic where starelid = 'system_logs'::regclass`);
      await ctx.database.db.execute(sql`update pg_class set reltuples = -1 where oid = 'system_logs'::regclass`);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(() => ctx.close());

    it('estimates the real count of an unfiltered list, not the 10,001 rows it counted', async () => {
      const real = await count();
      expect(real).toBeGreaterThan(20_000);
      expectNear(await page(''), real);
    });

    it('estimates the real count with every level chosen (the reported case) and with some levels', async () => {
      const real = await count();
      expectNear(await page(LOG_LEVELS.map((l) => `&level=${l}`).join('')), real);
      const some = await count(sql`level in ('info', 'debug')`);
      expect(some).toBeGreaterThan(EXACT_COUNT_LIMIT);
      expectNear(await page('&level=info&level=debug'), some);
    });

    it('refreshes missing statistics once, not on every request', async () => {
      const before = await analyzeCount();
      expect(before).toBeGreaterThanOrEqual(1);
      for (let i = 0; i < 5; i++) await page('');
      expect(await analyzeCount()).toBe(before);
    });

    it('answers an estimate again for a few seconds, then follows the table as it grows', async () => {
      // The clock stands still (only Date is faked), however long generating the rows takes.
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        const before = await page('');
        const staff = rowsOf(await ctx.database.db.execute(sql`select id from users where is_superadmin = 1`)).map((u) => Number(u.id));
        await generateSystemLogs(ctx.database.db, { count: 30_000, anchor: new Date(), days: 30, userIds: staff, clientIds: [1] });
        const real = await count();
        expect(real).toBeGreaterThan(50_000);
        // Within ESTIMATE_TTL_MS the same query gets the same estimate without counting again.
        expect(await page('')).toEqual(before);
        vi.setSystemTime(Date.now() + ESTIMATE_TTL_MS + 1);
        expectNear(await page(''), real);
        expectNear(await page('&level=info'), await count(sql`level = 'info'`));
      } finally {
        vi.useRealTimers();
      }
    });

    it('still counts exactly up to the limit', async () => {
      const p = await page('&level=error&startDate=2000-01-01&endDate=2000-01-31');
      expect(p).toEqual({ ...p, total: 0, totalIsEstimate: false });
    });
  });
}
