import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf as resultRows } from '../src/db/client.ts';
import { type DemoStore, demoStore } from './crash/demo-store.ts';
import { apiClient, type ServerProcess, signIn, startServer, waitFor } from './crash/server-process.ts';
import { DEMO_PASSWORD, testDatabaseKinds } from './helpers.ts';
import { type SftpTestServer, startSftpServer } from './sftp-test-server.ts';

/**
 * kill -9 in the middle of a feed run, then a restart (docs/decisions/031-feed-runs-resume.md):
 * an upload, an SFTP pull and a re-run cut off while their rows were being admitted finish after
 * the restart with every row of the file admitted exactly once; an upload cut off while it was
 * arriving says it failed and admitted nothing. The server runs in its own process, on PGlite
 * (a data directory) and on PostgreSQL.
 */

type Run = { id: number; run_status: string; received: boolean; rows_read: number; rows_done: number; error: string | null };
type Envelope<T> = { data: T };

/**
 * Rows of a file admitted in a run that is killed midway: many admission batches on either engine
 * (150 rows each on PGlite, 2,000 on PostgreSQL: run-store.ts), so the kill lands between two.
 */
const ROWS = 8_000;
/**
 * Rows of the upload cut off while arriving: rows are stored as they arrive five batches per
 * transaction (BATCHES_PER_STORE), 10,000 rows on PostgreSQL, so the part that arrives must be more.
 */
const ARRIVING_ROWS = 20_000;
const FINISH_MS = 120_000;

/**
 * On PostgreSQL a restarted server waits out the killed worker's lease (RUN_LEASE_MS, 30 s) before
 * taking its runs over. The test moves those leases to their end instead of waiting 30 s per kill;
 * that a lease lapses with time, and only then, is feed-run-lease.test.ts's, on a test clock.
 */
async function lapseLeases(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`update data_feed_runs set locked_until = now() - interval '1 second' where locked_by is not null`);
  } finally {
    await client.end();
  }
}
const HEADER = 'First,Email,Txn,Date';
const rowsOf = (tag: string, n: number, date: string) =>
  Array.from({ length: n }, (_, i) => `P${i},${tag}.${i}@example.com,${tag}-${i},${date}`);

