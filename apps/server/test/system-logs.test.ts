import { parseCsv, systemLogResource } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemLogs } from '../src/db/schema/index.ts';
import { neutralise } from '../src/kit/csv.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

type Page = {
  data: { id: number; at: string; level: string; message: string }[];
  total: number;
  totalIsEstimate: boolean;
  nextCursor: string | null;
};

for (const kind of testDatabaseKinds()) {
  describe(`System Logs API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let demoCount: number;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const page = async (url: string) => {
      const res = await get(url);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Page;
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      // Rows of our own on a fixed day, several sharing one timestamp, to test ties and filters.
      const at = new Date('2020-03-15T12:00:00Z');
      await ctx.database.db.insert(systemLogs).values(
        Array.from({ length: 30 }, (_, i) => ({
          at: i < 10 ? at : new Date(at.getTime() + i * 1000),
          level: i % 3 === 0 ? 'error' : 'info',
          service: 'api',
          action: 'test.row',
          message: i === 7 ? '=HYPERLINK("http://evil")' : `row ${i}, with "quotes"\nand a newline`,
        })),
      );
      const [row] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(systemLogs);
      demoCount = row?.n ?? 0;
    });
    afterAll(() => ctx.close());

    it('pages newest first by cursor, each row exactly once, ties broken by id', async () => {
      const seen = new Set<number>();
      let url = '/api/system-logs?startDate=2020-03-15&endDate=2020-03-15&perPage=7';
      let previous: string | null = null;
      for (;;) {
        const p = await page(url);
        expect(p.total).toBe(30);
        expect(p.totalIsEstimate).toBe(false);
        for (const r of p.data) {
          expect(seen.has(r.id)).toBe(false);
          seen.add(r.id);
          if (previous) expect(r.at <= previous).toBe(true);
          previous = r.at;
        }
        if (!p.nextCursor) break;
        url = `/api/system-logs?startDate=2020-03-15&endDate=2020-03-15&perPage=7&cursor=${p.nextCursor}`;
      }
      expect(seen.size).toBe(30);
    });

    it('filters by level (Selected All means no filter), text and date range', async () => {
      const errors = await page('/api/system-logs?level=error&startDate=2020-03-15&endDate=2020-03-15');
      expect(errors.total).toBe(10);
      expect(errors.data.every((r) => r.level === 'error')).toBe(true);
      const all = await page('/api/system-logs?level=selected%20all&startDate=2020-03-15&endDate=2020-03-15');
      expect(all.total).toBe(30);
      const both = await page('/api/system-logs?level=error&level=info&startDate=2020-03-15&endDate=2020-03-15');
      expect(both.total).toBe(30);
      const text = await page('/api/system-logs?q=hyperlink');
      expect(text.total).toBe(1);
      const none = await page('/api/system-logs?startDate=2019-01-01&endDate=2019-01-31');
      expect(none).toMatchObject({ data: [], total: 0, nextCursor: null });
    });

    it('sorts by level ascending', async () => {
      const p = await page('/api/system-logs?sort=level&order=asc&startDate=2020-03-15&endDate=2020-03-15&perPage=30');
      const levels = p.data.map((r) => r.level);
      expect(levels).toEqual([...levels].sort());
    });

    it('reports a flagged estimate for large results', async () => {
      const p = await page('/api/system-logs?perPage=1');
      expect(demoCount).toBeGreaterThan(10_000);
      expect(p.totalIsEstimate).toBe(true);
      expect(p.total).toBeGreaterThan(10_000);
    });

    it('answers 400 naming the parameter for bad or unknown query parameters', async () => {
      const cases: [string, string][] = [
        ['perPage=500', 'perPage'],
        ['perPage=0', 'perPage'],
        ['sort=message', 'sort'],
        ['order=up', 'order'],
        ['level=fatal', 'level.0'],
        ['startDate=2020-02-30', 'startDate'],
        ['startDate=yesterday', 'startDate'],
        ['startDate=2020-03-02&endDate=2020-03-01', 'endDate'],
        ['cursor=not-a-cursor', 'cursor'],
        ['colour=red', 'colour'],
        ['client=abc', 'client.0'],
      ];
      for (const [query, field] of cases) {
        const res = await get(`/api/system-logs?${query}`);
        expect({ query, status: res.statusCode }).toEqual({ query, status: 400 });
        expect(Object.keys(res.json().errors ?? {})).toContain(field);
      }
    });

    it('shows one entry with its before and after', async () => {
      await ctx.app.inject({ method: 'PUT', url: '/api/users/switch-client/2', headers });
      const p = await page('/api/system-logs?q=Switched');
      const id = p.data[0]?.id;
      const res = await get(`/api/system-logs/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ action: 'user.switch_client', actor_name: 'Ada Admin', after: { current_client_id: 2 } });
      expect((await get('/api/system-logs/999999999')).statusCode).toBe(404);
    });

    it('cannot be edited or deleted through the API', async () => {
      for (const method of ['PATCH', 'PUT', 'DELETE'] as const) {
        const res = await ctx.app.inject({ method, url: '/api/system-logs/1', headers, payload: {} });
        expect(res.statusCode).toBe(404);
      }
    });

    it('exports every matching row as CSV: BOM, chosen columns in order, RFC 4180, injection neutralised', async () => {
      const res = await get('/api/system-logs/export?startDate=2020-03-15&endDate=2020-03-15&columns=message,level,at&sort=at&order=asc');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="system-logs-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(res.body.startsWith('\uFEFFMessage,Level,Time\r\n')).toBe(true);
      expect(res.body).toContain(`'=HYPERLINK(""http://evil"")`);
      expect(res.body).toContain('"row 0, with ""quotes""\nand a newline",error,2020-03-15T12:00:00.000Z\r\n');
      // 30 records; each has one embedded newline inside quotes.
      expect(res.body.split('\r\n').filter((l) => l !== '').length).toBe(31);
    });

    it('exports all rows, beyond one batch, with the default columns', async () => {
      const res = await get('/api/system-logs/export');
      const lines = res.body.split('\r\n').filter((l) => l !== '');
      expect(lines[0]).toBe('\uFEFFTime,Level,Service,Event,Message,Actor,Client');
      expect(lines.length).toBeGreaterThanOrEqual(demoCount + 1);
    });

    it("exports each of the definition's columns as the list answers it", async () => {
      const keys = systemLogResource.columnKeys;
      const range = 'startDate=2020-03-15&endDate=2020-03-15&sort=at&order=asc';
      const listed = await page(`/api/system-logs?${range}&perPage=30&level=selected%20all`);
      const csv = parseCsv((await get(`/api/system-logs/export?${range}&columns=${keys.join(',')}`)).body.slice(1));
      expect(csv[0]).toEqual(systemLogResource.columns.map((c) => c.label));
      expect(csv.slice(1)).toEqual(
        listed.data.map((row) => keys.map((k) => neutralise(Object.entries(row).find(([key]) => key === k)?.[1]))),
      );
    });

    it('pages the Users and Clients options on the server: what was typed, at most perPage, then the chosen ones', async () => {
      const options = async (url: string) => {
        const res = await get(url);
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as { data: { value: string; label: string }[]; more: boolean };
      };
      const ada = await options('/api/system-logs/options/actor?q=ada%20adm');
      expect(ada.data).toEqual([{ value: expect.stringMatching(/^\d+$/), label: 'Ada Admin' }]);
      const one = await options('/api/system-logs/options/actor?perPage=1');
      expect(one).toMatchObject({ data: [expect.anything()], more: true });
      const chosen = await options(`/api/system-logs/options/actor?q=no%20such%20person&value=${ada.data[0]?.value}`);
      expect(chosen).toEqual({ data: ada.data, more: false });
      // A chosen value no user id can be is refused, as the list's Users filter refuses it.
      const junk = await get(`/api/system-logs/options/actor?value=${ada.data[0]?.value}&value=abc&value=99999999999`);
      expect(junk.statusCode).toBe(400);
      expect(Object.keys(junk.json().errors)).toEqual(['value.1', 'value.2']);
      const clients = await options('/api/system-logs/options/client?perPage=100');
      expect(clients.data.length).toBeGreaterThan(1);
      expect((await get('/api/system-logs/options/client?perPage=101')).statusCode).toBe(400);
    });

    it('records warnings it raises itself (rate limiting) in System Logs', async () => {
      for (let i = 0; i < 6; i++) {
        await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'victim@example.com', password: 'wrong-password' } });
      }
      const p = await page('/api/system-logs?level=warn&q=429');
      expect(p.data[0]).toMatchObject({ level: 'warn' });
    });
  });

  describe(`preferences (${kind})`, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await startTestApp(kind);
    });
    afterAll(() => ctx.close());

    it('stores a value per user and key', async () => {
      const headers = bearer(await login(ctx.app, 'admin@example.com'));
      const url = '/api/preferences/table:system-logs';
      expect((await ctx.app.inject({ method: 'GET', url, headers })).json()).toEqual({ data: null });
      const put = await ctx.app.inject({ method: 'PUT', url, headers, payload: { value: { columns: ['level', 'at'] } } });
      expect(put.statusCode).toBe(200);
      expect((await ctx.app.inject({ method: 'GET', url, headers })).json()).toEqual({ data: { columns: ['level', 'at'] } });
      const bad = await ctx.app.inject({ method: 'PUT', url, headers, payload: { value: 1, extra: true } });
      expect(bad.statusCode).toBe(400);
      expect((await ctx.app.inject({ method: 'GET', url: '/api/preferences/BAD KEY', headers })).statusCode).toBe(400);
      const big = await ctx.app.inject({ method: 'PUT', url, headers, payload: { value: 'x'.repeat(20_000) } });
      expect(big.statusCode).toBe(413);
    });
  });
}
