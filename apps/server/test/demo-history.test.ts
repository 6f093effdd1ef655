import type { AcPerformanceReport, PerformanceReport, ReviewAlertReportCards } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const DAY_MS = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

/**
 * The demo's year of history (apps/server/src/seed/history.ts, docs/decisions/070-demo-history.md)
 * as the reports show it: a Performance Report of the last twelve months grouped by month has a
 * point with responses in (nearly) every month and a change on every card, the AC Performance
 * Report flags a client whose NPS fell and one whose data stopped, and the Review Alerts Report
 * has sent and failed deliveries of reviews that were answered.
 */
for (const kind of testDatabaseKinds()) {
  describe(`Demo history in the reports (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    const get = async <T>(url: string): Promise<T> => {
      const res = await ctx.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: T }).data;
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(() => ctx.close());

    it('gives the Performance Report of the last 12 months, by month, 12 or 13 points with responses', async () => {
      // A year back to tomorrow (every US zone's today): 366 days, the longest range the report takes.
      const r = await get<PerformanceReport>(`/api/reports/performance?from=${day(-364)}&to=${day(1)}&groupBy=month`);
      expect(r.series.bucket).toBe('month');
      const answered = r.series.current.filter((p) => p.responses > 0);
      expect(answered.length).toBeGreaterThanOrEqual(12);
      expect(answered.length).toBeLessThanOrEqual(13);
      expect(answered.every((p) => p.nps !== null)).toBe(true);
      expect(r.rows.filter((row) => row.figures.responses > 0).length).toBeGreaterThanOrEqual(12);
    });

    it('gives every card of the last 30 days something to compare with in the 30 before', async () => {
      const r = await get<PerformanceReport>(`/api/reports/performance?from=${day(-28)}&to=${day(1)}`);
      const before = r.cards.previous;
      for (const key of ['sent', 'delivered', 'responses', 'invites', 'newReviews'] as const) expect(before[key], key).toBeGreaterThan(0);
      for (const key of ['deliveredRate', 'responseRate', 'nps', 'csat', 'avgScore', 'avgReviewRating'] as const)
        expect(before[key], key).not.toBeNull();
    });

    it('flags at least one client at risk for an NPS fall and one for feed data that stopped on the AC Performance Report', async () => {
      const r = await get<AcPerformanceReport>(`/api/reports/ac-performance?from=${day(-28)}&to=${day(1)}`);
      const risks = r.rows.flatMap((b) => b.clients).flatMap((c) => c.risks.map((risk) => risk.kind));
      expect(risks).toContain('nps_drop');
      expect(risks).toContain('no_feed_data');
    });

    it('gives the Review Alerts Report of the last year sent and failed deliveries and replied negative reviews', async () => {
      const db = ctx.database.db;
      const ids = rowsOf(await db.execute(sql`select id from clients order by id`)).map((c) => `client=${String(c.id)}`);
      const cards = await get<ReviewAlertReportCards>(
        `/api/reports/review-alerts/cards?${ids.join('&')}&startDate=${day(-364)}&endDate=${day(1)}`,
      );
      expect(cards.reviews_alerted).toBeGreaterThan(10);
      expect(cards.negative_alerted).toBeGreaterThan(10);
      expect(cards.delivery_failures).toBeGreaterThan(0);
      expect(cards.negative_replied_48h_pct).toBeGreaterThan(0);
      expect(cards.median_hours_to_reply).not.toBeNull();
      // Sent ones went through the messenger: each has its Tracking Logs row.
      const [row] = rowsOf(
        await db.execute(sql`select count(*) filter (where status = 'sent') as sent, count(*) filter (where status = 'sent' and notification_id is null) as unlogged
          from review_alert_deliveries where not test`),
      );
      expect(Number(row?.sent)).toBeGreaterThan(20);
      expect(Number(row?.unlogged)).toBe(0);
    });
  });
}
