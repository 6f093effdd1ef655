import { parseCsv } from '@admin/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/** The file's columns in their own order, which is not the template's (Store first, an unmapped Notes). */
const HEADER = 'Store,First Name,E-mail,Mobile,Invoice,Date,Notes';
const MAPPING = {
  first_name: 'First Name',
  email: 'E-mail',
  phone: 'Mobile',
  transaction_id: 'Invoice',
  transaction_date: 'Date',
  location_code: 'Store',
};

/**
 * Issue 19, item 15: a run's rejected rows download as one line per refused row (its own columns,
 * then its line in the file and all its errors), so the file can be fixed and uploaded again; and
 * every feed message names a row by its line in the file, the header being line 1, as the
 * Locations import does.
 */
for (const kind of testDatabaseKinds()) {
  describe(`Rejected rows and line numbers (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let feedId: number;
    let storeCode: string;
    const tag = Date.now().toString(36);
    const send = (method: 'POST' | 'GET', url: string, payload?: Record<string, unknown>) =>
      ctx.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
    const upload = (csv: string, name: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/data-feeds/${feedId}/upload?file_name=${name}`,
        headers: { ...headers, 'content-type': 'text/csv' },
        payload: csv,
      });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const surveys = (await send('GET', '/api/surveys?status=active&perPage=50')).json().data as { id: number; location_ids: string[] }[];
      const survey = surveys.find((s) => s.location_ids.length > 0);
      const locations = (await send('GET', '/api/endpoints?perPage=50&status=active')).json().data as {
        _id: string;
        external_code: string | null;
      }[];
      const location = locations.find((l) => l.external_code);
      if (!survey || !location?.external_code) throw new Error('no survey or store code in the demo data');
      storeCode = location.external_code;
      const feed = await send('POST', '/api/data-feeds', {
        name: `Rejected ${tag}`,
        trigger_event: 'invoice_paid',
        survey_id: survey.id,
        location_mode: 'column',
        location_id: null,
        field_mapping: MAPPING,
      });
      expect(feed.statusCode, feed.body).toBe(201);
      feedId = feed.json().data.id;
    });
    afterAll(() => ctx.close());

    it('writes one line per refused row, with its line in the file and all its errors, that can be fixed and uploaded again', async () => {
      const csv = [
        HEADER,
        `${storeCode},Alex,alex.${tag}@example.com,,A-${tag},2026-11-20,`,
        // Line 3: three errors (e-mail, phone, date) on one row.
        `${storeCode},Sam,sam@,555-12,B-${tag},13/45/2026,VIP`,
        `${storeCode},Kim,kim.${tag}@example.com,,C-${tag},2026-11-20,`,
        // Line 5: one error.
        `${storeCode},,dana.${tag}@example.com,,D-${tag},2026-11-20,"call, after 5"`,
      ].join('\r\n');

      // The dry run names the rows by their line in the file (the header is line 1).
      const dry = await send('POST', `/api/data-feeds/${feedId}/validate`, { csv });
      expect(dry.statusCode, dry.body).toBe(200);
      expect([...new Set(dry.json().data.errors.map((e: { row_number: number }) => e.row_number))]).toEqual([3, 5]);

      const started = await upload(csv, `rejected-${tag}.csv`);
      expect(started.statusCode, started.body).toBe(202);
      await ctx.app.jobs.runDue();
      const runId = started.json().data.id as number;
      const run = (await send('GET', `/api/survey-manager-logs/runs/${runId}`)).json().data;
      expect(run).toMatchObject({ rows_read: 4, rows_accepted: 2, rows_invalid: 2 });

      const rejected = await send('GET', `/api/survey-manager-logs/runs/${runId}/rejected`);
      expect(rejected.statusCode, rejected.body).toBe(200);
      expect(parseCsv(rejected.body)).toEqual([
        // The mapped columns in the template's field order (first name, e-mail, phone, …), then the others.
        ['First Name', 'E-mail', 'Mobile', 'Invoice', 'Date', 'Store', 'Notes', 'Line', 'Errors'],
        [
          'Sam',
          'sam@',
          '555-12',
          `B-${tag}`,
          '13/45/2026',
          storeCode,
          'VIP',
          '3',
          'E-mail: The Email field must be a valid email; Mobile: The Phone field must be a valid phone number; Date: The Transaction date field must be a date in the format yyyy-MM-dd',
        ],
        [
          '',
          `dana.${tag}@example.com`,
          '',
          `D-${tag}`,
          '2026-11-20',
          storeCode,
          'call, after 5',
          '5',
          'First Name: The First name field is required',
        ],
      ]);

      // Fixed in place and uploaded as it is (Line and Errors are columns the feed does not map): every row passes.
      const fixed = rejected.body
        .replace(',sam@,555-12,', `,sam.${tag}@example.com,,`)
        .replace('13/45/2026', '2026-11-20')
        .replace(/\r\n,dana/, '\r\nDana,dana');
      const again = await send('POST', `/api/data-feeds/${feedId}/validate`, { csv: fixed });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().data).toMatchObject({ rows_read: 2, rows_valid: 2, rows_invalid: 0 });
    });
  });
}
