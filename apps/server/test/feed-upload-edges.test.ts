import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFeedRuns, surveyProcessingItems } from '../src/db/schema/index.ts';
import { insertTestFeed } from './feed-fixture.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const HEADER = 'first_name,email,transaction_id,transaction_date';
const rows = (from: number, count: number, tag: string) =>
  Array.from({ length: count }, (_, i) => `Row${from + i},edge.${tag}.${from + i}@example.com,EDGE-${tag}-${from + i},2026-11-20`).join(
    '\n',
  );

for (const kind of testDatabaseKinds()) {
  describe(`Upload CSV edges (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let feedId: number;
    let url: URL;

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const feed = await insertTestFeed(ctx.database.db, 'Edge feed');
      feedId = feed.id;
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      url = new URL(`http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`);
    });
    afterAll(() => ctx.close());

    const upload = (body: string, name: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/data-feeds/${feedId}/upload?file_name=${name}`,
        headers: { ...headers, 'content-type': 'text/csv' },
        payload: body,
      });

    it('an empty body and a header-only file are runs of no rows, not errors', async () => {
      for (const [body, name] of [
        ['', 'empty.csv'],
        [`${HEADER}\n`, 'header.csv'],
      ] as const) {
        const res = await upload(body, name);
        expect(res.statusCode, res.body).toBe(202);
        expect(res.json().data.rows_read).toBe(0);
      }
      await ctx.app.jobs.runDue();
    });

    it('a file refused part-way is answered 422 to a sender still sending it', async () => {
      const answer = await new Promise<{ status: number; body: string } | string>((resolve) => {
        const req = httpRequest(
          new URL(`/api/data-feeds/${feedId}/upload?file_name=nul.csv`, url),
          {
            method: 'POST',
            headers: { ...headers, 'content-type': 'text/csv', 'transfer-encoding': 'chunked', connection: 'close' },
            agent: false,
          },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => {
              body += c.toString();
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', (err) => resolve(`request failed: ${err.message}`));
        req.write(`${HEADER}\n${rows(1, 10, 'nul')}\n`);
        setTimeout(() => req.write('Bad\u0000Row,x@example.com,EDGE-nul-x,2026-11-20\n'), 50);
        let more = 0;
        const timer = setInterval(() => {
          if (req.destroyed || more++ > 20) {
            clearInterval(timer);
            if (!req.destroyed) req.end();
            return;
          }
          req.write(`${rows(100 + more * 10, 10, 'nul')}\n`);
        }, 20);
      });
      expect(answer).toMatchObject({ status: 422 });
    });

    it('a sender that disconnects part-way admits none of its rows: its run fails saying so', async () => {
      const first = `${HEADER}\n${rows(1, 1200, 'cut')}\n`;
      await new Promise<void>((resolve) => {
        const req = httpRequest(
          new URL(`/api/data-feeds/${feedId}/upload?file_name=cut.csv`, url),
          { method: 'POST', headers: { ...headers, 'content-type': 'text/csv', 'content-length': String(first.length * 3) }, agent: false },
          () => undefined,
        );
        req.on('error', () => resolve());
        req.write(first, () =>
          setTimeout(() => {
            req.destroy();
            resolve();
          }, 300),
        );
      });
      const cut = async () => (await ctx.database.db.select().from(dataFeedRuns).where(eq(dataFeedRuns.sourceName, 'cut.csv')))[0];
      for (let i = 0; i < 50 && (await cut())?.status === 'running'; i++) await new Promise((r) => setTimeout(r, 100));
      await ctx.app.jobs.runDue();
      const run = await cut();
      expect(run).toMatchObject({ status: 'failed', receivedAt: null, rowsAccepted: 0 });
      expect(run?.error).toMatch(/stopped arriving/);
      const items = await ctx.database.db
        .select()
        .from(surveyProcessingItems)
        .where(eq(surveyProcessingItems.runId, run?.id ?? 0));
      expect(items).toHaveLength(0);
    });
  });
}
