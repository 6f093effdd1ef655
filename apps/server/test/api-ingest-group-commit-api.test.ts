import { and, eq, inArray, like, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { rowsOf } from '../src/db/client.ts';
import {
  apiCallLogs,
  clientSurveySettings,
  clients,
  dataFeedRuns,
  dataFeeds,
  endpointConfigs,
  locations,
  surveyProcessingItems,
  surveys,
  users,
} from '../src/db/schema/index.ts';
import { admitCalls, type IngestCall } from '../src/modules/api-endpoints/ingest-batch.ts';
import { normalize } from '../src/pipeline/ingest/normalize.ts';
import { feedForIngest } from '../src/pipeline/ingest/process.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * One client's overlapping ingest calls admitted together (decision 078): the same outcomes as the
 * calls one after another in the order they were admitted (duplicates across calls skipped once,
 * over-surveying across calls, a daily cap's places taken once), each call answered only its own
 * rows with its own run and call-log line; a call whose rows the database refuses fails alone; and
 * two app instances on one PostgreSQL still ordered by the admit lock.
 */

const CALLS = 20;
const CAP = 5;
type Answer = {
  run_id: number;
  accepted: { row: number; processing_item_id: number; status: string }[];
  rejected: { row: number }[];
};

for (const kind of testDatabaseKinds()) {
  describe(`Ingest calls admitted together (${kind})`, () => {
    let ctx: TestContext;
    let token = '';
    let locationId = '';
    let clientId = 0;
    const today = new Date().toISOString().slice(0, 10);

    /** Call i of set `tag`: its own customer, the shared transaction, the shared contact, a bad row. */
    const payload = (tag: string, i: number) => [
      { first_name: 'Own', email: `gc.${tag}.${i}.own@example.com`, transaction_id: `GC-${tag}-${i}-own`, transaction_date: today },
      { first_name: 'Dup', email: `gc.${tag}.${i}.dup@example.com`, transaction_id: `GC-${tag}-SHARED`, transaction_date: today },
      { first_name: 'Again', email: `gc.${tag}.shared@example.com`, transaction_id: `GC-${tag}-${i}-contact`, transaction_date: today },
      { first_name: 'Bad', email: 'not-an-email', transaction_id: `GC-${tag}-${i}-bad`, transaction_date: today },
    ];
    const call = (app: FastifyInstance, tag: string, i: number) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/endpoints/${locationId}/transactions`,
        remoteAddress: '127.0.0.1',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(payload(tag, i)),
      });

    /** The statuses calls one after another would get, the first call in the order given winning the shared rows. */
    const sequential = (n: number) =>
      Array.from({ length: n }, (_, i) => [
        'scheduled',
        i === 0 ? 'scheduled' : 'skipped_duplicate',
        i === 0 ? 'scheduled' : 'skipped_over_survey',
      ]);

    /** Each answer is its own call's only (rows 1–3 accepted, row 4 rejected, items of its run and its transactions); answers them in admission order. */
    const checkAnswers = async (answers: Answer[], tag: string) => {
      const db = ctx.database.db;
      for (const a of answers) {
        expect(a.accepted.map((r) => r.row)).toEqual([1, 2, 3]);
        expect(a.rejected.map((r) => r.row)).toEqual([4]);
      }
      expect(new Set(answers.map((a) => a.run_id)).size).toBe(answers.length);
      const items = await db
        .select({ id: surveyProcessingItems.id, runId: surveyProcessingItems.runId, txn: surveyProcessingItems.transactionId })
        .from(surveyProcessingItems)
        .where(like(surveyProcessingItems.transactionId, `GC-${tag}-%`));
      expect(items).toHaveLength(answers.length * 3);
      const byId = new Map(items.map((i) => [i.id, i]));
      for (const a of answers) {
        for (const r of a.accepted) expect(byId.get(r.processing_item_id)?.runId).toBe(a.run_id);
      }
      // Items are numbered as admitted (under the lock), so a call's first item orders the calls.
      const ordered = [...answers].sort((x, y) => (x.accepted[0]?.processing_item_id ?? 0) - (y.accepted[0]?.processing_item_id ?? 0));
      expect(ordered.map((a) => a.accepted.map((r) => r.status))).toEqual(sequential(answers.length));
      const logs = await db
        .select()
        .from(apiCallLogs)
        .where(
          inArray(
            apiCallLogs.runId,
            answers.map((a) => a.run_id),
          ),
        );
      expect(logs).toHaveLength(answers.length);
      for (const log of logs) expect(log).toMatchObject({ statusCode: 200, rowsAccepted: 3, rowsRejected: 1, error: '1 row rejected' });
      const runs = await db
        .select()
        .from(dataFeedRuns)
        .where(
          inArray(
            dataFeedRuns.id,
            answers.map((a) => a.run_id),
          ),
        );
      for (const run of runs) expect(run).toMatchObject({ status: 'partial', rowsRead: 4, rowsInvalid: 1, lockedBy: null });
      return ordered;
    };

    /** No day of the location holds more invitations than the cap, and later-admitted rows never take an earlier day. */
    const checkCap = async (tag: string) => {
      const result = await ctx.database.db.execute(sql`
        with ours as (
          select i.id, (i.scheduled_at at time zone c.timezone)::date as day from survey_processing_items i join clients c on c.id = i.client_id
          where i.transaction_id like ${`GC-${tag}-%`} and i.status = 'scheduled')
        select o.id, o.day::text as day, (select count(*)::int from survey_processing_items a join clients c on c.id = a.client_id
            where a.location_id = ${locationId} and a.status = 'scheduled' and (a.scheduled_at at time zone c.timezone)::date = o.day) as taken
        from ours o order by o.id`);
      const rows = rowsOf(result);
      expect(rows.length).toBeGreaterThan(CAP);
      for (const r of rows) expect(Number(r.taken)).toBeLessThanOrEqual(CAP);
      const days = rows.map((r) => String(r.day));
      expect(days).toEqual([...days].sort());
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      const headers = { ...bearer(await login(ctx.app, 'admin@example.com')), 'content-type': 'application/json' };
      const db = ctx.database.db;
      const [target] = await db
        .select({ locationId: locations.id, surveyId: surveys.id, clientId: surveys.clientId })
        .from(surveys)
        .innerJoin(locations, eq(locations.clientId, surveys.clientId))
        .innerJoin(clients, eq(clients.id, surveys.clientId))
        .where(and(eq(surveys.status, 'active'), ne(surveys.channel, 'sms'), eq(locations.status, 'active'), eq(clients.status, 'active')))
        .limit(1);
      locationId = target?.locationId ?? '';
      clientId = target?.clientId ?? 0;
      const [admin] = await db.select().from(users).where(eq(users.email, 'admin@example.com'));
      const made = await ctx.app.inject({
        method: 'POST',
        url: '/api/api-token',
        headers,
        payload: { user_id: admin?.id, name: 'Group commit', scopes: ['feeds:write'] },
      });
      token = made.json().data.token;
      const saved = await ctx.app.inject({
        method: 'PUT',
        url: `/api/api-endpoints/${locationId}`,
        headers,
        payload: { survey_id: target?.surveyId, rate_limit_per_min: 6000 },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const cap = { dailyCapPerLocation: CAP };
      const [had] = await db.update(clientSurveySettings).set(cap).where(eq(clientSurveySettings.clientId, clientId)).returning();
      if (!had) await db.insert(clientSurveySettings).values({ clientId, fromName: 'Group', fromEmail: 'group@example.com', ...cap });
    });
    afterAll(() => ctx.close());

    it('20 calls at once: the outcomes of the calls one after another, each answered only its own rows', async () => {
      const responses = await Promise.all(Array.from({ length: CALLS }, (_, i) => call(ctx.app, 'at-once', i)));
      for (const res of responses) expect(res.statusCode, res.body).toBe(200);
      await checkAnswers(
        responses.map((res) => res.json().data),
        'at-once',
      );
      await checkCap('at-once');
      // Admitted together: calls of one batch share the batch's time, so fewer times than calls. On
      // PGlite's one connection a call's own reads queue behind the running batch, so calls seldom
      // overlap there and each may be its own batch.
      const times = await ctx.database.db
        .selectDistinct({ at: surveyProcessingItems.createdAt })
        .from(surveyProcessingItems)
        .where(like(surveyProcessingItems.transactionId, 'GC-at-once-%'));
      if (kind === 'pg') expect(times.length).toBeLessThan(CALLS);

      // The same calls one after another: the same statuses, call by call.
      const seq: Answer[] = [];
      for (let i = 0; i < 5; i++) seq.push((await call(ctx.app, 'one-by-one', i)).json().data);
      expect((await checkAnswers(seq, 'one-by-one')).map((a) => a.run_id)).toEqual(seq.map((a) => a.run_id));
    });

    it('a call whose rows the database refuses fails alone; a failure that is not the rows fails its batch, nothing written', async () => {
      const db = ctx.database.db;
      const [config] = await db.select().from(endpointConfigs).where(eq(endpointConfigs.locationId, locationId));
      const [feed] = await db
        .select()
        .from(dataFeeds)
        .where(eq(dataFeeds.id, config?.dataFeedId ?? 0));
      if (!feed) throw new Error('no feed');
      const made = async (tag: string, i: number, f = feed): Promise<IngestCall> => {
        const records = payload(tag, i).map((raw, n) => ({ rowNumber: n + 1, raw }));
        return {
          feed: f,
          rowsRead: records.length,
          normalized: await normalize(db, feedForIngest(f), records),
          receivedAt: new Date(),
          log: { locationId, tokenId: null, ip: '127.0.0.1' },
        };
      };
      // A NUL in a name: PostgreSQL refuses it (the route's input guard never lets one in).
      const bad = await made('refused', 1);
      bad.normalized.rows = bad.normalized.rows.map((r) => ({ ...r, firstName: 'a\u0000b' }));
      const settled = await admitCalls(db, ctx.app.clock, [await made('refused', 0), bad, await made('refused', 2)]);
      const answers = settled.map((s) => (s.status === 'fulfilled' ? s.value : null));
      expect(answers.map((a) => a?.result.accepted.map((r) => r.status))).toEqual([
        ['scheduled', 'scheduled', 'scheduled'],
        [],
        ['scheduled', 'skipped_duplicate', 'skipped_over_survey'],
      ]);
      expect(answers[1]?.result.rejected.map((r) => r.row).sort()).toEqual([1, 2, 3, 4]);
      const [refusedRun] = await db
        .select()
        .from(dataFeedRuns)
        .where(eq(dataFeedRuns.id, answers[1]?.result.run_id ?? 0));
      expect(refusedRun).toMatchObject({ status: 'failed', rowsRead: 4, rowsInvalid: 4 });

      // A feed whose survey is not its client's: admitRows refuses the batch, not a row.
      const before = await db.select({ n: sql<number>`count(*)::int` }).from(apiCallLogs);
      const broken = await made('broken', 0, { ...feed, surveyId: 999_999 });
      const failed = await admitCalls(db, ctx.app.clock, [await made('broken', 1), broken]);
      expect(failed.map((s) => s.status)).toEqual(['rejected', 'rejected']);
      const items = await db.select().from(surveyProcessingItems).where(like(surveyProcessingItems.transactionId, 'GC-broken-%'));
      expect(items).toHaveLength(0);
      expect(await db.select({ n: sql<number>`count(*)::int` }).from(apiCallLogs)).toEqual(before);
    });

    it.runIf(kind === 'pg')('two app instances on one database: the admit lock still orders their batches', async () => {
      const other = await buildApp(ctx.config, { database: ctx.database });
      await other.ready();
      try {
        const responses = await Promise.all(Array.from({ length: CALLS }, (_, i) => call(i % 2 === 0 ? ctx.app : other, 'two-apps', i)));
        for (const res of responses) expect(res.statusCode, res.body).toBe(200);
        await checkAnswers(
          responses.map((res) => res.json().data),
          'two-apps',
        );
        await checkCap('two-apps');
      } finally {
        await other.close();
      }
    });
  });
}
