import { checkSmsTemplateBody } from '@admin/shared';
import { npsClassOf } from '@admin/shared/surveys/questions';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clients,
  emailOptOuts,
  emailSuppressions,
  notificationLogs,
  smsOptOuts,
  smsTemplates,
  surveyProcessingItems,
  surveyResponses,
  surveys,
} from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext } from './helpers.ts';

const DAY_MS = 86_400_000;

/** The demo surveys are made by running the product's code (apps/server/src/seed/surveys.ts): their numbers must agree. */
describe('Demo data: surveys, invitations and responses', () => {
  let ctx: TestContext;
  let headers: Record<string, string>;
  beforeAll(async () => {
    ctx = await startTestApp('pglite');
    headers = bearer(await login(ctx.app, 'admin@example.com'));
  });
  afterAll(() => ctx.close());
  const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });

  /** Every demo invitation with the one message the messenger wrote for it. */
  async function invitations() {
    return ctx.database.db
      .select({
        id: surveyProcessingItems.id,
        clientId: surveyProcessingItems.clientId,
        surveyId: surveyProcessingItems.surveyId,
        channel: surveyProcessingItems.channel,
        email: surveyProcessingItems.email,
        phone: surveyProcessingItems.phone,
        token: surveyProcessingItems.token,
        status: surveyProcessingItems.status,
        skipReason: surveyProcessingItems.skipReason,
        lastError: surveyProcessingItems.lastError,
        createdAt: surveyProcessingItems.createdAt,
        sentAt: surveyProcessingItems.sentAt,
        logId: notificationLogs.id,
        logChannel: notificationLogs.channel,
        logStatus: notificationLogs.status,
        logError: notificationLogs.error,
        logAt: notificationLogs.createdAt,
        recipient: notificationLogs.recipient,
        template: notificationLogs.subjectOrTemplate,
        text: notificationLogs.bodyText,
      })
      .from(surveyProcessingItems)
      .innerJoin(
        notificationLogs,
        and(
          eq(notificationLogs.type, 'survey_invite'),
          eq(notificationLogs.relatedType, 'survey_processing_item'),
          eq(notificationLogs.relatedId, sql`${surveyProcessingItems.id}::text`),
        ),
      )
      .where(eq(surveyProcessingItems.source, 'demo'))
      .orderBy(surveyProcessingItems.id);
  }
  type Invitation = Awaited<ReturnType<typeof invitations>>[number];
  const contactOf = (i: Invitation) => i.email ?? i.phone ?? '';
  /** The customer's earlier invitation from the same client (a returning customer), sent before this one. */
  const earlierOf = (all: Invitation[], later: Invitation) =>
    all.find((i) => i.id !== later.id && i.clientId === later.clientId && contactOf(i) === contactOf(later) && i.sentAt !== null);

  /** The invitations that ended in this status: a few, as real sending has them (more than one, under 5%). */
  async function aFew(status: Invitation['status']) {
    const all = await invitations();
    const found = all.filter((i) => i.status === status);
    expect(found.length).toBeGreaterThan(1);
    expect(found.length).toBeLessThan(all.length * 0.05);
    return { all, found };
  }

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

  it('writes one message per invitation at the invitation’s simulated time, sent ones to the outbox, over the last 30 days', async () => {
    const all = await invitations();
    const items = await ctx.database.db
      .select({ id: surveyProcessingItems.id })
      .from(surveyProcessingItems)
      .where(eq(surveyProcessingItems.source, 'demo'));
    expect(all.length).toBe(items.length);
    expect(new Set(all.map((i) => i.id)).size).toBe(items.length);
    expect(items.length).toBeGreaterThan(12 * 18);
    for (const i of all) {
      expect(i.logAt.getTime()).toBe(i.createdAt.getTime());
      expect(i.logChannel).toBe(i.channel);
      expect(i.recipient).toBe(contactOf(i));
      if (i.sentAt !== null) {
        expect(['sent', 'responded']).toContain(i.status);
        expect(i.sentAt.getTime()).toBe(i.logAt.getTime());
        expect(['sent', 'bounced']).toContain(i.logStatus);
      }
    }

    // A day's margin: the seed ran moments ago, and earlier visits are months back.
    const recent = all.filter((i) => i.createdAt.getTime() > Date.now() - 31 * DAY_MS);
    const times = recent.map((i) => i.createdAt.getTime());
    expect((Math.max(...times) - Math.min(...times)) / DAY_MS).toBeGreaterThan(20);
    // Older ones are only returning customers' earlier visits: answered by an unsubscribe or a bounce, and invited again since.
    const older = all.filter((i) => !recent.includes(i));
    expect(older.length).toBeGreaterThan(0);
    expect(older.length).toBeLessThan(all.length * 0.1);
    for (const i of older) {
      expect(i.status).toBe('sent');
      expect(recent.some((r) => r.clientId === i.clientId && contactOf(r) === contactOf(i))).toBe(true);
    }
  });

  it('sends SMS invitations to E.164 phones as texts in the outbox, with the link and the opt-out, and some are answered', async () => {
    const sms = (await invitations()).filter((i) => i.channel === 'sms');
    expect(sms.length).toBeGreaterThan(20);
    for (const i of sms) {
      expect(i.email).toBeNull();
      expect(i.phone).toMatch(/^\+1\d{3}55501\d{2}$/);
      expect(i.template).toBe('Survey invite (text)');
      expect(i.text).toContain(`/s/${i.token}`);
      expect(i.text).toMatch(/Reply STOP to opt out$/);
    }
    expect(sms.filter((i) => i.status === 'responded').length).toBeGreaterThan(3);
    const res = await get('/api/notifications-logs?channel=sms&type=survey_invite&perPage=5');
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0]).toMatchObject({
      channel: 'sms',
      subject_or_template: 'Survey invite (text)',
      recipient: expect.stringMatching(/^\+1 \*\*\*-\*\*\*-01\d\d$/),
    });
  });

  it('skips returning customers who unsubscribed: the opt-out row from the earlier link, a suppressed row in Tracking Logs', async () => {
    const { db } = ctx.database;
    const { all, found: skipped } = await aFew('skipped_opt_out');
    const optedOutEmails = await db.select().from(emailOptOuts);
    const optedOutPhones = await db.select().from(smsOptOuts);
    for (const i of skipped) {
      expect(i.sentAt).toBeNull();
      expect(i.logStatus).toBe('suppressed');
      expect(i.logError).toMatch(/^The (address|phone) opted out/);
      expect(i.skipReason).toBe(i.logError);
      const optOut =
        i.channel === 'email' ? optedOutEmails.find((o) => o.email === i.email) : optedOutPhones.find((o) => o.phone === i.phone);
      expect(optOut).toMatchObject({ clientId: i.clientId, source: 'unsubscribe_link' });
      const earlier = earlierOf(all, i);
      expect(earlier?.createdAt.getTime()).toBeLessThan(optOut?.createdAt.getTime() ?? 0);
      expect(optOut?.createdAt.getTime()).toBeLessThan(i.createdAt.getTime());
    }
    const res = await get('/api/notifications-logs?status=suppressed&type=survey_invite&perPage=100');
    expect(res.statusCode).toBe(200);
    const rows: { id: number; error: string }[] = res.json().data;
    for (const i of skipped) expect(rows.find((r) => r.id === i.logId)?.error).toBe(i.logError);
  });

  it('skips addresses that hard-bounced on an earlier visit, and fails mistyped addresses, through the messenger’s checks', async () => {
    const { db } = ctx.database;
    const { all, found: suppressed } = await aFew('skipped_suppressed');
    const list = await db.select().from(emailSuppressions);
    for (const i of suppressed) {
      expect(i).toMatchObject({ channel: 'email', sentAt: null, logStatus: 'suppressed' });
      expect(i.logError).toBe('The address is on the suppression list (BOUNCE)');
      const earlier = earlierOf(all, i);
      expect(earlier?.logStatus).toBe('bounced');
      const entry = list.find((s) => s.email === i.email);
      expect(entry?.reason).toBe('BOUNCE');
      expect(entry?.createdAt.getTime()).toBeGreaterThan(earlier?.createdAt.getTime() ?? Infinity);
      const detail = await get(`/api/notifications-logs/${earlier?.logId}`);
      expect(detail.json().data.events.map((e: { status: string }) => e.status)).toEqual(['queued', 'sent', 'bounced']);
    }
    expect(list.length).toBe(all.filter((i) => i.logStatus === 'bounced').length);

    const mistyped = all.filter((i) => i.logStatus === 'failed');
    expect(mistyped.length).toBeGreaterThan(0);
    expect(mistyped.length).toBeLessThan(all.length * 0.03);
    for (const i of mistyped) {
      expect(i).toMatchObject({
        status: 'failed',
        sentAt: null,
        logError: 'Not a valid e-mail address',
        lastError: 'Not a valid e-mail address',
      });
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
