import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clients,
  dataFeedRowErrors,
  dataFeedRuns,
  dataFeeds,
  jobs,
  notificationLogs,
  surveyProcessingItems,
  surveyResponses,
} from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext } from './helpers.ts';

/**
 * The demo feeds are ingested by the pipeline (apps/server/src/seed/feeds.ts): runFeed, the
 * rules, the send engine on a simulated clock. Their runs, items, messages and answers must agree,
 * and a first start must find nothing overdue.
 */
describe('Demo data: feeds, their runs and the invitations they made', () => {
  let ctx: TestContext;
  let headers: Record<string, string>;
  beforeAll(async () => {
    ctx = await startTestApp('pglite');
    headers = bearer(await login(ctx.app, 'admin@example.com'));
  });
  afterAll(() => ctx.close());
  const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });

  const feedItems = () =>
    ctx.database.db
      .select({
        id: surveyProcessingItems.id,
        runId: surveyProcessingItems.runId,
        feedId: surveyProcessingItems.dataFeedId,
        status: surveyProcessingItems.status,
        source: surveyProcessingItems.source,
        scheduledAt: surveyProcessingItems.scheduledAt,
        sentAt: surveyProcessingItems.sentAt,
        nextReminderAt: surveyProcessingItems.nextReminderAt,
        remindersSent: surveyProcessingItems.remindersSent,
      })
      .from(surveyProcessingItems)
      .where(isNotNull(surveyProcessingItems.dataFeedId));

  it('gives most clients a CSV-upload feed and some a paused SFTP one, each with runs', async () => {
    const { db } = ctx.database;
    const feeds = await db.select().from(dataFeeds);
    const runs = await db.select().from(dataFeedRuns);
    const [clientCount] = await db.select({ n: sql<number>`count(*)::int` }).from(clients);
    const withFeeds = new Set(feeds.map((f) => f.clientId));
    expect(withFeeds.size).toBeGreaterThan((clientCount?.n ?? 0) / 2);
    expect(feeds.some((f) => f.sourceType === 'csv_upload')).toBe(true);
    for (const feed of feeds) {
      expect(runs.filter((r) => r.dataFeedId === feed.id).length, feed.name).toBeGreaterThan(0);
      expect(feed.lastRunAt, feed.name).not.toBeNull();
      // SFTP feeds have made-up hosts: paused, with no pull queued, so a start connects nowhere.
      if (feed.sourceType === 'sftp') expect(feed.status).toBe('paused');
      else expect(feed.status).toBe('active');
    }
    const pulls = await db.select().from(jobs).where(eq(jobs.queue, 'feed.pull'));
    expect(pulls).toEqual([]);
  });

  it('counts each run’s rows as the processing items and row errors it made', async () => {
    const { db } = ctx.database;
    const runs = await db.select().from(dataFeedRuns);
    const items = await feedItems();
    const errors = await db
      .select({ runId: dataFeedRowErrors.runId, rows: sql<number>`count(distinct ${dataFeedRowErrors.rowNumber})::int` })
      .from(dataFeedRowErrors)
      .groupBy(dataFeedRowErrors.runId);
    for (const run of runs) {
      const own = items.filter((i) => i.runId === run.id);
      const skipped: Record<string, number> = {};
      for (const i of own)
        if (i.status.startsWith('skipped_') || i.status === 'invalid_contact') skipped[i.status] = (skipped[i.status] ?? 0) + 1;
      const skippedCount = Object.values(skipped).reduce((a, b) => a + b, 0);
      expect(run.rowsSkipped, `run ${run.id}`).toEqual(skipped);
      expect(run.rowsAccepted, `run ${run.id}`).toBe(own.length - skippedCount);
      expect(run.rowsInvalid, `run ${run.id}`).toBe(errors.find((e) => e.runId === run.id)?.rows ?? 0);
      expect(run.rowsRead).toBe(own.length + run.rowsInvalid);
      expect(run.status).toBe(run.rowsInvalid > 0 ? 'partial' : 'succeeded');
      expect(own.every((i) => i.source === run.source)).toBe(true);
    }
    // What real files bring: refused rows, and rows the rules skip.
    expect(runs.filter((r) => r.status === 'partial').length).toBeGreaterThan(1);
    const statuses = new Set(items.map((i) => i.status));
    for (const s of ['skipped_duplicate', 'skipped_over_survey', 'skipped_opt_out', 'sent', 'responded', 'scheduled'] as const) {
      expect(statuses, s).toContain(s);
    }
  });

  it('sent what was due through the engine, answered about a third, and leaves a queue for later with nothing overdue', async () => {
    const { db } = ctx.database;
    const now = Date.now();
    const items = await feedItems();
    const scheduled = items.filter((i) => i.status === 'scheduled');
    expect(scheduled.length).toBeGreaterThan(0);
    // The queue is due after start-up (hours from now), so the workers have nothing to send at once.
    for (const i of scheduled) expect(i.scheduledAt?.getTime() ?? 0).toBeGreaterThan(now);
    // The sweeps ran as of start-up: no reminder is overdue (an answered invitation keeps its time but is never reminded).
    const waiting = items.filter((i) => ['sent', 'delivered', 'opened', 'reminded'].includes(i.status) && i.nextReminderAt);
    for (const i of waiting) expect(i.nextReminderAt?.getTime()).toBeGreaterThan(now - 60_000);
    const sent = items.filter((i) => i.sentAt !== null);
    const invites = await db
      .select({ relatedId: notificationLogs.relatedId, type: notificationLogs.type, at: notificationLogs.createdAt })
      .from(notificationLogs)
      .where(
        and(
          eq(notificationLogs.relatedType, 'survey_processing_item'),
          sql`${notificationLogs.relatedId}::int in (select id from survey_processing_items where data_feed_id is not null)`,
        ),
      );
    for (const i of sent) {
      const own = invites.filter((m) => m.relatedId === String(i.id));
      expect(own.filter((m) => m.type === 'survey_invite').map((m) => m.at.getTime())).toEqual([i.sentAt?.getTime()]);
      expect(own.filter((m) => m.type === 'survey_reminder').length).toBe(i.remindersSent);
    }
    const responses = await db
      .select({ itemId: surveyResponses.processingItemId, submittedAt: surveyResponses.submittedAt })
      .from(surveyResponses)
      .innerJoin(surveyProcessingItems, eq(surveyProcessingItems.id, surveyResponses.processingItemId))
      .where(isNotNull(surveyProcessingItems.dataFeedId));
    expect(responses.length).toBe(items.filter((i) => i.status === 'responded').length);
    const rate = responses.length / sent.length;
    expect(rate).toBeGreaterThan(0.2);
    expect(rate).toBeLessThan(0.5);
    for (const r of responses) {
      const item = sent.find((i) => i.id === r.itemId);
      expect(r.submittedAt.getTime()).toBeGreaterThan(item?.sentAt?.getTime() ?? Infinity);
      expect(r.submittedAt.getTime()).toBeLessThanOrEqual(now);
    }
  });

  it('shows the feeds’ runs on Survey Platform and their invitations on Survey Processing', async () => {
    const { db } = ctx.database;
    const [feed] = await db.select().from(dataFeeds).where(eq(dataFeeds.sourceType, 'csv_upload')).orderBy(dataFeeds.id).limit(1);
    if (!feed) throw new Error('no demo CSV feed');
    const platform = await get(`/api/data-feeds?client=${feed.clientId}&perPage=50`);
    expect(platform.statusCode).toBe(200);
    const listed: { id: number; last_run: { id: number; rows_accepted: number } | null }[] = platform.json().data;
    const [lastRun] = await db
      .select()
      .from(dataFeedRuns)
      .where(eq(dataFeedRuns.dataFeedId, feed.id))
      .orderBy(sql`${dataFeedRuns.startedAt} desc`)
      .limit(1);
    expect(listed.find((f) => f.id === feed.id)?.last_run).toMatchObject({ id: lastRun?.id, rows_accepted: lastRun?.rowsAccepted });

    const processing = await get(`/api/survey-processing?client=${feed.clientId}&perPage=200`);
    expect(processing.statusCode).toBe(200);
    const rows: { source: string; item_status: string }[] = processing.json().data;
    expect(rows.some((r) => r.source === 'csv_upload')).toBe(true);
    expect(rows.some((r) => r.source === 'csv_upload' && r.item_status === 'scheduled')).toBe(true);
  });
});
