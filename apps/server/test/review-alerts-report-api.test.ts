import { parseCsv, type ReviewAlertReportCards, type ReviewAlertReportRow } from '@admin/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { reviewAlertDeliveries, systemLogs } from '../src/db/schema/index.ts';
import { boundedRead } from '../src/lib/bounded-read.ts';
import { deliverDue } from '../src/review-alerts/deliver.ts';
import { testDatabaseKinds } from './helpers.ts';
import { FROM, openReportWorld, type ReportWorld, TO } from './review-alerts-report-bed.ts';

type Page = { data: ReviewAlertReportRow[]; total: number; nextCursor: string | null };
const PATH = '/api/reports/review-alerts';

/** The cards recomputed from the raw rows, the way domain.md §27 defines them. */
function cardsFromRaw(rows: Record<string, unknown>[]): ReviewAlertReportCards {
  const reviews = new Map<number, { rating: number; hours: number | null }>();
  let failures = 0;
  for (const r of rows) {
    if (r.status === 'failed') failures++;
    const created = new Date(String(r.review_created_at)).getTime();
    const hours = r.replied_at === null ? null : (new Date(String(r.replied_at)).getTime() - created) / 3_600_000;
    reviews.set(Number(r.review_id), { rating: Number(r.rating), hours });
  }
  const all = [...reviews.values()];
  const negative = all.filter((r) => r.rating <= 2);
  const replied = negative.filter((r) => r.hours !== null && r.hours <= 48).length;
  const hours = all.flatMap((r) => (r.hours === null ? [] : [r.hours])).sort((a, b) => a - b);
  const mid = hours.length / 2;
  const median =
    hours.length === 0 ? null : hours.length % 2 ? (hours[Math.floor(mid)] ?? 0) : ((hours[mid - 1] ?? 0) + (hours[mid] ?? 0)) / 2;
  return {
    reviews_alerted: all.length,
    negative_alerted: negative.length,
    delivery_failures: failures,
    negative_replied_48h_pct: negative.length === 0 ? null : Math.round((replied / negative.length) * 1000) / 10,
    median_hours_to_reply: median === null ? null : Math.round(median * 10) / 10,
  };
}

