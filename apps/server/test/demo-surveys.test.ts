import { npsClassOf } from '@admin/shared/surveys/questions';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, notificationLogs, surveyProcessingItems, surveyResponses, surveys } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext } from './helpers.ts';

/** The demo surveys are made by running the product's code (apps/server/src/db/seed/surveys.ts): their numbers must agree. */
describe('Demo data: surveys, invitations and responses', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp('pglite');
  });
  afterAll(() => ctx.close());

  it('gives every client an NPS survey, and a CSAT or star one where it fits', async () => {
    const rows = await ctx.database.db
      .select({ clientId: surveys.clientId, type: surveys.type, industry: clients.industry })
      .from(surveys)
      .innerJoin(clients, eq(clients.id, surveys.clientId));
    const clientCount = (await ctx.database.db.select({ id: clients.id }).from(clients)).length;
    expect(new Set(rows.filter((r) => r.type === 'nps').map((r) => r.clientId)).size).toBe(clientCount);
    expect(rows.some((r) => r.type === 'csat' && r.industry === 'dental')).toBe(true);
    expect(rows.some((r) => r.type === 'star' && r.industry === 'hospitality')).toBe(true);
  });

  it('sends one outbox message per sent invitation, at the invitation’s simulated time', async () => {
    const { db } = ctx.database;
    const items = await db
      .select({ id: surveyProcessingItems.id, sentAt: surveyProcessingItems.sentAt, status: surveyProcessingItems.status })
      .from(surveyProcessingItems)
      .where(eq(surveyProcessingItems.source, 'demo'));
    const logs = await db
      .select({ relatedId: notificationLogs.relatedId, createdAt: notificationLogs.createdAt, status: notificationLogs.status })
      .from(notificationLogs)
      .where(and(eq(notificationLogs.type, 'survey_invite'), eq(notificationLogs.relatedType, 'survey_processing_item')));
    expect(items.length).toBeGreaterThan(12 * 18);
    expect(items.every((i) => i.sentAt !== null && (i.status === 'sent' || i.status === 'responded'))).toBe(true);
    expect(logs.length).toBe(items.length);
    expect(logs.every((l) => l.status === 'sent')).toBe(true);
    const logAt = new Map(logs.map((l) => [l.relatedId, l.createdAt.getTime()]));
    for (const item of items) expect(logAt.get(String(item.id))).toBe(item.sentAt?.getTime());
    const times = items.map((i) => i.sentAt?.getTime() ?? 0);
    const span = (Math.max(...times) - Math.min(...times)) / 86_400_000;
    expect(span).toBeGreaterThan(20);
    expect(span).toBeLessThanOrEqual(30);
  });

  it('records one response per responded invitation, about a third, with classes that match the scores', async () => {
    const { db } = ctx.database;
    const [counts] = await db
      .select({
        items: sql<number>`count(*)::int`,
        responded: sql<number>`count(*) filter (where ${surveyProcessingItems.status} = 'responded')::int`,
      })
      .from(surveyProcessingItems)
      .where(eq(surveyProcessingItems.source, 'demo'));
    const responses = await db
      .select({
        itemId: surveyResponses.processingItemId,
        score: surveyResponses.keyScore,
        npsClass: surveyResponses.npsClass,
        type: surveys.type,
        submittedAt: surveyResponses.submittedAt,
        sentAt: surveyProcessingItems.sentAt,
        status: surveyProcessingItems.status,
      })
      .from(surveyResponses)
      .innerJoin(surveys, eq(surveys.id, surveyResponses.surveyId))
      .innerJoin(surveyProcessingItems, eq(surveyProcessingItems.id, surveyResponses.processingItemId));
    expect(responses.length).toBe(counts?.responded);
    const rate = responses.length / (counts?.items ?? 1);
    expect(rate).toBeGreaterThan(0.25);
    expect(rate).toBeLessThan(0.45);
    for (const r of responses) {
      expect(r.status).toBe('responded');
      expect(r.score).not.toBeNull();
      expect(r.npsClass).toBe(r.type === 'nps' ? npsClassOf(r.score ?? -1) : null);
      expect(r.submittedAt.getTime()).toBeGreaterThan(r.sentAt?.getTime() ?? Infinity);
    }
    const nps = responses.filter((r) => r.type === 'nps');
    const share = (c: string) => nps.filter((r) => r.npsClass === c).length / nps.length;
    expect(share('promoter')).toBeGreaterThan(0.4);
    expect(share('detractor')).toBeGreaterThan(0.05);
    expect(share('detractor')).toBeLessThan(0.3);
  });

  it('shows the same 30-day counts on Surveys as the tables hold', async () => {
    const headers = bearer(await login(ctx.app, 'admin@example.com'));
    const res = await ctx.app.inject({ method: 'GET', url: '/api/surveys?perPage=50', headers });
    expect(res.statusCode).toBe(200);
    const listed: { id: number; sent_30d: number; responded_30d: number }[] = res.json().data;
    expect(listed.length).toBeGreaterThan(0);
    for (const s of listed) {
      const [c] = await ctx.database.db
        .select({
          sent: sql<number>`count(*)::int`,
          responded: sql<number>`count(*) filter (where ${surveyProcessingItems.status} = 'responded')::int`,
        })
        .from(surveyProcessingItems)
        .where(eq(surveyProcessingItems.surveyId, s.id));
      expect(s.sent_30d).toBe(c?.sent);
      expect(s.responded_30d).toBe(c?.responded);
      expect(s.sent_30d).toBeGreaterThan(0);
    }
  });
});
