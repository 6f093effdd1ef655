import { mkdtempSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_FEED_FILE_BYTES } from '@admin/shared/resources/data-feeds';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFeedFiles, dataFeedRowErrors, dataFeedRuns, dataFeeds, surveyProcessingItems } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';
import { type SftpTestServer, startSftpServer } from './sftp-test-server.ts';

const HEADER = 'First Name,Last Name,E-mail,Mobile,Invoice,Date,Store';
const MAPPING = {
  first_name: 'First Name',
  last_name: 'Last Name',
  email: 'E-mail',
  phone: 'Mobile',
  transaction_id: 'Invoice',
  transaction_date: 'Date',
  location_code: 'Store',
};

for (const kind of testDatabaseKinds()) {
  describe(`Survey Platform API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let surveyId: number;
    let locationId: string;
    let storeCode: string;
    const unique = `${Date.now().toString(36)}`;
    const send = (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: unknown) =>
      ctx.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
    const createFeed = (body: Record<string, unknown>) =>
      send('POST', '/api/data-feeds', {
        name: 'Invoices',
        trigger_event: 'invoice_paid',
        survey_id: surveyId,
        location_id: locationId,
        ...body,
      });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const surveys = (await send('GET', '/api/surveys?status=active&perPage=50')).json().data as { id: number; location_ids: string[] }[];
      const survey = surveys.find((s) => s.location_ids.length > 0);
      if (!survey) throw new Error('no active survey with locations');
      surveyId = survey.id;
      const locations = (await send('GET', '/api/endpoints?perPage=50&status=active')).json().data as {
        _id: string;
        external_code: string | null;
      }[];
      const location = locations.find((l) => l.external_code);
      if (!location?.external_code) throw new Error('no location with a store code');
      [locationId, storeCode] = [location._id, location.external_code];
    });
    afterAll(() => ctx.close());

    it('refuses every rule of the form, naming the field', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ name: '' }, 'name', 'The Feed name field is required'],
        [{ name: 'x'.repeat(121) }, 'name', 'The Feed name field may not be greater than 120 characters'],
        [{ source_type: 'fax' }, 'source_type', 'The Source system field must be a valid value'],
        [{ trigger_event: 'party' }, 'trigger_event', 'The Trigger event field must be a valid value'],
        [{ survey_id: null }, 'survey_id', 'The Survey field is required'],
        [{ survey_id: 999_999 }, 'survey_id', 'The Survey must be one of this client’s surveys'],
        [{ vendor: 'v'.repeat(61) }, 'vendor', 'The Vendor field may not be greater than 60 characters'],
        [{ location_id: null }, 'location_id', 'The Fixed location field is required when the location is One location'],
        [{ location_id: 'f'.repeat(24) }, 'location_id', 'The Fixed location must be one of this client’s locations'],
        [{ schedule_cron: 'daily' }, 'schedule_cron', 'The Schedule (cron) field format is invalid'],
        [{ schedule_cron: '61 * * * *' }, 'schedule_cron', 'The Schedule (cron) field is not a schedule: The minute "61" is outside 0–59'],
        [
          { source_type: 'sftp', sftp_path: '/in', sftp_username: 'u', sftp_password: 'p' },
          'sftp_host',
          'The SFTP host field is required when the source system is SFTP',
        ],
        [{ sftp_host: 'not a host!' }, 'sftp_host', 'The SFTP host field must be a valid ip address or FQDN'],
        [{ sftp_port: 70000 }, 'sftp_port', 'The SFTP port field must be between 1 and 65535'],
        [
          { source_type: 'sftp', sftp_host: 'sftp.example.com', sftp_username: 'u' },
          'sftp_password',
          'The SFTP password field is required when the source system is SFTP',
        ],
        [{ delimiter: 'semicolon' }, 'delimiter', 'The Delimiter field must be a valid value'],
        [{ date_format: 'yyyy/MM/dd' }, 'date_format', 'The Date format field must be a valid value'],
        [{ allowed_ips: ['10.0.0.1', 'bad host!'] }, 'allowed_ips', 'The Allowed IPs field must be a valid ip address or FQDN'],
        [{ field_mapping: { email: 'E', transaction_date: 'D' } }, 'field_mapping', 'Map a column to First name'],
        [{ field_mapping: { first_name: 'F', transaction_date: 'D' } }, 'field_mapping', 'Map a column to Email or Phone (at least one)'],
        [{ field_mapping: { first_name: 'F', phone: 'P' } }, 'field_mapping', 'Map a column to Transaction date'],
        [
          { location_mode: 'column', location_id: null, field_mapping: { first_name: 'F', phone: 'P', transaction_date: 'D' } },
          'field_mapping',
          'Map a column to Location code when the location comes from a column',
        ],
      ];
      for (const [body, field, message] of cases) {
        const res = await createFeed(body);
        expect(res.statusCode, `${field} ${JSON.stringify(body)}: ${res.body}`).toBe(422);
        expect(res.json().errors?.[field], `${field}: ${res.body}`).toContain(message);
      }
    });

    it('validates a file without writing, then a run imports the good rows and stores the bad one', async () => {
      const created = await createFeed({
        name: `Store feed ${unique}`,
        location_mode: 'column',
        location_id: null,
        field_mapping: MAPPING,
      });
      expect(created.statusCode, created.body).toBe(201);
      const feed = created.json().data;
      expect(feed).toMatchObject({ location_mode: 'column', location_id: null, sftp_password_set: false, last_run: null });

      const csv = [
        HEADER,
        `Alex,Rivera,alex.${unique}@example.com,,A-${unique},2026-11-20,${storeCode}`,
        `Sam,Lee,,(303) 555-0142,B-${unique},2026-11-20,${storeCode}`,
        `Kim,Park,kim.${unique}@example.com,555-12,C-${unique},2026-11-20,${storeCode}`,
        `Dup,Row,dup.${unique}@example.com,,A-${unique},2026-11-20,${storeCode}`,
      ].join('\r\n');

      const dry = await send('POST', `/api/data-feeds/${feed.id}/validate`, { csv });
      expect(dry.statusCode, dry.body).toBe(200);
      expect(dry.json().data).toEqual({
        rows_read: 4,
        rows_valid: 3,
        rows_invalid: 1,
        errors: [{ row_number: 4, column: 'Mobile', message: 'The Phone field must be a valid phone number' }],
      });
      const runsBefore = await ctx.database.db.select().from(dataFeedRuns).where(eq(dataFeedRuns.dataFeedId, feed.id));
      expect(runsBefore).toHaveLength(0);

      // The file as the upload dialog sends it: the bytes themselves, read as they arrive.
      const upload = await ctx.app.inject({
        method: 'POST',
        url: `/api/data-feeds/${feed.id}/upload?file_name=invoices.csv`,
        headers: { ...headers, 'content-type': 'text/csv' },
        payload: csv,
      });
      expect(upload.statusCode, upload.body).toBe(202);
      expect(upload.json().data).toMatchObject({ source_name: 'invoices.csv', run_status: 'running', rows_read: 4 });
      // The workers admit the stored rows.
      await ctx.app.jobs.runDue();
      const run = (await send('GET', `/api/survey-manager-logs/runs/${upload.json().data.id}`)).json().data;
      expect(run).toMatchObject({ source_name: 'invoices.csv', run_status: 'partial', rows_read: 4, rows_done: 4, rows_invalid: 1 });
      expect(
        run.row_errors.map((e: { row_number: number; column: string; message: string }) => [e.row_number, e.column, e.message]),
      ).toEqual([[4, 'Mobile', 'The Phone field must be a valid phone number']]);
      const reasons = await ctx.database.db
        .select({ reason: surveyProcessingItems.skipReason })
        .from(surveyProcessingItems)
        .where(eq(surveyProcessingItems.runId, run.id));
      expect(run.rows_skipped.skipped_duplicate, JSON.stringify(reasons)).toBe(1);
      expect(run.rows_accepted + Object.values<number>(run.rows_skipped).reduce((a, b) => a + b, 0)).toBe(3);

      const items = await ctx.database.db
        .select({ row: surveyProcessingItems.rowNumber, status: surveyProcessingItems.status, source: surveyProcessingItems.source })
        .from(surveyProcessingItems)
        .where(eq(surveyProcessingItems.runId, run.id))
        .orderBy(surveyProcessingItems.rowNumber);
      // Rows are named by their line in the file (the header is line 1).
      expect(items.map((i) => i.row)).toEqual([2, 3, 5]);
      expect(items.every((i) => i.source === 'csv_upload')).toBe(true);
      expect(items[2]?.status).toBe('skipped_duplicate');
      const stored = await ctx.database.db.select().from(dataFeedRowErrors).where(eq(dataFeedRowErrors.runId, run.id));
      expect(stored.map((e) => [e.rowNumber, e.column, e.raw.Mobile])).toEqual([[4, 'Mobile', '555-12']]);

      const listed = (await send('GET', `/api/data-feeds?q=${unique}&has_errors=yes`)).json();
      expect(listed.data.map((f: { id: number }) => f.id)).toEqual([feed.id]);
      expect(listed.data[0]).toMatchObject({ last_received: 'invoices.csv', last_run: { id: run.id, status: 'partial', rows_invalid: 1 } });

      const template = await send('GET', `/api/data-feeds/${feed.id}/template`);
      expect(template.statusCode).toBe(200);
      // The feed's own columns (data-feeds-template.test.ts checks the row passes Validate).
      expect(template.body.split('\r\n')[0]).toBe(HEADER);

      const preview = await send('POST', '/api/data-feeds/preview', { csv, delimiter: 'comma', has_header: true });
      expect(preview.json().data.columns).toEqual(HEADER.split(','));
      expect(preview.json().data.rows[0][0]).toBe('Alex');

      // Paused: nothing is ingested.
      const loaded = (await send('GET', `/api/data-feeds/${feed.id}`)).json().data;
      const paused = await send('PATCH', `/api/data-feeds/${feed.id}/status`, { status: 'paused', updated_at: loaded.updated_at });
      expect(paused.statusCode, paused.body).toBe(200);
      expect((await send('POST', `/api/data-feeds/${feed.id}/upload`, { csv })).statusCode).toBe(423);
      // A file that is not CSV is refused whole, naming it.
      const broken = await send('POST', `/api/data-feeds/${feed.id}/validate`, { csv: 'a,b\n"open,1\n' });
      expect(broken.statusCode).toBe(422);
      expect(Object.keys(broken.json().errors)).toEqual(['csv']);
    });

    it('never answers the SFTP password and pulls a dropped file once', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sftp-feed-'));
      const server: SftpTestServer = await startSftpServer(dir, { username: 'feeds', password: 'open-sesame' });
      try {
        const created = await createFeed({
          name: `SFTP feed ${unique}`,
          source_type: 'sftp',
          sftp_host: '127.0.0.1',
          sftp_port: server.port,
          sftp_path: '/',
          sftp_username: 'feeds',
          sftp_password: 'open-sesame',
          file_name_pattern: 'invoices_*.csv',
          field_mapping: { first_name: 'First Name', email: 'E-mail', transaction_id: 'Invoice', transaction_date: 'Date' },
        });
        expect(created.statusCode, created.body).toBe(201);
        const feed = created.json().data;
        expect(feed.sftp_password_set).toBe(true);
        expect(created.body).not.toContain('open-sesame');
        const [row] = await ctx.database.db.select().from(dataFeeds).where(eq(dataFeeds.id, feed.id));
        expect(row?.sftpPasswordEnc).not.toContain('open-sesame');

        writeFileSync(
          join(dir, 'invoices_1.csv'),
          `First Name,E-mail,Invoice,Date\nAlex,sftp.${unique}@example.com,S-${unique},2026-11-20\n`,
        );
        writeFileSync(join(dir, 'other.txt'), 'not a feed file');
        utimesSync(join(dir, 'invoices_1.csv'), new Date('2026-11-20T10:00:00Z'), new Date('2026-11-20T10:00:00Z'));

        const first = await send('POST', `/api/data-feeds/${feed.id}/run`);
        expect(first.statusCode, first.body).toBe(202);
        await ctx.app.jobs.runDue();
        const runs = await ctx.database.db.select().from(dataFeedRuns).where(eq(dataFeedRuns.dataFeedId, feed.id));
        expect(runs.map((r) => [r.source, r.sourceName, r.rowsRead, r.status])).toEqual([['sftp', 'invoices_1.csv', 1, 'succeeded']]);
        const taken = await ctx.database.db.select().from(dataFeedFiles).where(eq(dataFeedFiles.dataFeedId, feed.id));
        expect(taken.map((f) => [f.name, f.runId])).toEqual([['invoices_1.csv', runs[0]?.id]]);

        // A second poll takes nothing: the file is remembered.
        expect((await send('POST', `/api/data-feeds/${feed.id}/run`)).statusCode).toBe(202);
        await ctx.app.jobs.runDue();
        expect(await ctx.database.db.select().from(dataFeedRuns).where(eq(dataFeedRuns.dataFeedId, feed.id))).toHaveLength(1);

        // A file too big to read is taken with a failed run saying why, without being downloaded (a sparse file: no disk used).
        const big = join(dir, 'invoices_2.csv');
        writeFileSync(big, '');
        truncateSync(big, MAX_FEED_FILE_BYTES + 1);
        expect((await send('POST', `/api/data-feeds/${feed.id}/run`)).statusCode).toBe(202);
        await ctx.app.jobs.runDue();
        const [tooBig] = await ctx.database.db
          .select()
          .from(dataFeedRuns)
          .where(and(eq(dataFeedRuns.dataFeedId, feed.id), eq(dataFeedRuns.sourceName, 'invoices_2.csv')));
        expect(tooBig).toMatchObject({
          status: 'failed',
          rowsRead: 0,
          error: 'The file is 61 MB; a feed file may be at most 60 MB. Split it into smaller files.',
        });
      } finally {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
