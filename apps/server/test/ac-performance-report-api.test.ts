import type { AcClientRow, AcPerformanceReport, AcRow } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { figuresByClient } from '../src/reports/performance/by-client.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const DAY_MS = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

/**
 * `GET /api/reports/ac-performance` over the demo data (Ada Admin and Sam Staff share the clients,
 * every fifth has no coordinator: apps/server/src/seed/demo.ts): each book's figures equal the sums
 * of its clients' figures from figuresByClient; each at-risk rule is proven by a client made at
 * risk and one kept out of it; bad input is a 422 naming the field.
 */
for (const kind of testDatabaseKinds()) {
  describe(`AC Performance Report API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let ada: number;
    // The demo's responses span the last month: a fortnight ending tomorrow (every US zone's today) and the one before.
    const from = day(-13);
    const to = day(1);
    const get = (query: string) => ctx.app.inject({ method: 'GET', url: `/api/reports/ac-performance?${query}`, headers });
    const report = async (query = `from=${from}&to=${to}`): Promise<AcPerformanceReport> => {
      const res = await get(query);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: AcPerformanceReport }).data;
    };
    const clientRow = (r: AcPerformanceReport, id: number): AcClientRow => {
      const row = r.rows.flatMap((b) => b.clients).find((c) => c.id === id);
      if (!row) throw new Error(`client ${id} is not in the report`);
      return row;
    };
    const bookOf = (r: AcPerformanceReport, coordinatorId: number | null): AcRow => {
      const row = r.rows.find((b) => b.coordinatorId === coordinatorId);
      if (!row) throw new Error(`no row for coordinator ${coordinatorId}`);
      return row;
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const [user] = rowsOf(await ctx.database.db.execute(sql`select id from users where email = 'admin@example.com'`));
      ada = Number(user?.id);
    });
    afterAll(() => ctx.close());

    it("lists Ada Admin's book by name, each book the sum of its clients' figures from figuresByClient", async () => {
      const r = await report();
      const db = ctx.database.db;
      const hers = rowsOf(await db.execute(sql`select name from clients where account_coordinator_id = ${ada} order by lower(name)`));
      expect(hers.length).toBeGreaterThan(0);
      const book = bookOf(r, ada);
      expect(book.label).toBe('Ada Admin');
      expect(book.clients.map((c) => c.name)).toEqual(hers.map((c) => String(c.name)));
      const none = bookOf(r, null);
      expect(none.label).toBe('No coordinator');
      expect(r.rows.at(-1)?.coordinatorId).toBeNull();

      const base = { locations: [], surveys: [], personnel: [], channel: 'all' as const };
      for (const b of r.rows) {
        const ids = b.clients.map((c) => c.id);
        const current = await figuresByClient(db, { ...base, clients: ids, from, to });
        const previous = await figuresByClient(db, { ...base, clients: ids, from: r.previous.from, to: r.previous.to });
        const sum = (key: 'sent' | 'delivered' | 'responses' | 'invites' | 'reviewsPosted' | 'newReviews' | 'alertsUnsent') =>
          ids.reduce((n, id) => n + (current.get(id)?.[key] ?? 0), 0);
        for (const key of ['sent', 'delivered', 'responses', 'invites', 'reviewsPosted', 'newReviews', 'alertsUnsent'] as const)
          expect(b.figures[key], `${b.label} ${key}`).toBe(sum(key));
        expect(b.figures.clients).toBe(ids.length);
        const answers = (m: typeof current, k: 'promoters' | 'detractors' | 'npsAnswers') =>
          ids.reduce((n, id) => n + (m.get(id)?.[k] ?? 0), 0);
        const nps = (m: typeof current) =>
          answers(m, 'npsAnswers') === 0
            ? null
            : Math.round((100 * (answers(m, 'promoters') - answers(m, 'detractors'))) / answers(m, 'npsAnswers')) + 0;
        expect(b.figures.nps, `${b.label} NPS`).toBe(nps(current));
        expect(b.figures.previousNps, `${b.label} previous NPS`).toBe(nps(previous));
        expect(b.figures.responseRate).toBe(sum('delivered') === 0 ? null : Math.round((sum('responses') / sum('delivered')) * 1000) / 10);
        for (const c of b.clients) {
          expect(c.figures.responses, c.name).toBe(current.get(c.id)?.responses ?? 0);
          expect(c.figures.nps, c.name).toBe(current.get(c.id)?.nps ?? null);
        }
      }
      // Books sum their clients' own facts too.
      const ownLocations = rowsOf(
        await db.execute(sql`select count(*) as n from locations l join clients c on c.id = l.client_id
          where c.account_coordinator_id = ${ada} and l.status = 'active'`),
      );
      expect(book.figures.activeLocations).toBe(Number(ownLocations[0]?.n));
      expect(book.figures.activeLocations).toBe(book.clients.reduce((n, c) => n + c.figures.activeLocations, 0));
    });

    it('filters by AC users and by clients', async () => {
      const mine = await report(`from=${from}&to=${to}&coordinators=${ada}`);
      expect(mine.rows.map((b) => b.coordinatorId)).toEqual([ada]);
      const first = mine.rows[0]?.clients[0];
      const one = await report(`from=${from}&to=${to}&clients=${first?.id}`);
      expect(one.rows.flatMap((b) => b.clients.map((c) => c.id))).toEqual([first?.id]);
    });

    it('flags a client with no feed data for 7 days, and not one quiet for 6', async () => {
      const r0 = await report();
      const [quiet, recent] = bookOf(r0, ada).clients;
      if (!quiet || !recent) throw new Error('Ada needs two clients');
      const db = ctx.database.db;
      const latest = sql`greatest(
        (select max(created_at) from survey_processing_items where client_id = c.id),
        (select max(coalesce(received_at, started_at)) from data_feed_runs where client_id = c.id))`;
      // Move every feed timestamp back so the newest is 8 (or 6) days and an hour old.
      for (const [id, days] of [
        [quiet.id, 8],
        [recent.id, 6],
      ] as const) {
        const [row] = rowsOf(
          await db.execute(
            sql`select now() - interval '1 hour' - ${days} * interval '1 day' - ${latest} as shift from clients c where c.id = ${id}`,
          ),
        );
        const shift = String(row?.shift);
        await db.execute(sql`update survey_processing_items set created_at = created_at + ${shift}::interval where client_id = ${id}`);
        await db.execute(
          sql`update data_feed_runs set started_at = started_at + ${shift}::interval, received_at = received_at + ${shift}::interval where client_id = ${id}`,
        );
      }
      const r = await report();
      expect(clientRow(r, quiet.id).risks).toContainEqual({ kind: 'no_feed_data', reason: 'No feed data for 8 days' });
      expect(clientRow(r, recent.id).risks.map((x) => x.kind)).not.toContain('no_feed_data');
      expect(bookOf(r, ada).figures.pausedOrAtRisk).toBe(bookOf(r, ada).clients.filter((c) => c.risks.length > 0).length);
    });

    it('flags a client whose NPS fell by more than 10, and not one whose NPS rose', async () => {
      const db = ctx.database.db;
      const r0 = await report();
      const withAnswers = r0.rows
        .flatMap((b) => b.clients)
        .filter((c) => c.figures.previousNps !== null && c.figures.nps !== null && (c.figures.previousNps ?? 0) > -80);
      const [falling, rising] = withAnswers;
      if (!falling || !rising) throw new Error('two clients with NPS in both periods are needed');
      const setClass = (id: number, npsClass: string) =>
        db.execute(sql`update survey_responses set nps_class = ${npsClass}
          where client_id = ${id} and nps_class is not null and submitted_at >= ${from}::date - 1`);
      await setClass(falling.id, 'detractor');
      await setClass(rising.id, 'promoter');
      const r = await report();
      const fell = clientRow(r, falling.id);
      expect(fell.figures.nps).toBe(-100);
      expect(fell.risks).toContainEqual({
        kind: 'nps_drop',
        reason: `NPS fell by ${(fell.figures.previousNps ?? 0) + 100} points (from ${fell.figures.previousNps} to -100)`,
      });
      expect(clientRow(r, rising.id).risks.map((x) => x.kind)).not.toContain('nps_drop');
    });

    it('flags a paused client', async () => {
      const r0 = await report();
      const target = bookOf(r0, ada).clients[0];
      await ctx.database.db.execute(sql`update clients set status = 'paused' where id = ${target?.id}`);
      const c = clientRow(await report(), Number(target?.id));
      expect(c.status).toBe('Paused');
      expect(c.risks).toContainEqual({ kind: 'paused', reason: 'Paused' });
      await ctx.database.db.execute(sql`update clients set status = 'active' where id = ${target?.id}`);
    });

    it('offers the AC users filter the coordinators, by name, and the chosen ones', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/reports/ac-performance/options/coordinators?q=ada', headers });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ data: [{ value: String(ada), label: 'Ada Admin' }], more: false });
      const all = await ctx.app.inject({ method: 'GET', url: '/api/reports/ac-performance/options/coordinators', headers });
      expect((all.json() as { data: { label: string }[] }).data.map((o) => o.label)).toEqual(['Ada Admin', 'Sam Staff']);
    });

    it('refuses bad filters with a 422 naming the field', async () => {
      const cases: [string, string, RegExp][] = [
        [`to=${to}`, 'from', /The Date from field is required/],
        [`from=${to}&to=${from}`, 'to', /Date to field must be on or after/],
        ['from=2025-01-01&to=2026-01-02', 'to', /at most 366 days/],
        [`from=${from}&to=${to}&coordinators=999999`, 'coordinators', /AC users field holds users that do not exist: 999999/],
        [`from=${from}&to=${to}&clients=999999`, 'clients', /Clients field holds clients that do not exist: 999999/],
        [`from=${from}&to=${to}&clients=abc`, 'clients', /Clients field/],
        [`from=2026-02-30&to=${to}`, 'from', /Date from field must be a real date/],
        [`from=${from}&from=${from}&to=${to}`, 'from', /takes one value/],
      ];
      for (const [query, field, message] of cases) {
        const res = await get(query);
        expect(res.statusCode, query).toBe(422);
        const body = res.json() as { errors?: Record<string, string[]> };
        expect(body.errors?.[field]?.join(' '), query).toMatch(message);
      }
    });
  });
}
