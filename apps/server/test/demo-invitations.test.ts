import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOptOuts, emailSuppressions, notificationLogs, smsOptOuts, surveyProcessingItems } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext } from './helpers.ts';

const DAY_MS = 86_400_000;

/** The demo invitations are sent by the product's messenger (apps/server/src/seed/surveys.ts): each has its one message. */
describe('Demo data: invitations', () => {
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
        // The demo's SES events (seed/deliverability.ts) move a sent e-mail on, as SES would.
        expect(['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained']).toContain(i.logStatus);
      }
    }

    // A day's margin: the seed ran moments ago, and earlier visits are months back.
    const recent = all.filter((i) => i.createdAt.getTime() > Date.now() - 31 * DAY_MS);
    const times = recent.map((i) => i.createdAt.getTime());
    expect((Math.max(...times) - Math.min(...times)) / DAY_MS).toBeGreaterThan(20);
    // Older ones are returning customers' earlier visits (answered by an unsubscribe or a bounce, and invited again
    // since) and the year before the last month (seed/history.ts), whose customers are never invited again.
    const older = all.filter((i) => !recent.includes(i));
    const earlier = older.filter((i) => recent.some((r) => r.clientId === i.clientId && contactOf(r) === contactOf(i)));
    expect(earlier.length).toBeGreaterThan(0);
    expect(earlier.length).toBeLessThan(recent.length * 0.1);
    for (const i of earlier) expect(i.status).toBe('sent');
    for (const i of older) expect(i.createdAt.getTime()).toBeLessThan(Date.now() - 30 * DAY_MS);
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
      const statuses: string[] = detail.json().data.events.map((e: { status: string }) => e.status);
      expect(statuses.slice(0, 2)).toEqual(['queued', 'sent']);
      expect(statuses.at(-1)).toBe('bounced');
    }
    // Every address suppressed for a bounce had a message (of any kind) that bounced (complaints and the
    // transient rule are the demo's SES events' own, checked in demo-deliverability.test.ts).
    const bouncedLogs = await db
      .select({ recipient: notificationLogs.recipient })
      .from(notificationLogs)
      .where(eq(notificationLogs.status, 'bounced'));
    const bouncedTo = new Set(bouncedLogs.map((r) => r.recipient.toLowerCase()));
    const suppressedForBounce = list.filter((s) => s.suppressed && s.reason === 'BOUNCE');
    expect(suppressedForBounce.length).toBeGreaterThan(0);
    for (const s of suppressedForBounce)
      expect({ email: s.email, bounced: bouncedTo.has(s.email) }).toEqual({ email: s.email, bounced: true });

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
});
