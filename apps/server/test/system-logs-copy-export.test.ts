import { systemLogResource } from '@admin/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemLogs } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext } from './helpers.ts';

/**
 * On PostgreSQL the System Logs export is written by `COPY … TO STDOUT` (db/copy-csv.ts): byte for
 * byte the file the page-by-page export writes (the only export PGlite has), for cells that need
 * quoting, neutralising, empty texts and nulls, in every column and sort.
 */
const MESSAGES = [
  'plain',
  'a, comma',
  'a "quote"',
  'two\nlines',
  'carriage\r\nreturn',
  '=SUM(A1)',
  '+1',
  '-1',
  '@cmd',
  '\tTabbed',
  '\rCR first',
  '',
  '\\. alone',
  'ünïcødé ✓',
  "it's",
  'back\\slash',
];

describe.skipIf(!process.env.TEST_DATABASE_URL)('System Logs export through COPY (pg)', () => {
  let ctx: TestContext;
  let headers: Record<string, string>;

  beforeAll(async () => {
    ctx = await startTestApp('pg');
    headers = bearer(await login(ctx.app, 'admin@example.com'));
    const at = new Date('2019-07-04T10:00:00Z');
    await ctx.database.db.insert(systemLogs).values(
      MESSAGES.map((message, i) => ({
        at: new Date(at.getTime() + (i % 5) * 1000),
        level: i % 2 === 0 ? 'warn' : 'error',
        service: 'api',
        action: i % 3 === 0 ? '-minus.action' : 'copy.test',
        message,
        entityType: i % 4 === 0 ? 'client' : null,
        entityId: i % 8 === 0 ? null : String(i),
        requestId: i % 2 === 0 ? '' : `req-${i}`,
        ip: i % 3 === 0 ? null : '10.0.0.1',
      })),
    );
  });
  afterAll(() => ctx?.close());

  /** The export's bytes, then the same request with the database's COPY taken away (the paged export). */
  async function both(query: string): Promise<[string, string]> {
    const url = `/api/system-logs/export?startDate=2019-07-04&endDate=2019-07-04&level=selected%20all&${query}`;
    const copied = await ctx.app.inject({ method: 'GET', url, headers });
    expect(copied.statusCode, copied.body).toBe(200);
    const copyCsv = ctx.app.database.copyCsv;
    Reflect.deleteProperty(ctx.app.database, 'copyCsv');
    try {
      const paged = await ctx.app.inject({ method: 'GET', url, headers });
      expect(paged.statusCode, paged.body).toBe(200);
      return [copied.body, paged.body];
    } finally {
      Object.assign(ctx.app.database, { copyCsv });
    }
  }

  it('writes the same file as the page-by-page export, every column, each sort and order', async () => {
    const columns = systemLogResource.columnKeys.join(',');
    for (const sort of ['at', 'level', 'service']) {
      for (const order of ['asc', 'desc']) {
        const [copied, paged] = await both(`columns=${columns}&sort=${sort}&order=${order}`);
        expect(copied).toBe(paged);
        expect(copied.split('\r\n').length).toBeGreaterThan(MESSAGES.length);
      }
    }
  });

  it('writes the chosen columns in their order, and the filters apply (a search with a quote in it)', async () => {
    const [copied, paged] = await both(`columns=message,ip,at&q=${encodeURIComponent("it's")}`);
    expect(copied).toBe(paged);
    expect(copied).toBe(`\uFEFFMessage,IP,Time\r\nit's,10.0.0.1,2019-07-04T10:00:04.000Z\r\n`);
  });

  it('writes only the header when nothing matches', async () => {
    const [copied, paged] = await both('columns=message&q=nothing-matches-this');
    expect(copied).toBe('\uFEFFMessage\r\n');
    expect(paged).toBe(copied);
  });
});
