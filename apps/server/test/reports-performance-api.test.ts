import type { PerformanceReport } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { boundedRead } from '../src/lib/bounded-read.ts';
import { figuresOf, zeroCounts } from '../src/reports/performance/figures.ts';
import { addDays } from '../src/reports/performance/query.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';
import { localDay, type ReferenceFilter, referenceCounts } from './reports-reference.ts';

/**
 * `GET /api/reports/performance` over the demo data: every figure equals the raw rows counted one
 * by one in the test (reports-reference.ts), for the period, the previous equal period, a group's
 * row and a channel; Responses equal Survey Manager's count; bad input is a 422 naming the field.
 */
for (const kind of testDatabaseKinds()) {
  describe(`Performance Report API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    let from: string;
    let to: string;
    const get = (query: string) => ctx.app.inject({ method: 'GET', url: `/api/reports/performance?${query}`, headers });
    const report = async (query: string): Promise<PerformanceReport> => {
      const res = await get(query);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: PerformanceReport }).data;
    };
    const expected = async (f: ReferenceFilter) => figuresOf({ ...zeroCounts(), ...(await referenceCounts(ctx.database.db, f)) });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      // The demo client with the most responses, over the days its responses of the last 60 days span (in its zone):
      // the demo's year of history (seed/history.ts) is longer than a report may be.
      const [top] = rowsOf(
        await ctx.database.db.execute(sql`select r.client_id, c.timezone, min(r.submitted_at) as first, max(r.submitted_at) as last
          from survey_responses r join clients c on c.id = r.client_id where r.submitted_at >= now() - interval '60 days'
          group by 1, 2 order by count(*) desc limit 1`),
      );
      clientId = Number(top?.client_id);
      from = localDay(top?.first, String(top?.timezone));
      to = localDay(top?.last, String(top?.timezone));
      // The demo raises no survey alert: the client's detractors raise one each (every third unsent),
      // and a test alert that must stay uncounted.
      const db = ctx.database.db;
      const [rule] = rowsOf(
        await db.execute(
          sql`insert into survey_alert_rules (client_id, name, trigger) values (${clientId}, 'Report test', 'detractor') returning id`,
        ),
      );
      await db.execute(sql`insert into survey_alert_events (rule_id, client_id, response_id, channel, recipient, state, test, created_at)
        select ${rule?.id}, r.client_id, r.id, 'email', 'alerts' || r.id || '@example.com',
          case when r.id % 3 = 0 then 'unsent' else 'sent' end, r.id % 7 = 0, r.submitted_at + interval '5 minutes'
        from survey_responses r where r.client_id = ${clientId} and r.nps_class = 'detractor'`);
      // Two review invitations posted (the demo's are still open).
      await db.execute(sql`update amplifications set status = 'posted'
        where id in (select id from amplifications where client_id = ${clientId} order by id limit 2)`);
    });
    afterAll(() => ctx.close());

    it('the cards equal the raw rows counted one by one, this period and the previous equal one', async () => {
      const r = await report(`clients=${clientId}&from=${from}&to=${to}&groupBy=location`);
      expect(r.cards.current.responses).toBeGreaterThan(0);
      expect(r.cards.current.sent).toBeGreaterThan(0);
      // The demo has something of every kind in this range, so no figure is checked only at zero.
      for (const figure of [
        'delivered',
        'opened',
        'promoters',
        'detractors',
        'alertsFired',
        'alertsUnsent',
        'invites',
        'reviewsPosted',
        'newReviews',
      ] as const)
        expect(r.cards.current[figure], figure).toBeGreaterThan(0);
      expect(r.cards.current).toEqual(await expected({ clientId, from, to }));
      expect(r.cards.previous).toEqual(await expected({ clientId, ...r.previous }));
      const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
      expect((Date.parse(r.previous.to) - Date.parse(r.previous.from)) / 86_400_000 + 1).toBe(days);
      expect(Date.parse(from) - Date.parse(r.previous.to)).toBe(86_400_000);
      // NPS as the contract defines it, from the card's own counts.
      const c = r.cards.current;
      if (c.npsAnswers > 0) expect(c.nps).toBe(Math.round((100 * (c.promoters - c.detractors)) / c.npsAnswers));
    });

    it('grouped by location: each row is its location counted alone, named as people read it; the rows add up to the cards', async () => {
      const r = await report(`clients=${clientId}&from=${from}&to=${to}&groupBy=location`);
      expect(r.rows.length).toBeGreaterThan(0);
      const names = new Map(
        rowsOf(await ctx.database.db.execute(sql`select _id as id, locationname from locations where client_id = ${clientId}`)).map((l) => [
          String(l.id),
          String(l.locationname),
        ]),
      );
      for (const row of r.rows.slice(0, 3)) {
        expect(row.label).toBe(row.key === '' ? 'None' : names.get(row.key));
        if (row.key !== '') expect(row.figures).toEqual(await expected({ clientId, from, to, location: row.key }));
      }
      expect(r.rows.reduce((n, row) => n + row.figures.responses, 0)).toBe(r.cards.current.responses);
      expect(r.rows.reduce((n, row) => n + row.figures.sent, 0)).toBe(r.cards.current.sent);
    });

    it('each channel alone equals its raw rows, and the channels add up to all', async () => {
      const all = await report(`clients=${clientId}&from=${from}&to=${to}`);
      const email = await report(`clients=${clientId}&from=${from}&to=${to}&channel=email`);
      const sms = await report(`clients=${clientId}&from=${from}&to=${to}&channel=sms`);
      expect(email.cards.current).toEqual(await expected({ clientId, from, to, channel: 'email' }));
      expect(sms.cards.current).toEqual(await expected({ clientId, from, to, channel: 'sms' }));
      expect(email.cards.current.responses + sms.cards.current.responses).toBe(all.cards.current.responses);
      expect(email.cards.current.sent + sms.cards.current.sent).toBe(all.cards.current.sent);
    });

    it('months and other group-bys: labels a person reads, "None" for no value, rows summing to the cards', async () => {
      const month = await report(`clients=${clientId}&from=${from}&to=${to}&groupBy=month`);
      for (const row of month.rows) {
        expect(row.key).toMatch(/^\d{4}-\d{2}$/);
        expect(row.label).toMatch(/^(January|February|March|April|May|June|July|August|September|October|November|December) \d{4}$/);
      }
      expect(month.rows.map((x) => x.key)).toEqual([...month.rows.map((x) => x.key)].sort());
      for (const groupBy of ['client', 'personnel', 'survey', 'product', 'referral_source'] as const) {
        const r = await report(`clients=${clientId}&from=${from}&to=${to}&groupBy=${groupBy}`);
        expect(
          r.rows.reduce((n, row) => n + row.figures.responses, 0),
          groupBy,
        ).toBe(r.cards.current.responses);
        expect(
          r.rows.reduce((n, row) => n + row.figures.newReviews, 0),
          groupBy,
        ).toBe(r.cards.current.newReviews);
        for (const row of r.rows) {
          expect(row.label, groupBy).not.toBe('');
          if (row.key === '') expect(row.label).toBe('None');
          else expect(row.label).not.toMatch(/^#?\d+$/);
        }
      }
      const byClient = await report(`clients=${clientId}&from=${from}&to=${to}&groupBy=client`);
      const [name] = rowsOf(await ctx.database.db.execute(sql`select name from clients where id = ${clientId}`));
      expect(byClient.rows.map((x) => x.label)).toEqual([String(name?.name)]);
    });

    it('the chart has every day of a range up to 92 days, else every month, adding up to the cards', async () => {
      const start = addDays(to, -91);
      const r = await report(`clients=${clientId}&from=${start}&to=${to}`);
      expect(r.series.bucket).toBe('day');
      expect(r.series.current).toHaveLength(92);
      expect(r.series.current[0]?.bucket).toBe(start);
      expect(r.series.current.at(-1)?.bucket).toBe(to);
      expect(r.series.current.reduce((n, p) => n + p.responses, 0)).toBe(r.cards.current.responses);
      const long = await report(`clients=${clientId}&from=${addDays(to, -92)}&to=${to}`);
      expect(long.series.bucket).toBe('month');
      expect(long.series.current[0]?.bucket).toBe(addDays(to, -92).slice(0, 7));
      expect(long.series.current.at(-1)?.bucket).toBe(to.slice(0, 7));
      expect(long.series.current.reduce((n, p) => n + p.detractors, 0)).toBe(long.cards.current.detractors);
    });

    it("Responses equal Survey Manager's count for the same client and dates, each in its client's own zone", async () => {
      // Both read the dates as the client's days (decision 072): a client in any zone agrees, at any range's edges.
      const zones = rowsOf(await ctx.database.db.execute(sql`select id, timezone from clients order by id`));
      expect(new Set(zones.map((z) => z.timezone)).size).toBeGreaterThan(1);
      for (const { id } of zones) {
        for (const [start, end] of [
          [from, to],
          [addDays(to, -6), addDays(to, -2)],
        ]) {
          const r = await report(`clients=${id}&from=${start}&to=${end}`);
          const res = await ctx.app.inject({
            method: 'GET',
            url: `/api/survey-responses?client=${id}&startDate=${start}&endDate=${end}&excluded=no&test=no&perPage=1`,
            headers,
          });
          expect(res.statusCode, res.body).toBe(200);
          const list = res.json() as { total: number; totalIsEstimate: boolean };
          expect(list.totalIsEstimate).toBe(false);
          expect(list.total, `client ${id}, ${start} to ${end}`).toBe(r.cards.current.responses);
        }
      }
    });

    it('bad input is a 422 naming the field as the filters label it', async () => {
      const refused = async (query: string, field: string, words: RegExp) => {
        const res = await get(query);
        expect(res.statusCode, `${query}: ${res.body}`).toBe(422);
        const body = res.json() as { message: string; errors: Record<string, string[]> };
        expect(Object.keys(body.errors), query).toContain(field);
        expect(body.errors[field]?.join(' '), query).toMatch(words);
      };
      await refused('to=2026-01-31', 'from', /The Date from field is required/);
      await refused('from=2026-01-01', 'to', /The Date to field is required/);
      await refused('from=2026-02-30&to=2026-03-01', 'from', /Date from field must be a real date/);
      await refused('from=2026-03-01&to=2026-02-01', 'to', /on or after the Date from/);
      await refused('from=2025-01-01&to=2026-01-02', 'to', /at most 366 days/);
      await refused('from=2026-01-01&to=2026-01-31&groupBy=week', 'groupBy', /Group by/);
      await refused('from=2026-01-01&to=2026-01-31&channel=fax', 'channel', /Channel/);
      await refused('from=2026-01-01&to=2026-01-31&clients=1.5', 'clients', /Clients field must be a positive whole number/);
      await refused('from=2026-01-01&to=2026-01-31&surveys=abc', 'surveys', /Surveys/);
      await refused('from=2026-01-01&to=2026-01-31&clients=999999', 'clients', /do not exist/);
      await refused('from=2026-01-01&to=2026-01-31&personnel=2147483648', 'personnel', /Personnel field must be at most 2147483647/);
      await refused('from=2026-01-01&to=2026-01-31&locations=ffffffffffffffffffffffff', 'locations', /a location that does not exist/);
      // Ids of another client than the ones chosen.
      const [other] = rowsOf(
        await ctx.database.db.execute(sql`select l._id as location, s.id as survey, p.id as person from locations l
          join surveys s on s.client_id = l.client_id join personnel p on p.client_id = l.client_id where l.client_id <> ${clientId} limit 1`),
      );
      const base = `clients=${clientId}&from=${from}&to=${to}`;
      await refused(`${base}&locations=${String(other?.location)}`, 'locations', /Locations field holds a location of no chosen client/);
      await refused(`${base}&surveys=${String(other?.survey)}`, 'surveys', /Surveys field holds a survey of no chosen client/);
      await refused(`${base}&personnel=${String(other?.person)}`, 'personnel', /Personnel field holds a person of no chosen client/);
      // Reaches the 366-day limit exactly: accepted.
      expect((await get('from=2025-01-01&to=2026-01-01&groupBy=month')).statusCode).toBe(200);
    });

    it.skipIf(kind !== 'pg')('a report past its statement timeout is refused with a 503 saying how to make it smaller', async () => {
      const stopped = boundedRead(ctx.database.db, (tx) => tx.execute(sql`select pg_sleep(2)`), { what: 'This report', timeoutMs: 50 });
      await expect(stopped).rejects.toMatchObject({
        statusCode: 503,
        message: expect.stringMatching(/fewer clients or a shorter date range/),
      });
      // The timeout was the transaction's own: the pool's next statement runs unbounded.
      await ctx.database.db.execute(sql`select pg_sleep(0.1)`);
    });

    it('is for staff only', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/reports/performance?from=${from}&to=${to}` });
      expect(res.statusCode).toBe(401);
    });
  });
}