for (const kind of testDatabaseKinds()) {
  describe(`Feed runs cut off by kill -9 (${kind})`, { timeout: 400_000 }, () => {
    let server: ServerProcess;
    let token = '';
    let env: Record<string, string>;
    let dataDir: string | null = null;
    let databaseUrl: string | null = null;
    let store: DemoStore | undefined;
    let sftp: SftpTestServer;
    const sftpDir = mkdtempSync(join(tmpdir(), 'crash-sftp-'));
    const call = apiClient(
      () => server,
      () => token,
    );
    const today = new Date().toISOString().slice(0, 10);
    let surveyId = 0;
    let locationId = '';
    /** What the database must hold at the end: each run's rows, once each. */
    const expected: { runIds: () => Promise<number[]>; rows: number; tag: string }[] = [];

    const runOf = async (id: number) => (await call<Envelope<Run>>('GET', `/api/survey-manager-logs/runs/${id}`)).json.data;
    const runsOfFeed = async (feedId: number) =>
      (await call<Envelope<Run[]>>('GET', `/api/survey-manager-logs/runs?feed=${feedId}`)).json.data;
    const restart = async () => {
      await server.kill();
      if (databaseUrl) await lapseLeases(databaseUrl);
      server = await startServer(env);
      token = await signIn(server, 'admin@example.com', DEMO_PASSWORD);
    };
    const createFeed = async (body: Record<string, unknown>) => {
      const res = await call<Envelope<{ id: number; updated_at: string }>>('POST', '/api/data-feeds', {
        name: `Crash feed ${randomBytes(3).toString('hex')}`,
        trigger_event: 'invoice_paid',
        survey_id: surveyId,
        location_id: locationId,
        field_mapping: { first_name: 'First', email: 'Email', transaction_id: 'Txn', transaction_date: 'Date' },
        ...body,
      });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      return res.json.data;
    };
    const upload = async (feedId: number, csv: string) => {
      const res = await call<Envelope<{ id: number }>>('POST', `/api/data-feeds/${feedId}/upload?file_name=crash.csv`, csv, 'text/csv');
      expect(res.status, JSON.stringify(res.json)).toBe(202);
      return res.json.data.id;
    };
    /** Waits until a run is part-way through admitting its rows, and checks it is truly part-way. */
    const midway = async (read: () => Promise<Run | undefined>) => {
      const run = await waitFor(read, (r) => r !== undefined && r.rows_done > 0, 60_000, 'rows admitted').catch((err: unknown) => {
        throw new Error(`${String(err)}\n--- server output ---\n${server.output().slice(-3000)}`);
      });
      if (!run) throw new Error('no run');
      expect(run.rows_done, 'the run must still have rows to admit when it is killed').toBeLessThan(ROWS);
      return run;
    };

    beforeAll(async () => {
      sftp = await startSftpServer(sftpDir, { username: 'feeds', password: 'open-sesame' });
      store = await demoStore(kind);
      ({ dataDir, databaseUrl } = store);
      env = { ...store.env, SFTP_ALLOW_PRIVATE: 'on', WORKERS: 'on' };
      server = await startServer(env);
      token = await signIn(server, 'admin@example.com', DEMO_PASSWORD);
      const surveys = (await call<Envelope<{ id: number; location_ids: string[] }[]>>('GET', '/api/surveys?status=active&perPage=50')).json
        .data;
      const survey = surveys.find((s) => s.location_ids.length > 0);
      if (!survey) throw new Error('no active survey with locations');
      surveyId = survey.id;
      locationId = survey.location_ids[0] ?? '';
    });

    afterAll(async () => {
      await server?.stop();
      await sftp?.close();
      rmSync(sftpDir, { recursive: true, force: true });
      await store?.remove();
    });

    it('resumes an upload killed while its rows were admitted', async () => {
      const feed = await createFeed({});
      const tag = `up${randomBytes(3).toString('hex')}`;
      const runId = await upload(feed.id, [HEADER, ...rowsOf(tag, ROWS, today)].join('\n'));
      await midway(() => runOf(runId));
      await restart();
      const done = await waitFor(
        () => runOf(runId),
        (r) => r.run_status !== 'running',
        FINISH_MS,
        'the resumed run',
      );
      expect(done).toMatchObject({ run_status: 'succeeded', rows_read: ROWS, rows_done: ROWS });
      expected.push({ runIds: async () => [runId], rows: ROWS, tag });
    });

    it('fails an upload killed while it was arriving, admitting none of it', async () => {
      const feed = await createFeed({});
      const tag = `half${randomBytes(3).toString('hex')}`;
      // A chunked upload whose first chunk is most of the file.
      const sending = connect(Number(new URL(server.url).port), '127.0.0.1');
      sending.on('error', () => undefined);
      const chunk = Buffer.from(`${[HEADER, ...rowsOf(tag, ARRIVING_ROWS, today)].join('\n')}\n`);
      sending.write(
        `POST /api/data-feeds/${feed.id}/upload?file_name=half.csv HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: text/csv\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.length.toString(16)}\r\n`,
      );
      sending.write(chunk);
      sending.write('\r\n');
      // The rest of the file never comes: the server is killed while it waits for it.
      const arriving = await waitFor(
        async () => (await runsOfFeed(feed.id))[0],
        (r) => r !== undefined && r.rows_read > 0,
        60_000,
        'rows stored',
      );
      expect(arriving?.received).toBe(false);
      await restart();
      sending.destroy();
      const failed = await waitFor(
        () => runOf(arriving?.id ?? 0),
        (r) => r.run_status !== 'running',
        FINISH_MS,
        'the cut-off run',
      );
      expect(failed.run_status).toBe('failed');
      expect(failed.error).toContain('stopped arriving');
      expected.push({ runIds: async () => [arriving?.id ?? 0], rows: 0, tag });
    });

    it('resumes an SFTP pull killed while its rows were admitted, and never takes the file again', async () => {
      const feed = await createFeed({
        source_type: 'sftp',
        sftp_host: '127.0.0.1',
        sftp_port: sftp.port,
        sftp_path: '/',
        sftp_username: 'feeds',
        sftp_password: 'open-sesame',
        file_name_pattern: 'crash_*.csv',
      });
      const tag = `sftp${randomBytes(3).toString('hex')}`;
      writeFileSync(join(sftpDir, `crash_${tag}.csv`), [HEADER, ...rowsOf(tag, ROWS, today)].join('\n'));
      expect((await call('POST', `/api/data-feeds/${feed.id}/run`)).status).toBe(202);
      await midway(async () => (await runsOfFeed(feed.id))[0]);
      await restart();
      await waitFor(
        () => runsOfFeed(feed.id),
        (runs) => runs.every((r) => r.run_status !== 'running'),
        FINISH_MS,
        'the pull',
      );
      // A second pull finds the file taken. Run now queues nothing while a pull of the feed waits or
      // runs ("already waiting"), so a second pull queued means the one before it has ended.
      const runNow = () => call<Envelope<{ queued: boolean }>>('POST', `/api/data-feeds/${feed.id}/run`);
      await waitFor(runNow, (res) => res.json.data.queued, FINISH_MS, 'a second pull queued');
      await waitFor(runNow, (res) => res.json.data.queued, FINISH_MS, 'the second pull to end');
      const runs = await runsOfFeed(feed.id);
      expect(runs.map((r) => [r.run_status, r.rows_read, r.rows_done])).toEqual([['succeeded', ROWS, ROWS]]);
      expected.push({ runIds: async () => runs.map((r) => r.id), rows: ROWS, tag });
    });

    it('resumes a re-run of failed rows killed while its rows were admitted', async () => {
      const feed = await createFeed({});
      const tag = `re${randomBytes(3).toString('hex')}`;
      // Dates the feed does not read (dd/MM/yyyy for yyyy-MM-dd): every row refused…
      const [y, m, d] = today.split('-');
      const first = await upload(feed.id, [HEADER, ...rowsOf(tag, ROWS, `${d}/${m}/${y}`)].join('\n'));
      const refused = await waitFor(
        () => runOf(first),
        (r) => r.run_status !== 'running',
        FINISH_MS,
        'the refused run',
      );
      expect(refused.run_status).toBe('failed');
      // …until the feed is told the format, and its failed rows are re-run.
      const current = (await call<Envelope<{ updated_at: string }>>('GET', `/api/data-feeds/${feed.id}`)).json.data;
      const patched = await call('PATCH', `/api/data-feeds/${feed.id}`, { date_format: 'dd/MM/yyyy', updated_at: current.updated_at });
      expect(patched.status, JSON.stringify(patched.json)).toBe(200);
      const rerun = await call<Envelope<{ id: number }>>('POST', `/api/survey-manager-logs/runs/${first}/rerun`);
      expect(rerun.status, JSON.stringify(rerun.json)).toBe(202);
      await midway(() => runOf(rerun.json.data.id));
      await restart();
      const done = await waitFor(
        () => runOf(rerun.json.data.id),
        (r) => r.run_status !== 'running',
        FINISH_MS,
        'the resumed re-run',
      );
      expect(done).toMatchObject({ run_status: 'succeeded', rows_read: ROWS, rows_done: ROWS });
      expected.push({ runIds: async () => [rerun.json.data.id], rows: ROWS, tag });
    });

    it('holds every row of each file exactly once', async () => {
      const checks = await Promise.all(expected.map(async (e) => ({ ...e, ids: await e.runIds() })));
      await server.stop();
      const database = await openDatabase(kind === 'pglite' ? { kind: 'pglite', dataDir } : { kind: 'pg', url: databaseUrl ?? '' });
      try {
        for (const check of checks) {
          const result = await database.db.execute(
            sql`select count(*)::int as items, count(distinct transaction_id)::int as transactions from survey_processing_items
                where run_id in (select jsonb_array_elements_text(${JSON.stringify(check.ids)}::jsonb)::int)
                  and transaction_id like ${`${check.tag}-%`}`,
          );
          const [row] = resultRows(result);
          expect(row, check.tag).toEqual({ items: check.rows, transactions: check.rows });
        }
      } finally {
        await database.close();
      }
      server = await startServer(env);
    });
  });
}
