import { checkSmsTemplateBody } from '@admin/shared';
import { npsClassOf } from '@admin/shared/surveys/questions';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, smsTemplates, surveyProcessingItems, surveyResponses, surveys } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext } from './helpers.ts';

const DAY_MS = 86_400_000;

/** The demo surveys are made by running the product's code (apps/server/src/seed/surveys.ts): their numbers must agree. */
describe('Demo data: surveys and responses', () => {
  let ctx: TestContext;
  let headers: Record<string, string>;
  beforeAll(async () => {
    ctx = await startTestApp('pglite');
    headers = bearer(await login(ctx.app, 'admin@example.com'));
  });
  afterAll(() => ctx.close());
  const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });

  it('gives every client an NPS survey, a CSAT or star one where it fits, and texting clients an SMS survey with a compliant template', async () => {
    const { db } = ctx.database;
    const rows = await db
      .select({
        clientId: surveys.clientId,
        type: surveys.type,
        channel: surveys.channel,
        industry: clients.industry,
        template: smsTemplates,
      })
      .from(surveys)
      .innerJoin(clients, eq(clients.id, surveys.clientId))
      .leftJoin(smsTemplates, eq(smsTemplates.id, surveys.smsTemplateId));
    const clientCount = (await db.select({ id: clients.id }).from(clients)).length;
    expect(new Set(rows.filter((r) => r.type === 'nps').map((r) => r.clientId)).size).toBe(clientCount);
    expect(rows.some((r) => r.type === 'csat' && r.industry === 'dental')).toBe(true);
    expect(rows.some((r) => r.type === 'star' && r.industry === 'hospitality')).toBe(true);

    const texting = rows.filter((r) => r.channel !== 'email');
    expect(texting.some((r) => r.channel === 'sms' && r.industry === 'home_services')).toBe(true);
    expect(texting.some((r) => r.channel === 'email_then_sms' && r.industry === 'automotive')).toBe(true);
    for (const { template, clientId } of texting) {
      expect(template).toMatchObject({ clientId, purpose: 'survey_invite', encoding: 'gsm7', segments: 1, hasOptOut: true });
      expect(checkSmsTemplateBody(template?.purpose, template?.body ?? '').errors).toEqual([]);
    }
  });

  it('offers review sites to every respondent: no demo survey gates reviews by score (issue 19, item 4)', async () => {
    const rows = await ctx.database.db
      .select({ type: surveys.type, mode: surveys.reviewInviteMode, threshold: surveys.reviewInviteThreshold })
      .from(surveys);
    expect(rows.filter((r) => r.type === 'nps').length).toBeGreaterThan(0);
    for (const r of rows) expect(r).toMatchObject({ mode: 'all_respondents', threshold: null });
  });

  it('has global SMS defaults that pass the compliance rules and that SMS Text lists for any current client', async () => {
    const answer = await get('/api/sms-templates?scope=global&perPage=50');
    expect(answer.statusCode).toBe(200);
    const globals = answer.json().data as { client_id: number | null; purpose: string; body: string; name: string }[];
    expect(globals.map((t) => t.name).sort()).toEqual(['Review request (default)', 'Survey invite (default)']);
    for (const t of globals) {
      expect(t.client_id).toBeNull();
      expect(checkSmsTemplateBody(t.purpose, t.body).errors).toEqual([]);
    }
  });

  it('records one response per responded invitation, about a third, with classes that match the scores', async () => {
    const { db } = ctx.database;
    const [counts] = await db
      .select({
        sent: sql<number>`count(*) filter (where ${surveyProcessingItems.sentAt} is not null)::int`,
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
      .innerJoin(surveyProcessingItems, eq(surveyProcessingItems.id, surveyResponses.processingItemId))
      // The demo feeds' invitations are answered too (demo-feeds.test.ts); these are the surveys' own.
      .where(eq(surveyProcessingItems.source, 'demo'));
    expect(responses.length).toBe(counts?.responded);
    const rate = responses.length / (counts?.sent ?? 1);
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
    const res = await get('/api/surveys?perPage=50');
    expect(res.statusCode).toBe(200);
    const listed: { id: number; sent_30d: number; responded_30d: number }[] = res.json().data;
    expect(listed.length).toBeGreaterThan(0);
    // Every invitation but test sends: the surveys' own and the demo feeds' (scheduled ones included).
    const all = await ctx.database.db
      .select({
        surveyId: surveyProcessingItems.surveyId,
        status: surveyProcessingItems.status,
        createdAt: surveyProcessingItems.createdAt,
        sentAt: surveyProcessingItems.sentAt,
      })
      .from(surveyProcessingItems)
      .where(sql`${surveyProcessingItems.source} <> 'manual_test'`);
    const since = Date.now() - 30 * DAY_MS;
    for (const s of listed) {
      const own = all.filter((i) => i.surveyId === s.id && i.createdAt.getTime() >= since);
      expect(s.sent_30d).toBe(own.filter((i) => i.sentAt !== null).length);
      expect(s.responded_30d).toBe(own.filter((i) => i.status === 'responded').length);
      expect(s.sent_30d).toBeGreaterThan(0);
    }
  });

  it('shows each survey’s NPS or average of the last 30 days on Surveys, from the responses the tables hold (issue 19, item 5)', async () => {
    const listed: { id: number; type: string; score_30d: number | null }[] = (await get('/api/surveys?perPage=50')).json().data;
    const responses = await ctx.database.db
      .select({ surveyId: surveyResponses.surveyId, score: surveyResponses.keyScore, npsClass: surveyResponses.npsClass })
      .from(surveyResponses)
      .where(
        sql`${surveyResponses.submittedAt} >= now() - interval '30 days' and not ${surveyResponses.excluded} and not ${surveyResponses.test}`,
      );
    let scored = 0;
    for (const s of listed) {
      const own = responses.filter((r) => r.surveyId === s.id && r.score !== null);
      if (own.length === 0) {
        expect(s.score_30d).toBeNull();
        continue;
      }
      scored += 1;
      const share = (c: string) => own.filter((r) => r.npsClass === c).length / own.length;
      const average = own.reduce((sum, r) => sum + (r.score ?? 0), 0) / own.length;
      // PostgreSQL's round() takes halves away from zero.
      const round = (v: number) => Math.sign(v) * Math.round(Math.abs(v));
      const expected = s.type === 'nps' ? round(100 * (share('promoter') - share('detractor'))) : round(average * 10) / 10;
      expect(s.score_30d).toBeCloseTo(expected, 5);
    }
    expect(scored).toBeGreaterThan(0);
  });
});
