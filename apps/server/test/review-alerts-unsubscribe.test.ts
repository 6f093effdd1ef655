import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailOptOuts, notificationLogs, reviewAlertDeliveries, reviewAlertRules } from '../src/db/schema/index.ts';
import { deliverDue } from '../src/review-alerts/deliver.ts';
import { evaluateReviews } from '../src/review-alerts/evaluate.ts';
import { alertBed } from './alerts-bed.ts';
import { capturingMessenger } from './alerts-capture.ts';
import { testDatabaseKinds } from './helpers.ts';
import { makeReview, makeReviewRule } from './review-alerts-fixture.ts';

/** Monday 2 March 2026, 09:00 in Chicago (UTC−6). */
const START = new Date('2026-03-02T15:00:00Z');
const MINUTE = 60_000;
const html = { accept: 'text/html' };
const oneClick = { 'content-type': 'application/x-www-form-urlencoded' };

for (const kind of testDatabaseKinds()) {
  describe(`Review alerts: one-click unsubscribe in instant and digest e-mails (${kind})`, () => {
    const bed = alertBed(kind, START, `ru-${kind}`);
    const { clock } = bed;
    const db = () => bed.database.db;

    const onlyRule = async (input: Parameters<typeof makeReviewRule>[2]) => {
      await db().update(reviewAlertRules).set({ status: 'inactive' }).where(eq(reviewAlertRules.clientId, bed.world.clientId));
      return makeReviewRule(db(), bed.world, input, clock.now());
    };
    const review = async () => {
      clock.advance(MINUTE);
      const id = await makeReview(db(), bed.world, { rating: 1, text: 'Cold food' }, clock.now());
      await bed.app.jobs.runDue();
      return id;
    };
    /** The unsubscribe token in the last e-mail to `to`, read from the message as sent. */
    const tokenIn = async (to: string) => {
      const logs = await db().select().from(notificationLogs).where(eq(notificationLogs.recipient, to)).orderBy(notificationLogs.id);
      const body = logs.at(-1)?.bodyText ?? '';
      const token = /Stop these alerts: \S+\/alerts\/unsubscribe\/([\w-]+)/.exec(body)?.[1];
      if (!token) throw new Error(`no unsubscribe link in: ${body}`);
      return token;
    };
    const deliveryOf = async (ruleId: number, reviewId: number, to: string) =>
      (
        await db()
          .select()
          .from(reviewAlertDeliveries)
          .where(
            and(
              eq(reviewAlertDeliveries.ruleId, ruleId),
              eq(reviewAlertDeliveries.reviewId, reviewId),
              eq(reviewAlertDeliveries.recipient, to),
            ),
          )
      )[0];

    it('the link in an instant review alert unsubscribes that recipient; the next matching review sends them nothing', async () => {
      const leaver = `leaver-${kind}@alert.test`;
      const stayer = `stayer-${kind}@alert.test`;
      const ruleId = await onlyRule({ channels: ['email'], extraEmails: [leaver, stayer] });
      const first = await review();
      expect((await deliveryOf(ruleId, first, leaver))?.status).toBe('sent');
      const token = await tokenIn(leaver);

      const confirm = await bed.app.inject({ method: 'GET', url: `/alerts/unsubscribe/${token}`, headers: html });
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain(`Stop review alerts from Alert Co ru-${kind} to ${leaver}?`);
      expect(await db().select().from(emailOptOuts).where(eq(emailOptOuts.email, leaver))).toHaveLength(0);

      const done = await bed.app.inject({
        method: 'POST',
        url: `/alerts/unsubscribe/${token}`,
        headers: oneClick,
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(done.statusCode).toBe(200);
      const [optOut] = await db().select().from(emailOptOuts).where(eq(emailOptOuts.email, leaver));
      expect(optOut).toMatchObject({ clientId: bed.world.clientId, source: 'alert_unsubscribe' });

      const next = await review();
      const stopped = await deliveryOf(ruleId, next, leaver);
      expect({ status: stopped?.status, reason: stopped?.reason }).toEqual({ status: 'suppressed', reason: 'recipient_unsubscribed' });
      expect((await deliveryOf(ruleId, next, stayer))?.status).toBe('sent');
    });

    it('the link in a daily digest unsubscribes its recipient; the next day their digest is suppressed', async () => {
      clock.set(new Date('2026-03-03T15:00:00Z'));
      const to = `digest-${kind}@alert.test`;
      const ruleId = await onlyRule({ frequency: 'daily', sendTime: '17:30', channels: ['email'], extraEmails: [to] });
      const first = await review();
      clock.set(new Date('2026-03-03T23:30:00Z'));
      await bed.app.jobs.runDue();
      expect((await deliveryOf(ruleId, first, to))?.status).toBe('sent');
      const token = await tokenIn(to);
      const done = await bed.app.inject({ method: 'POST', url: `/alerts/unsubscribe/${token}`, headers: { ...oneClick, ...html } });
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain(`${to} will not receive review alerts from Alert Co ru-${kind} any more`);

      const next = await review();
      clock.set(new Date('2026-03-04T23:30:00Z'));
      await bed.app.jobs.runDue();
      const stopped = await deliveryOf(ruleId, next, to);
      expect({ status: stopped?.status, reason: stopped?.reason }).toEqual({ status: 'suppressed', reason: 'recipient_unsubscribed' });
    });

    it('a review alert e-mail carries List-Unsubscribe and List-Unsubscribe-Post to the transport; an SMS has no link', async () => {
      const { messenger: capturing, sent } = capturingMessenger(db(), () => clock.now());
      await onlyRule({ channels: ['email', 'sms'], extraEmails: [`hdr-${kind}@alert.test`], extraPhones: ['+13125550177'] });
      clock.advance(MINUTE);
      const reviewId = await makeReview(db(), bed.world, { rating: 1 }, clock.now());
      // Only the evaluation here: the capturing messenger sends what it made.
      await evaluateReviews(db(), [reviewId], clock.now());
      await deliverDue(db(), capturing, clock.now());
      expect(sent).toHaveLength(1);
      expect(sent[0]?.headers?.['List-Unsubscribe']).toMatch(/^<http\S+\/alerts\/unsubscribe\/[\w-]{32}>$/);
      expect(sent[0]?.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      const sms = await db().select().from(notificationLogs).where(eq(notificationLogs.recipient, '+13125550177'));
      for (const s of sms) expect(s.bodyText).not.toContain('/alerts/unsubscribe/');
    });

    it('an unknown unsubscribe token is refused without naming anyone', async () => {
      const res = await bed.app.inject({ method: 'POST', url: '/alerts/unsubscribe/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Alert link not found.' });
    });
  });
}
