import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notificationLogs, reviewAlertDeliveries, reviewAlertDigests, reviewAlertRules } from '../src/db/schema/index.ts';
import { digestInstant } from '../src/review-alerts/digest.ts';
import { alertBed } from './alerts-bed.ts';
import { testDatabaseKinds } from './helpers.ts';
import { makeReview, makeReviewRule } from './review-alerts-fixture.ts';

/** Monday 2 March 2026, 09:00 in Chicago (UTC−6). */
const START = new Date('2026-03-02T15:00:00Z');
const MINUTE = 60_000;

describe('digestInstant', () => {
  it('is the latest send time at or before now in the zone, on the weekday for a weekly rule', () => {
    const zone = 'America/Chicago';
    expect(digestInstant(new Date('2026-03-02T23:30:00Z'), '17:30', null, zone).toISOString()).toBe('2026-03-02T23:30:00.000Z');
    expect(digestInstant(new Date('2026-03-02T23:29:00Z'), '17:30', null, zone).toISOString()).toBe('2026-03-01T23:30:00.000Z');
    // Wednesday 4 March: the last Monday 08:00 was 2 March.
    expect(digestInstant(new Date('2026-03-04T12:00:00Z'), '08:00', 'mon', zone).toISOString()).toBe('2026-03-02T14:00:00.000Z');
    // Monday 9 March 07:59 (after the DST change, UTC−5): still last week's.
    expect(digestInstant(new Date('2026-03-09T12:59:00Z'), '08:00', 'mon', zone).toISOString()).toBe('2026-03-02T14:00:00.000Z');
    expect(digestInstant(new Date('2026-03-09T13:00:00Z'), '08:00', 'mon', zone).toISOString()).toBe('2026-03-09T13:00:00.000Z');
    // A time stored by other means than the form falls back to 08:00 rather than stopping the loop.
    expect(digestInstant(new Date('2026-03-02T15:00:00Z'), '8h', null, zone).toISOString()).toBe('2026-03-02T14:00:00.000Z');
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`Review alert engine: daily and weekly digests (${kind})`, () => {
    const bed = alertBed(kind, START, `rd-${kind}`);
    const { clock } = bed;
    const db = () => bed.database.db;

    const onlyRule = async (input: Parameters<typeof makeReviewRule>[2]) => {
      await db().update(reviewAlertRules).set({ status: 'inactive' }).where(eq(reviewAlertRules.clientId, bed.world.clientId));
      return makeReviewRule(db(), bed.world, input, clock.now());
    };
    const logsTo = (to: string) => db().select().from(notificationLogs).where(eq(notificationLogs.recipient, to));
    const at = async (iso: string) => {
      clock.set(new Date(iso));
      await bed.app.jobs.runDue();
    };
    const review = async (input: Parameters<typeof makeReview>[2]) => {
      clock.advance(MINUTE);
      await makeReview(db(), bed.world, input, clock.now());
      await bed.app.jobs.runDue();
    };

    it('a daily digest sends one message per recipient and channel at its time in the client zone, then nothing more that day', async () => {
      clock.set(START);
      const to = `daily-${kind}@alert.test`;
      const ruleId = await onlyRule({
        frequency: 'daily',
        sendTime: '17:30',
        channels: ['email', 'sms'],
        extraEmails: [to],
        extraPhones: ['+13125550166'],
      });
      await review({ rating: 1, text: 'Slow', author: 'Ann' });
      await review({ rating: 2, text: 'Cold', author: 'Ben' });
      expect(await logsTo(to)).toHaveLength(0);
      await at('2026-03-02T23:29:59Z'); // 17:29:59 in Chicago
      expect(await logsTo(to)).toHaveLength(0);
      await at('2026-03-02T23:30:00Z');
      const mails = await logsTo(to);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ type: 'review_alert', status: 'sent' });
      expect(mails[0]?.subjectOrTemplate).toBe(`Daily review alerts digest: 2 reviews at Alert Co rd-${kind}`);
      expect(mails[0]?.bodyText).toContain('Downtown · Google · ★☆☆☆☆ (1/5) · Ann: “Slow”');
      expect(mails[0]?.bodyText).toContain('★★☆☆☆ (2/5) · Ben: “Cold”');
      expect(await logsTo('+13125550166')).toHaveLength(1);
      const digests = await db().select().from(reviewAlertDigests).where(eq(reviewAlertDigests.ruleId, ruleId));
      expect(digests.map((d) => d.periodStart.toISOString())).toEqual(['2026-03-02T23:30:00.000Z', '2026-03-02T23:30:00.000Z']);
      const rows = await db().select().from(reviewAlertDeliveries).where(eq(reviewAlertDeliveries.ruleId, ruleId));
      expect(new Set(rows.map((d) => d.status))).toEqual(new Set(['sent']));
      const [rule] = await db().select().from(reviewAlertRules).where(eq(reviewAlertRules.id, ruleId));
      expect(rule?.lastSentAt?.toISOString()).toBe('2026-03-02T23:30:00.000Z');
      await at('2026-03-03T05:00:00Z');
      expect(await logsTo(to)).toHaveLength(1);
      // A review after the time waits for the next day's digest.
      await review({ rating: 1 });
      await at('2026-03-03T23:29:00Z');
      expect(await logsTo(to)).toHaveLength(1);
      await at('2026-03-03T23:30:00Z');
      expect(await logsTo(to)).toHaveLength(2);
    });

    it('a digest whose claim was left unsent (its worker died) goes out 10 minutes later, never lost; a fresh claim is left alone', async () => {
      clock.set(new Date('2026-03-16T15:00:00Z')); // Monday
      const to = `claimed-${kind}@alert.test`;
      const ruleId = await onlyRule({ frequency: 'daily', sendTime: '17:30', extraEmails: [to] });
      await review({ rating: 1, text: 'Lost?', author: 'Cy' });
      // A worker claimed the 17:30 digest, then died before sending it.
      const period = new Date('2026-03-16T22:30:00Z');
      await db().insert(reviewAlertDigests).values({ ruleId, channel: 'email', recipient: to, periodStart: period, createdAt: period });
      await at('2026-03-16T22:35:00Z');
      expect(await logsTo(to)).toHaveLength(0);
      await at('2026-03-16T22:41:00Z');
      const mails = await logsTo(to);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.bodyText).toContain('Cy: “Lost?”');
      await at('2026-03-16T23:00:00Z');
      expect(await logsTo(to)).toHaveLength(1);
    });

    it('a weekly digest goes on its weekday at its time only', async () => {
      clock.set(new Date('2026-03-10T15:00:00Z')); // Tuesday
      const to = `weekly-${kind}@alert.test`;
      await onlyRule({ frequency: 'weekly', sendTime: '08:00', weeklyDay: 'fri', extraEmails: [to] });
      await review({ rating: 1 });
      await at('2026-03-12T13:00:00Z'); // Thursday 08:00 (UTC−5)
      expect(await logsTo(to)).toHaveLength(0);
      await at('2026-03-13T12:59:00Z'); // Friday 07:59
      expect(await logsTo(to)).toHaveLength(0);
      await at('2026-03-13T13:00:00Z'); // Friday 08:00
      const mails = await logsTo(to);
      expect(mails.map((m) => m.subjectOrTemplate)).toEqual([`Weekly review alerts digest: 1 review at Alert Co rd-${kind}`]);
      await at('2026-03-14T13:00:00Z');
      expect(await logsTo(to)).toHaveLength(1);
    });
  });
}
