import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { apiCallLogs, apiRefusalSummaries, jobs, loginAttempts, loginRefusalSummaries, systemLogs } from '../src/db/schema/index.ts';
import { HOUSEKEEPING_QUEUE, installHousekeeping, nextRunAfter } from '../src/housekeeping/job.ts';
import type { RetentionConfig } from '../src/housekeeping/retention.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { createQueue } from '../src/pipeline/queue.ts';
import { spaPlugin } from '../src/plugins/spa.ts';
import { startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const DAY = 86_400_000;
/** A run time of the daily job, well after the demo's rows. */
const RUN = nextRunAfter(new Date('2027-01-10T00:00:00Z'));
const ago = (days: number, from = RUN) => new Date(from.getTime() - days * DAY);
const FIXTURE = 'housekeeping.fixture';
const IP = '203.0.113.9';
const OFF: RetentionConfig = { finishedJobsDays: null, loginAttemptsDays: null, apiCallLogsDays: null, systemLogsDays: null };

describe('housekeeping settings and schedule', () => {
  it('reads whole days, 0 or off (keep forever), with the documented defaults, and names a bad variable', () => {
    expect(loadConfig({}).retention).toEqual({ finishedJobsDays: 14, loginAttemptsDays: 30, apiCallLogsDays: 30, systemLogsDays: 365 });
    const set = loadConfig({
      JOBS_RETENTION_DAYS: 'off',
      LOGIN_ATTEMPTS_RETENTION_DAYS: '0',
      API_CALL_LOGS_RETENTION_DAYS: '90',
      SYSTEM_LOGS_RETENTION_DAYS: 'OFF',
    });
    expect(set.retention).toEqual({ finishedJobsDays: null, loginAttemptsDays: null, apiCallLogsDays: 90, systemLogsDays: null });
    for (const [name, value] of [
      ['JOBS_RETENTION_DAYS', '-1'],
      ['SYSTEM_LOGS_RETENTION_DAYS', '2.5'],
      ['LOGIN_ATTEMPTS_RETENTION_DAYS', '40000'],
      ['API_CALL_LOGS_RETENTION_DAYS', 'never'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(name);
    }
  });

  it('runs daily at 09:00 UTC, the first such time after the one given', () => {
    expect(nextRunAfter(new Date('2027-01-10T08:59:59Z')).toISOString()).toBe('2027-01-10T09:00:00.000Z');
    expect(nextRunAfter(new Date('2027-01-10T09:00:00Z')).toISOString()).toBe('2027-01-11T09:00:00.000Z');
    expect(nextRunAfter(new Date('2027-12-31T22:00:00Z')).toISOString()).toBe('2028-01-01T09:00:00.000Z');
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`Housekeeping (${kind})`, () => {
    let ctx: TestContext;
    const db = () => ctx.database.db;

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      // The demo's own due work (next day's invitations, alerts…) is done here, not inside a test's time.
      await ctx.app.jobs.runDue(ago(1));
    }, 180_000);
    afterAll(async () => ctx?.close());

    beforeEach(async () => {
      // Only this file's rows in the ranges a pass removes; the demo's recent rows stay.
      await db()
        .delete(jobs)
        .where(sql`${jobs.queue} = ${HOUSEKEEPING_QUEUE} or ${jobs.status} in ('done', 'failed') or ${jobs.queue} = ${FIXTURE}`);
      await db().delete(loginAttempts);
      await db().delete(loginRefusalSummaries);
      await db().delete(apiCallLogs);
      await db().delete(apiRefusalSummaries);
      await db()
        .delete(systemLogs)
        .where(
          sql`${systemLogs.at} < ${ago(300).toISOString()}::timestamptz or ${systemLogs.action} in (${FIXTURE}, 'housekeeping.prune')`,
        );
    });

    /** A job of a queue nobody works, so it stays as written. */
    const addJob = async (status: 'pending' | 'running' | 'done' | 'failed', finished: Date | null, created = ago(100)) => {
      const [row] = await db()
        .insert(jobs)
        .values({
          queue: FIXTURE,
          status,
          runAt: created,
          createdAt: created,
          finishedAt: finished,
          lockedUntil: status === 'running' ? ago(-1) : null,
        })
        .returning({ id: jobs.id });
      return row?.id ?? 0;
    };
    const addLog = async (at: Date) => {
      const [row] = await db()
        .insert(systemLogs)
        .values({ at, level: 'info', service: 'api', action: FIXTURE, message: 'fixture' })
        .returning({ id: systemLogs.id });
      return row?.id ?? 0;
    };
    const addCall = (receivedAt: Date) =>
      db().insert(apiCallLogs).values({ locationId: 'L-HK', receivedAt, ip: IP, statusCode: 200 }).returning({ id: apiCallLogs.id });
    const summary = (windowStart: Date, systemLogId: number) => ({
      ip: IP,
      windowStart,
      systemLogId,
      firstAt: windowStart,
      lastAt: windowStart,
    });

    const fixtureJobIds = async () =>
      (await db().select({ id: jobs.id }).from(jobs).where(eq(jobs.queue, FIXTURE)).orderBy(jobs.id)).map((r) => r.id);
    const logIds = async () =>
      (await db().select({ id: systemLogs.id }).from(systemLogs).where(eq(systemLogs.action, FIXTURE)).orderBy(systemLogs.id)).map(
        (r) => r.id,
      );
    const housekeepingJobs = () => db().select().from(jobs).where(eq(jobs.queue, HOUSEKEEPING_QUEUE)).orderBy(jobs.runAt, jobs.id);
    const passLines = () => db().select().from(systemLogs).where(eq(systemLogs.action, 'housekeeping.prune')).orderBy(systemLogs.id);

    it('removes rows older than their retention, keeps recent rows, unfinished jobs and a log row a summary shows, and says so in one line', async () => {
      const doneOld = await addJob('done', ago(15));
      const failedOld = await addJob('failed', ago(20));
      const doneRecent = await addJob('done', ago(13));
      const pending = await addJob('pending', null);
      const running = await addJob('running', null);
      await db()
        .insert(loginAttempts)
        .values([
          { email: 'a@example.com', ip: IP, succeeded: false, at: ago(31) },
          { email: 'a@example.com', ip: IP, succeeded: true, at: ago(29) },
        ]);
      const [oldCall] = await addCall(ago(31));
      const [recentCall] = await addCall(ago(29));
      const logOld = await addLog(ago(366));
      const logRecent = await addLog(ago(364));
      // An old log row shown by a recent summary stays; one shown by an old summary goes with it.
      const logOfRecentSummary = await addLog(ago(400));
      const logOfOldSummary = await addLog(ago(400));
      await db()
        .insert(loginRefusalSummaries)
        .values([
          { ...summary(ago(31), logOfOldSummary), accounts: ['a@example.com'] },
          { ...summary(ago(1), logOfRecentSummary), accounts: ['a@example.com'] },
        ]);
      await db()
        .insert(apiRefusalSummaries)
        .values([
          { ...summary(ago(31), 0), endpoints: ['L-HK'] },
          { ...summary(ago(2), 0), endpoints: ['L-HK'] },
        ]);

      // A worker's first poll queues the day's run; at its time the pass runs.
      await ctx.app.jobs.runDue(ago(0.5));
      expect((await housekeepingJobs()).map((j) => [j.status, j.runAt.toISOString()])).toEqual([['pending', RUN.toISOString()]]);
      await ctx.app.jobs.runDue(RUN);

      expect(await fixtureJobIds()).toEqual([doneRecent, pending, running]);
      expect([doneOld, failedOld].some((id) => [doneRecent, pending, running].includes(id))).toBe(false);
      expect((await db().select({ at: loginAttempts.at }).from(loginAttempts)).map((r) => r.at.getTime())).toEqual([ago(29).getTime()]);
      expect((await db().select({ id: apiCallLogs.id }).from(apiCallLogs)).map((r) => r.id)).toEqual([recentCall?.id]);
      expect(oldCall).toBeDefined();
      expect((await db().select().from(loginRefusalSummaries)).map((r) => r.systemLogId)).toEqual([logOfRecentSummary]);
      expect((await db().select().from(apiRefusalSummaries)).map((r) => r.windowStart.getTime())).toEqual([ago(2).getTime()]);
      expect(await logIds()).toEqual([logRecent, logOfRecentSummary]);
      expect(logOld).toBeLessThan(logRecent);

      const lines = await passLines();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 'info', service: 'housekeeping', at: RUN });
      expect(lines[0]?.message).toBe(
        'Housekeeping removed 2 finished jobs older than 14 days, 1 sign-in attempt older than 30 days, ' +
          '1 refused sign-in summary older than 30 days, 1 API call older than 30 days, ' +
          '1 refused API call summary older than 30 days, 2 System Logs rows older than 365 days.',
      );
      expect(lines[0]?.after).toMatchObject({
        removed: { jobs: 2, login_attempts: 1, login_refusal_summaries: 1, api_call_logs: 1, api_refusal_summaries: 1, system_logs: 2 },
        more: false,
      });
    });

    it('queues its next run once, however many runs and workers ask', async () => {
      await ctx.app.jobs.runDue(ago(0.5));
      await ctx.app.jobs.runDue(RUN);
      // A second worker starting, and the same worker an hour on, find the next run queued.
      const other = createQueue(db(), movableClock(RUN));
      installHousekeeping(other, db(), ctx.config.retention);
      await other.runDue(new Date(RUN.getTime() + 1000));
      await ctx.app.jobs.runDue(new Date(RUN.getTime() + 3_600_000));
      const queued = await housekeepingJobs();
      expect(queued.map((j) => [j.status, j.runAt.toISOString(), j.singletonKey])).toEqual([
        ['done', RUN.toISOString(), `housekeeping:${RUN.toISOString()}`],
        ['pending', ago(-1).toISOString(), `housekeeping:${ago(-1).toISOString()}`],
      ]);
      // The next day's run queues the day after, once.
      await ctx.app.jobs.runDue(ago(-1));
      expect((await housekeepingJobs()).filter((j) => j.status === 'pending').map((j) => j.runAt.toISOString())).toEqual([
        ago(-2).toISOString(),
      ]);
      expect(await passLines()).toHaveLength(2);
    });

    it('keeps everything when retention is off, and still says it ran', async () => {
      await addJob('done', ago(1000));
      await db()
        .insert(loginAttempts)
        .values({ email: 'a@example.com', ip: IP, succeeded: false, at: ago(1000) });
      await addCall(ago(1000));
      await addLog(ago(1000));
      const queue = createQueue(db(), movableClock(RUN));
      installHousekeeping(queue, db(), OFF);
      await queue.runDue(ago(0.5));
      await queue.runDue(RUN);
      expect(await fixtureJobIds()).toHaveLength(1);
      expect(await db().select().from(loginAttempts)).toHaveLength(1);
      expect(await db().select().from(apiCallLogs)).toHaveLength(1);
      expect(await logIds()).toHaveLength(1);
      const [line] = await passLines();
      expect(line?.message).toBe(
        'Housekeeping removed finished jobs kept (retention off), sign-in attempts kept (retention off), ' +
          'refused sign-in summaries kept (retention off), API calls kept (retention off), ' +
          'refused API call summaries kept (retention off), System Logs rows kept (retention off).',
      );
    });

    it('takes a big backlog in bounded passes, and a crash between batches just continues at the next run', async () => {
      for (let i = 0; i < 9; i++) await addJob('done', ago(30 + i));
      let crash = true;
      const queue = createQueue(db(), movableClock(RUN));
      // Batches of 2, at most 3 a table a pass; the first pause (after the first batch) stops the worker.
      installHousekeeping(queue, db(), ctx.config.retention, {
        batchSize: 2,
        maxBatches: 3,
        pause: async () => {
          if (crash) throw new Error('the worker stopped');
        },
      });
      await queue.runDue(ago(0.5));
      await queue.runDue(RUN);
      // The first batch stays deleted; the run is retried later and the next day's is queued already.
      expect(await fixtureJobIds()).toHaveLength(7);
      expect(await passLines()).toHaveLength(0);
      const [failed] = (await housekeepingJobs()).filter((j) => j.runAt.getTime() !== ago(-1).getTime());
      expect(failed).toMatchObject({ status: 'pending', attempts: 1, lastError: 'the worker stopped' });
      expect(
        await db()
          .select()
          .from(jobs)
          .where(and(eq(jobs.queue, HOUSEKEEPING_QUEUE), eq(jobs.runAt, ago(-1)))),
      ).toHaveLength(1);

      crash = false;
      const retry = failed?.runAt ?? RUN;
      await queue.runDue(retry);
      // 3 batches of 2 leave one row: the pass says more are left and queues its continuation a minute on.
      expect(await fixtureJobIds()).toHaveLength(1);
      let lines = await passLines();
      expect(lines.map((l) => l.message)).toEqual([
        expect.stringMatching(/^Housekeeping removed 6 finished jobs older than 14 days,.*more are left/),
      ]);
      await queue.runDue(new Date(retry.getTime() + 60_000));
      expect(await fixtureJobIds()).toHaveLength(0);
      lines = await passLines();
      expect(lines).toHaveLength(2);
      expect(lines[1]?.message).toMatch(/^Housekeeping removed 1 finished job older than 14 days, .* days\.$/);
      const pendingRuns = await db()
        .select({ runAt: jobs.runAt })
        .from(jobs)
        .where(and(eq(jobs.queue, HOUSEKEEPING_QUEUE), inArray(jobs.status, ['pending', 'running'])));
      expect(pendingRuns.map((r) => r.runAt.toISOString())).toEqual([ago(-1).toISOString()]);
    });
  });
}

describe('API Managers hears the call log retention', () => {
  it('from /runtime-config.js, null when calls are kept forever', async () => {
    for (const days of [90, null]) {
      const app = Fastify({ logger: false });
      await app.register(spaPlugin, {
        distDir: join(tmpdir(), 'no-console-built'),
        publicUrls: { api: '', reputation: '', identity: '' },
        retiredMasterEmail: 'master@example.com',
        cookieDomain: null,
        apiCallLogRetentionDays: days,
      });
      const res = await app.inject({ method: 'GET', url: '/runtime-config.js' });
      expect(res.body).toContain(`"apiCallLogRetentionDays":${days}`);
      await app.close();
    }
  });
});
