import { wordCount } from '@admin/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { surveyResponses, systemLogs, testimonials } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/** The Testimonials Tool's export and embed code (testimonials-api.test.ts has the rest of its API). */
for (const kind of testDatabaseKinds()) {
  describe(`Testimonials export and embed (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    const send = (method: 'GET', url: string) => ctx.app.inject({ method, url, headers });
    const ofClient = async () =>
      ctx.database.db.select().from(testimonials).where(eq(testimonials.clientId, clientId)).orderBy(testimonials.id);

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      clientId = (await send('GET', '/api/user')).json().data.user.current_client_id;
    });
    afterAll(() => ctx.close());

    it('exports CSV with labels, the client-zoned date and the filters', async () => {
      const res = await send('GET', '/api/testimonials/export');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(res.body.startsWith('\uFEFF')).toBe(true);
      const lines = res.body.slice(1).trim().split('\r\n');
      expect(lines[0]).toBe(
        'Date,Location,Survey,Personnel,Display name,Score/stars,Comment,Original comment,Consent,Status,Featured,Words',
      );
      expect(lines.length - 1).toBe((await ofClient()).length);
      expect(lines[1]).toMatch(/^"\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M [A-Z]{2,5}"/);
      expect(res.body).not.toMatch(/,published,|,pending,/);
      const bad = await send('GET', '/api/testimonials/export?startDate=nope');
      expect(bad.statusCode).toBe(400);
    });

    it('streams an export longer than one page whole, newest first, each testimonial once, and audits it', async () => {
      // 600 more testimonials of one response's copies, all submitted at the same moment: past the
      // export's first page (500), and ties that only the id orders.
      const db = ctx.database.db;
      const [one] = await ofClient();
      /** The table's columns but `skip`, as a list to insert into and the same read from alias `s`. */
      const columnsOf = async (table: string, skip: string[]) => {
        const names = rowsOf(
          await db.execute(sql`select column_name from information_schema.columns where table_name = ${table} order by ordinal_position`),
        )
          .map((c) => String(c.column_name))
          .filter((c) => !skip.includes(c));
        return { into: sql.raw(names.map((c) => `"${c}"`).join(', ')), from: sql.raw(names.map((c) => `s."${c}"`).join(', ')) };
      };
      const [response] = await db
        .select()
        .from(surveyResponses)
        .where(eq(surveyResponses.id, one?.responseId ?? 0));
      const items = await columnsOf('survey_processing_items', ['id', 'token']);
      await db.execute(sql`insert into survey_processing_items (${items.into}, token)
        select ${items.from}, 'export-' || g from survey_processing_items s, generate_series(1, 600) g where s.id = ${response?.processingItemId ?? 0}`);
      const answers = await columnsOf('survey_responses', ['id', 'processing_item_id']);
      await db.execute(sql`insert into survey_responses (${answers.into}, processing_item_id)
        select ${answers.from}, i.id from survey_responses s, survey_processing_items i where s.id = ${one?.responseId ?? 0} and i.token like 'export-%'`);
      const quotes = await columnsOf('testimonials', ['id', 'response_id']);
      await db.execute(sql`insert into testimonials (${quotes.into}, response_id)
        select ${quotes.from}, r.id from testimonials s, survey_responses r join survey_processing_items i on i.id = r.processing_item_id
        where s.id = ${one?.id ?? 0} and i.token like 'export-%'`);
      const all = await ofClient();
      expect(all.length).toBeGreaterThan(600);
      const res = await send('GET', '/api/testimonials/export');
      const rows = res.body.slice(1).trim().split('\r\n').slice(1);
      expect(rows).toHaveLength(all.length);
      // Each row's words count is its own: the rows come newest first, ties by id, each once.
      const newest = [...all].sort((a, b) => b.submittedAt.getTime() - a.submittedAt.getTime() || b.id - a.id);
      expect(rows.map((r) => r.split(',').at(-1))).toEqual(newest.map((t) => String(wordCount(t.displayText))));
      const audited = await db.select().from(systemLogs).where(eq(systemLogs.action, 'testimonials.export'));
      expect(audited.length).toBeGreaterThan(0);
    });

    it('embed code names the client, and the location when asked', async () => {
      const res = await send('GET', '/api/testimonials/embed?location=abc');
      expect(res.statusCode).toBe(200);
      const { script, iframe } = res.json().data;
      expect(script).toContain('/w/testimonials.js');
      expect(script).toContain(`client="${clientId}" location="abc"`);
      expect(iframe).toContain(`/w/testimonials/${clientId}?location=abc`);
      expect(iframe).toContain('title="Selected testimonials"');
    });
  });
}
