import { randomBytes } from 'node:crypto';
import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseCsv } from '@admin/shared';
import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { dataFeedRowErrors, dataFeedRuns, dataFeeds, surveys } from '../src/db/schema/index.ts';
import { EXPORT_PACING } from '../src/kit/csv-export.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/** More rows than the kit's largest batch and its first ones together, so the export crosses several page boundaries. */
const ROWS = EXPORT_PACING.maxRows + 3 * EXPORT_PACING.firstRows + 7;
/** First names that need RFC 4180 quoting or formula neutralising, in turn. */
const NAMES = ['Plain', 'Lee, Jr', 'Say "hi"', 'Two\nlines', '=1+2', 'Cr\r\nLf', '@SUM(A1)'];

const text = (res: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      body += chunk;
    });
    res.on('end', () => resolve(body));
    res.on('error', reject);
    res.resume();
  });

for (const kind of testDatabaseKinds()) {
  describe(`CSV exports stream in paced pages (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    const tag = `X${randomBytes(4).toString('hex')}`;

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const [survey] = await ctx.database.db
        .select({ id: surveys.id, clientId: surveys.clientId })
        .from(surveys)
        .orderBy(asc(surveys.id))
        .limit(1);
      if (!survey) throw new Error('no demo survey');
      clientId = survey.clientId;
      // Seven rows per received-at moment, so pages end inside groups of equal times (the keyset's tie on id).
      const names = `array[${NAMES.map((n) => `'${n.replace(/'/g, "''")}'`).join(',')}]`;
      await ctx.database.db.execute(
        sql.raw(`insert into survey_processing_items (client_id, survey_id, first_name, last_name, transaction_id, channel, status, token, expires_at, source, created_at, updated_at)
          select ${clientId}, ${survey.id}, (${names})[1 + i % ${NAMES.length}], '${tag}', '${tag}-' || i, 'email', 'responded', md5('${tag}' || i),
            now() + interval '30 days', 'api', timestamptz '2026-01-01' + (i / 7) * interval '1 minute', now()
          from generate_series(1, ${ROWS}) as i`),
      );
    });
    afterAll(() => ctx.close());

    it('exports every matching row once, in the list order, quoted and neutralised', async () => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/survey-processing/export?client=${clientId}&q=${tag}&columns=transaction_id,customer,status`,
        headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      const [header, ...rows] = parseCsv(res.body);
      expect(header).toEqual(['Transaction id', 'Customer', 'Status']);
      const want = await ctx.database.db.execute(
        sql`select transaction_id, first_name from survey_processing_items where last_name = ${tag} order by created_at desc, id desc`,
      );
      const expected = (rowsOf(want) as { transaction_id: string; first_name: string }[]).map((r) => {
        const customer = `${r.first_name} ${tag}`;
        return [r.transaction_id, /^[=+\-@\t\r]/.test(customer) ? `'${customer}` : customer, 'Responded'];
      });
      expect(rows).toHaveLength(ROWS);
      expect(new Set(rows.map((r) => r[0])).size).toBe(ROWS);
      expect(rows).toEqual(expected);
    });

    it("downloads a run's rejected rows page by page: every row once, in row order, under the file's columns", async () => {
      const [feed] = await ctx.database.db.select().from(dataFeeds).orderBy(asc(dataFeeds.id)).limit(1);
      if (!feed) throw new Error('no demo feed');
      const [run] = await ctx.database.db
        .insert(dataFeedRuns)
        .values({
          dataFeedId: feed.id,
          clientId: feed.clientId,
          source: 'csv_upload',
          sourceName: `${tag}.csv`,
          startedAt: new Date(),
          status: 'partial',
        })
        .returning({ id: dataFeedRuns.id });
      if (!run) throw new Error('no run');
      // Two errors on some rows (same row number, told apart by id), a column only some rows have.
      const errors = Array.from({ length: ROWS }, (_, i) => ({
        runId: run.id,
        rowNumber: 2 + Math.floor(i / 2) * 2 + (i % 2 === 0 ? 0 : i % 3 === 0 ? 0 : 1),
        column: 'Email',
        message: `Bad, "value" ${i}`,
        raw: { Email: NAMES[i % NAMES.length] ?? '', ...(i % 5 === 0 ? { Zeta: 'z' } : {}) },
      }));
      for (let i = 0; i < errors.length; i += 1000) await ctx.database.db.insert(dataFeedRowErrors).values(errors.slice(i, i + 1000));
      const res = await ctx.app.inject({ method: 'GET', url: `/api/survey-manager-logs/runs/${run.id}/rejected`, headers });
      expect(res.statusCode, res.body).toBe(200);
      const [header, ...rows] = parseCsv(res.body);
      // One line per refused row (its errors in one column, issue 19 item 15), under the row's own columns.
      expect(header).toEqual(['Email', 'Zeta', 'Line', 'Errors']);
      const want = rowsOf(
        await ctx.database.db.execute(
          sql`select row_number, string_agg('Email: ' || message, '; ' order by id) as errors from data_feed_row_errors
            where run_id = ${run.id} group by row_number order by row_number`,
        ),
      ) as { row_number: number; errors: string }[];
      expect(rows.length).toBeGreaterThan(ROWS / 2);
      expect(rows.map((r) => [Number(r[2]), r[3]])).toEqual(want.map((w) => [Number(w.row_number), w.errors]));
    });

    it('serves /healthz and a list page while an export is being written', async () => {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
      const call = (path: string) =>
        new Promise<IncomingMessage>((resolve, reject) => get(`${base}${path}`, { headers }, resolve).on('error', reject));
      const exporting = await call(`/api/survey-processing/export?client=${clientId}`);
      expect(exporting.statusCode).toBe(200);
      // The export has started and is held open by its client (its next pages wait for it).
      exporting.pause();
      const [healthz, list] = await Promise.all([call('/healthz'), call(`/api/survey-processing?client=${clientId}&perPage=50`)]);
      expect(healthz.statusCode).toBe(200);
      expect(list.statusCode).toBe(200);
      expect((JSON.parse(await text(list)) as { data: unknown[] }).data).toHaveLength(50);
      // Then the export goes on to its end, whole.
      const csv = await text(exporting);
      const [{ n } = { n: 0 }] = rowsOf(
        await ctx.database.db.execute(sql`select count(*)::int as n from survey_processing_items where client_id = ${clientId}`),
      ) as { n: number }[];
      expect(parseCsv(csv).length - 1).toBe(n);
      expect(n).toBeGreaterThan(ROWS);
    });
  });
}
