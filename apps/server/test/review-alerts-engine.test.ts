import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailSuppressions, notificationLogs, reviewAlertDeliveries, reviewAlertRules } from '../src/db/schema/index.ts';
import { evaluateReviews } from '../src/review-alerts/evaluate.ts';
import { alertBed } from './alerts-bed.ts';
import { testDatabaseKinds } from './helpers.ts';
import { makeReview, makeReviewRule } from './review-alerts-fixture.ts';

const START = new Date('2026-03-02T15:00:00Z');
const MINUTE = 60_000;
const DAY = 86_400_000;

for (const kind of testDatabaseKinds()) {
  describe(`Review alert engine: filters, instant sends, retries (${kind})`, () => {
    const bed = alertBed(kind, START, `rv-${kind}`);
    const { clock } = bed;
    let n = 0;
    const db = () => bed.database.db;

    /** The only active rule of the client (earlier tests' rules archived), with one extra e-mail. */
    const onlyRule = async (input: Parameters<typeof makeReviewRule>[2]) => {
      await db().update(reviewAlertRules).set({ status: 'inactive' }).where(eq(reviewAlertRules.clientId, bed.world.clientId));
      clock.advance(MINUTE);
      return makeReviewRule(db(), bed.world, { extraEmails: [`rv${++n}-${kind}@alert.test`], ...input }, clock.now());
    };
    /** A review stored now and its jobs and loops run. */
    const review = async (input: Parameters<typeof makeReview>[2]) => {
      clock.advance(MINUTE);
      const id = await makeReview(db(), bed.world, input, clock.now());
      await bed.app.jobs.runDue();
      return id;
    };
    const deliveriesOf = (ruleId: number, reviewId?: number) =>
      db()
        .select()
        .from(reviewAlertDeliveries)
        .where(
          and(eq(reviewAlertDeliveries.ruleId, ruleId), reviewId === undefined ? undefined : eq(reviewAlertDeliveries.reviewId, reviewId)),
        );
    const fires = async (ruleId: number, input: Parameters<typeof makeReview>[2]) =>
      (await deliveriesOf(ruleId, await review(input))).length > 0;

    it('a 1-2 star rule fires on 1 and 2 stars, not 3; sends at once through the messenger, one Tracking Logs row, Last sent set', async () => {
      const id = await onlyRule({ ratingMin: 1, ratingMax: 2 });
      expect(await fires(id, { rating: 3 })).toBe(false);
      expect(await fires(id, { rating: 2 })).toBe(true);
      const reviewId = await review({
        rating: 1,
        text: 'Cold food and a rude waiter',
        author: 'Jo Critic',
        url: 'https://maps.example/r/1',
      });
      const [d] = await deliveriesOf(id, reviewId);
      expect(d).toMatchObject({ status: 'sent', channel: 'email', recipient: `rv${n}-${kind}@alert.test`, test: false, attempts: 1 });
      const [log] = await db()
        .select()
        .from(notificationLogs)
        .where(eq(notificationLogs.id, d?.notificationId ?? 0));
      expect(log).toMatchObject({ type: 'review_alert', status: 'sent', channel: 'email' });
      expect(log?.subjectOrTemplate).toBe(`Review alert: 1★ Google review at Alert Co rv-${kind}, Downtown`);
      expect(log?.bodyText).toContain('Rating: ★☆☆☆☆ (1/5)');
      expect(log?.bodyText).toContain('Author: Jo Critic');
      expect(log?.bodyText).toContain('Review: Cold food and a rude waiter');
      expect(log?.bodyText).toContain('Open the review: https://maps.example/r/1');
      expect(log?.bodyText).not.toContain('Reply to it');
      const [rule] = await db().select().from(reviewAlertRules).where(eq(reviewAlertRules.id, id));
      expect(rule?.lastSentAt?.toISOString()).toBe(clock.now().toISOString());
    });

    it('sites, locations, Facebook recommendations, the text filter and keywords each filter', async () => {
      const sites = await onlyRule({ sites: ['yelp'] });
      expect(await fires(sites, { site: 'google' })).toBe(false);
      expect(await fires(sites, { site: 'yelp' })).toBe(true);
      const place = await onlyRule({ locationIds: [bed.world.otherLocationId] });
      expect(await fires(place, { location: 'one' })).toBe(false);
      expect(await fires(place, { location: 'two' })).toBe(true);
      const fb = await onlyRule({ sites: ['facebook'], recommendFilter: ['not_recommended'] });
      expect(await fires(fb, { site: 'facebook', rating: null, recommend: true })).toBe(false);
      expect(await fires(fb, { site: 'facebook', rating: null, recommend: false })).toBe(true);
      const withText = await onlyRule({ textFilter: 'with_text' });
      expect(await fires(withText, { text: null })).toBe(false);
      expect(await fires(withText, { text: 'Words' })).toBe(true);
      const withoutText = await onlyRule({ textFilter: 'without_text' });
      expect(await fires(withoutText, { text: 'Words' })).toBe(false);
      expect(await fires(withoutText, { text: '' })).toBe(true);
      const words = await onlyRule({ keywords: ['rude', 'cafe froid'] });
      expect(await fires(words, { text: 'A prudent choice' })).toBe(false);
      expect(await fires(words, { text: 'They were RUDE!' })).toBe(true);
      expect(await fires(words, { text: 'Un Café froid' })).toBe(true);
    });

    it('a paused rule and a review written more than 7 days ago alert nobody', async () => {
      const id = await onlyRule({});
      expect(await fires(id, { ageMs: 8 * DAY })).toBe(false);
      expect(await fires(id, { ageMs: 6 * DAY })).toBe(true);
      await db().update(reviewAlertRules).set({ status: 'paused' }).where(eq(reviewAlertRules.id, id));
      expect(await fires(id, {})).toBe(false);
    });

    it('a retried job never alerts twice; a rule reaching nobody records no_recipients, failed', async () => {
      const id = await onlyRule({ userIds: [bed.world.ann], channels: ['email', 'sms'] });
      const reviewId = await review({});
      expect(await evaluateReviews(db(), [reviewId, reviewId], clock.now())).toBe(0);
      await bed.app.jobs.runDue();
      const sent = await deliveriesOf(id, reviewId);
      // Ann by e-mail and SMS, and the extra e-mail: once each.
      expect(sent.map((d) => `${d.channel}:${d.status}`).sort()).toEqual(['email:sent', 'email:sent', 'sms:sent']);
      const nobody = await onlyRule({ extraEmails: [], userIds: [bed.world.bob] });
      const missed = await deliveriesOf(nobody, await review({}));
      expect(missed.map((d) => ({ status: d.status, reason: d.reason, recipient: d.recipient }))).toEqual([
        { status: 'failed', reason: 'no_recipients', recipient: '' },
      ]);
    });

    it('a suppressed address is suppressed at once, with its Tracking Logs row; the include_reply_link rule adds the reply link', async () => {
      const to = `bounced-rv-${kind}@alert.test`;
      await db().insert(emailSuppressions).values({ email: to, reason: 'BOUNCE' });
      const id = await onlyRule({ extraEmails: [to, `ok-rv-${kind}@alert.test`], includeReplyLink: true });
      const reviewId = await review({ rating: 2 });
      const rows = await deliveriesOf(id, reviewId);
      const bounced = rows.find((d) => d.recipient === to);
      expect({ status: bounced?.status, reason: bounced?.reason }).toEqual({ status: 'suppressed', reason: 'ses_suppressed' });
      const [log] = await db()
        .select()
        .from(notificationLogs)
        .where(eq(notificationLogs.id, bounced?.notificationId ?? 0));
      expect(log).toMatchObject({ type: 'review_alert', status: 'suppressed' });
      const ok = rows.find((d) => d.recipient !== to);
      const [okLog] = await db()
        .select()
        .from(notificationLogs)
        .where(eq(notificationLogs.id, ok?.notificationId ?? 0));
      expect(okLog?.bodyText).toMatch(/Reply to it: http.*\/admin\/reputation-panel\?site=google/);
    });
  });
}