for (const kind of testDatabaseKinds()) {
  describe(`Review Alerts Report API (${kind})`, () => {
    let w: ReportWorld;
    const get = (url: string) => w.ctx.app.inject({ method: 'GET', url, headers: w.headers });
    const page = async (query: string, range = `startDate=${FROM}&endDate=${TO}`) => {
      const res = await get(`${PATH}?client=${w.clientId}&${range}&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Page;
    };
    const names = async (query: string) => {
      const byId = new Map(Object.entries(w.ids).map(([k, v]) => [v, k]));
      return (await page(query)).data.map((r) => byId.get(r.id));
    };
    const resend = (id: number) => w.ctx.app.inject({ method: 'POST', url: `${PATH}/${id}/resend`, headers: w.headers });

    beforeAll(async () => {
      w = await openReportWorld(kind);
    });
    afterAll(() => w.ctx.close());

    it('lists one row per alert delivery, newest first, test sends left out, with the review, rule and reply', async () => {
      const p = await page('');
      expect(p.total).toBe(5);
      expect(p.data.map((r) => r.id)).toEqual([w.ids.r4Email, w.ids.r3Email, w.ids.r2Email, w.ids.r1Sms, w.ids.r1Email]);
      const r2 = p.data.find((r) => r.id === w.ids.r2Email);
      expect(r2).toMatchObject({
        client_id: w.clientId,
        site: 'yelp',
        rating: 2,
        reviewer: 'Reviewer r2',
        url: 'https://reviews.example/r2',
        recipient: 'owner@bed.example',
        delivery_status: 'sent',
        review_created_at: '2024-03-03T12:00:00.000Z',
        replied_at: '2024-03-06T12:00:00.000Z',
        hours_to_reply: 72,
      });
      expect(r2?.excerpt?.length).toBe(140);
      expect(r2?.rule_name).toBeTruthy();
      expect(r2?.location_name).toBeTruthy();
    });

    it('filters by rating, delivery status, responded, site, location, recipient and date range', async () => {
      expect(await names('rating=1')).toEqual(['r1Sms', 'r1Email']);
      expect(await names('delivery_status=failed')).toEqual(['r3Email', 'r1Sms']);
      expect(await names('responded=yes')).toEqual(['r2Email', 'r1Sms', 'r1Email']);
      expect(await names('responded=no')).toEqual(['r4Email', 'r3Email']);
      expect(await names('site=yelp')).toEqual(['r2Email']);
      expect(await names(`location=${w.locationId}&rating=5`)).toEqual(['r3Email']);
      expect(await names('q=%2B15555550100')).toEqual(['r1Sms']);
      expect((await page('', 'startDate=2024-03-04&endDate=2024-03-04')).total).toBe(1);
    });

    it('pages by cursor, each delivery once', async () => {
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const p: Page = await page(`perPage=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        seen.push(...p.data.map((r) => r.id));
        cursor = p.nextCursor;
      } while (cursor);
      expect(seen).toHaveLength(5);
      expect(new Set(seen).size).toBe(5);
    });

    it('answers the cards over the whole filter, equal to the figures recomputed from the raw rows', async () => {
      const res = await get(`${PATH}/cards?client=${w.clientId}&startDate=${FROM}&endDate=${TO}`);
      expect(res.statusCode, res.body).toBe(200);
      const cards = (res.json() as { data: ReviewAlertReportCards }).data;
      const raw = rowsOf(
        await w.ctx.database.db.execute(sql`select d.status, d.review_id, rv.rating, rv.review_created_at, rv.replied_at
          from review_alert_deliveries d join reviews rv on rv.id = d.review_id join clients c on c.id = d.client_id
          where d.client_id = ${w.clientId} and not d.test
            and d.created_at >= (${FROM}::date::timestamp at time zone c.timezone)
            and d.created_at < ((${TO}::date + 1)::timestamp at time zone c.timezone)`),
      );
      expect(cards).toEqual(cardsFromRaw(raw));
      // And by hand: 4 reviews, 3 of them ≤ 2★, 2 failures, 1 of 3 negative replied in 48 h, median of 12 h and 72 h.
      expect(cards).toEqual({
        reviews_alerted: 4,
        negative_alerted: 3,
        delivery_failures: 2,
        negative_replied_48h_pct: 33.3,
        median_hours_to_reply: 42,
      });
      const failed = (await get(`${PATH}/cards?client=${w.clientId}&startDate=${FROM}&endDate=${TO}&delivery_status=failed`)).json() as {
        data: ReviewAlertReportCards;
      };
      expect(failed.data).toMatchObject({ reviews_alerted: 2, negative_alerted: 1, delivery_failures: 2 });
    });

    it('refuses bad filters with a 422 naming the field', async () => {
      const refused = async (query: string, field: string, words: RegExp) => {
        const res = await get(`${PATH}?${query}`);
        expect(res.statusCode, res.body).toBe(422);
        const body = res.json() as { errors: Record<string, string[]> };
        expect(body.errors[field]?.join(' ')).toMatch(words);
        const cards = await get(`${PATH}/cards?${query}`);
        expect(cards.statusCode, cards.body).toBe(422);
      };
      await refused('startDate=2024-01-01&endDate=2025-01-02', 'endDate', /Date to field must be at most 366 days/);
      await refused('startDate=2024-03-10&endDate=2024-03-01', 'endDate', /Date to field must be on or after the Date from/);
      await refused(
        `client=${w.clientId}&location=${w.otherLocationId}`,
        'location',
        /Locations field holds a location of no chosen client/,
      );
      await refused('rating=7', 'rating', /The Rating field is not valid/);
      await refused('delivery_status=lost', 'delivery_status', /The Delivery status field is not valid/);
      await refused('responded=maybe', 'responded', /The Responded field is not valid/);
      await refused(`client=${w.clientId}&location=nope`, 'location', /The Locations field is not valid/);
    });

    it('exports the filtered rows as CSV with the columns labelled, audited', async () => {
      const res = await get(`${PATH}/export?client=${w.clientId}&startDate=${FROM}&endDate=${TO}&delivery_status=failed`);
      expect(res.statusCode, res.body).toBe(200);
      const [head, ...rows] = parseCsv(res.body);
      expect(head).toContain('Alert sent at');
      expect(head).toContain('Delivery status');
      expect(head).toContain('Time to reply (h)');
      expect(rows).toHaveLength(2);
      const status = head?.indexOf('Delivery status') ?? -1;
      expect(rows.map((r) => r[status])).toEqual(['Failed · Provider error or timeout', 'Failed · Provider error or timeout']);
      const audits = await w.ctx.database.db.select().from(systemLogs).where(eq(systemLogs.action, 'review_alert_report.export'));
      expect(audits.length).toBeGreaterThan(0);
    });

    it('resends a failed alert: re-queued, audited, then sent by the engine; 409 for any other, 404 for none', async () => {
      const db = w.ctx.database.db;
      const res = await resend(w.ids.r3Email ?? 0);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ data: { id: w.ids.r3Email, status: 'pending', reason: null } });
      const [queued] = await db
        .select()
        .from(reviewAlertDeliveries)
        .where(eq(reviewAlertDeliveries.id, w.ids.r3Email ?? 0));
      expect(queued).toMatchObject({ status: 'pending', attempts: 0 });
      const [audit] = await db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'review_alert_delivery.resend'), eq(systemLogs.entityId, String(w.ids.r3Email))));
      expect(audit?.clientId).toBe(w.clientId);
      // Pending now: a second Resend is refused.
      const again = await resend(w.ids.r3Email ?? 0);
      expect(again.statusCode).toBe(409);
      expect((again.json() as { message: string }).message).toMatch(/Only a failed alert can be resent: this one is pending/);
      expect((await resend(w.ids.r2Email ?? 0)).statusCode).toBe(409);
      expect((await resend(w.ids.r4Test ?? 0)).statusCode).toBe(404);
      expect((await resend(999_999_999)).statusCode).toBe(404);
      // The engine's loop sends it as it sends every due alert.
      await deliverDue(db, w.ctx.app.messenger, new Date(), [w.ids.r3Email ?? 0]);
      const [sent] = await db
        .select()
        .from(reviewAlertDeliveries)
        .where(eq(reviewAlertDeliveries.id, w.ids.r3Email ?? 0));
      expect(sent?.status).not.toBe('pending');
      expect(sent?.attempts).toBe(1);
    });

    it.runIf(kind === 'pg')('refuses cards stopped by the statement timeout with a 503 saying how to narrow them', async () => {
      await expect(
        boundedRead(w.ctx.database.db, (tx) => tx.execute(sql`select pg_sleep(0.5)`), {
          what: "The Review Alerts Report's cards",
          timeoutMs: 20,
        }),
      ).rejects.toMatchObject({
        statusCode: 503,
        message: expect.stringMatching(/choose fewer clients or a shorter date range/),
      });
    });
  });
}
