import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFeedRuns, systemLogs } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';
import { type SftpTestServer, startSftpServer } from './sftp-test-server.ts';

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 1));
    });
  });
}

for (const kind of testDatabaseKinds()) {
  describe(`SFTP pulls that fail say so (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let sftp: SftpTestServer;
    const dir = mkdtempSync(join(tmpdir(), 'pull-fail-'));
    let surveyId = 0;
    let locationId = '';
    const send = (method: 'POST' | 'GET', url: string, payload?: Record<string, unknown>) =>
      ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const feedWith = async (name: string, settings: Record<string, unknown>) => {
      const res = await send('POST', '/api/data-feeds', {
        name,
        trigger_event: 'invoice_paid',
        survey_id: surveyId,
        location_id: locationId,
        source_type: 'sftp',
        sftp_host: '127.0.0.1',
        sftp_path: '/',
        sftp_username: 'feeds',
        file_name_pattern: 'pull_*.csv',
        field_mapping: { first_name: 'First', email: 'Email', transaction_id: 'Txn', transaction_date: 'Date' },
        ...settings,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as { id: number };
    };
    const pull = async (feedId: number) => {
      expect((await send('POST', `/api/data-feeds/${feedId}/run`)).statusCode).toBe(202);
      await ctx.app.jobs.runDue();
      const runs = await ctx.database.db.select().from(dataFeedRuns).where(eq(dataFeedRuns.dataFeedId, feedId));
      const feed = (await send('GET', `/api/data-feeds/${feedId}`)).json().data as { last_error: string | null };
      return { runs, feed };
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      sftp = await startSftpServer(dir, { username: 'feeds', password: 'open-sesame' });
      const surveys = (await send('GET', '/api/surveys?status=active&perPage=50')).json().data as { id: number; location_ids: string[] }[];
      const survey = surveys.find((s) => s.location_ids.length > 0);
      if (!survey) throw new Error('no active survey with locations');
      [surveyId, locationId] = [survey.id, survey.location_ids[0] ?? ''];
    });
    afterAll(async () => {
      await sftp.close();
      await ctx.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('records a pull that cannot connect as a failed run, a System Logs warning and the feed’s last error', async () => {
      const feed = await feedWith('Nobody home', { sftp_port: await closedPort(), sftp_password: 'open-sesame' });
      const { runs, feed: after } = await pull(feed.id);
      expect(runs.map((r) => [r.status, r.source])).toEqual([['failed', 'sftp']]);
      expect(runs[0]?.error).toMatch(/Could not connect to the SFTP server at 127\.0\.0\.1:\d+: nothing answers on that port\./);
      expect(after.last_error).toBe(runs[0]?.error);
      const warnings = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'data_feed.pull_failed'), eq(systemLogs.entityId, String(feed.id))));
      expect(warnings.map((w) => [w.level, w.message])).toEqual([['warn', `SFTP pull of feed Nobody home failed: ${runs[0]?.error}`]]);
    });

    it('names a refused password, then clears the error once a pull gets through', async () => {
      const wrong = await feedWith('Wrong password', { sftp_port: sftp.port, sftp_password: 'not-it' });
      const { runs } = await pull(wrong.id);
      expect(runs[0]?.error).toBe(`The SFTP server at 127.0.0.1:${sftp.port} refused the user name or password.`);

      expect((await pull(wrong.id)).feed.last_error).toBe(runs[0]?.error);

      // The password corrected: the next pull gets through and the feed's error is gone.
      const { updated_at } = (await send('GET', `/api/data-feeds/${wrong.id}`)).json().data as { updated_at: string };
      const fixed = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/data-feeds/${wrong.id}`,
        headers,
        payload: { sftp_password: 'open-sesame', updated_at },
      });
      expect(fixed.statusCode, fixed.body).toBe(200);
      writeFileSync(join(dir, 'pull_1.csv'), 'First,Email,Txn,Date\nAlex,alex.pull@example.com,PULL-1,2026-11-20\n');
      const after = await pull(wrong.id);
      expect(after.runs.filter((r) => r.sourceName === 'pull_1.csv').map((r) => [r.status, r.rowsRead])).toEqual([['succeeded', 1]]);
      expect(after.feed.last_error).toBeNull();
    });
  });
}
