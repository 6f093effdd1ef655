import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { notificationLogs, reviewAlertDeliveries, reviewAlertRules } from '../src/db/schema/index.ts';
import { createMessenger } from '../src/messaging/send.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { deliverDue } from '../src/review-alerts/deliver.ts';
import { evaluateReviews } from '../src/review-alerts/evaluate.ts';
import { type AlertWorld, makeWorld } from './alerts-fixture.ts';
import { failingMessenger, openTestDatabase, testDatabaseKinds } from './helpers.ts';
import { makeReview, makeReviewRule } from './review-alerts-fixture.ts';

const START = new Date('2026-03-02T15:00:00Z');
const MINUTE = 60_000;

for (const kind of testDatabaseKinds()) {
  describe(`Review alert engine: retries and rules paused before the send (${kind})`, () => {
    let database: Database;
    let world: AlertWorld;
    const clock = movableClock(START);
    const now = () => clock.now();

    beforeAll(async () => {
      database = await openTestDatabase(kind);
      world = await makeWorld(database.db, `rr-${kind}`);
    });
    afterAll(async () => {
      await database?.close();
    });

    /** A fresh rule (earlier ones archived) to one address, and a 1-star review evaluated: its delivery, not yet sent. */
    const deliveryTo = async (to: string) => {
      await database.db.update(reviewAlertRules).set({ status: 'inactive' }).where(eq(reviewAlertRules.clientId, world.clientId));
      clock.advance(MINUTE);
      const ruleId = await makeReviewRule(database.db, world, { extraEmails: [to] }, clock.now());
      clock.advance(MINUTE);
      const reviewId = await makeReview(database.db, world, { rating: 1 }, clock.now());
      await evaluateReviews(database.db, [reviewId], clock.now());
      const [row] = await database.db.select().from(reviewAlertDeliveries).where(eq(reviewAlertDeliveries.ruleId, ruleId));
      if (!row) throw new Error('no delivery');
      return row;
    };
    const reload = async (id: number) => {
      const [row] = await database.db.select().from(reviewAlertDeliveries).where(eq(reviewAlertDeliveries.id, id));
      if (!row) throw new Error('no delivery');
      return row;
    };

    it('a transient failure retries at 5 min, 30 min, 2 h and 12 h, then is failed; each attempt one Tracking Logs row', async () => {
      const to = `retry-${kind}@alert.test`;
      const d = await deliveryTo(to);
      const failing = failingMessenger(database.db, now);
      for (const wait of [5 * MINUTE, 30 * MINUTE, 120 * MINUTE, 720 * MINUTE]) {
        expect(await deliverDue(database.db, failing, clock.now())).toBe(1);
        const retrying = await reload(d.id);
        expect({ status: retrying.status, reason: retrying.reason }).toEqual({ status: 'pending', reason: 'provider_error' });
        expect(retrying.nextRetryAt?.getTime()).toBe(clock.now().getTime() + wait);
        expect(await deliverDue(database.db, failing, clock.now())).toBe(0);
        clock.advance(wait);
      }
      await deliverDue(database.db, failing, clock.now());
      const spent = await reload(d.id);
      expect({ status: spent.status, reason: spent.reason, attempts: spent.attempts, next: spent.nextRetryAt }).toEqual({
        status: 'failed',
        reason: 'provider_error',
        attempts: 5,
        next: null,
      });
      expect(await database.db.select().from(notificationLogs).where(eq(notificationLogs.recipient, to))).toHaveLength(5);
    });

    it('a retry that then goes through is sent; a rule paused before the send stops it with rule_paused_at_send', async () => {
      const d = await deliveryTo(`later-${kind}@alert.test`);
      await deliverDue(database.db, failingMessenger(database.db, now), clock.now());
      clock.advance(5 * MINUTE);
      await deliverDue(database.db, createMessenger(database.db, testConfig().messaging, { now }), clock.now());
      expect((await reload(d.id)).status).toBe('sent');
      const paused = await deliveryTo(`paused-${kind}@alert.test`);
      await database.db.update(reviewAlertRules).set({ status: 'paused' }).where(eq(reviewAlertRules.id, paused.ruleId));
      await deliverDue(database.db, createMessenger(database.db, testConfig().messaging, { now }), clock.now());
      const stopped = await reload(paused.id);
      expect({ status: stopped.status, reason: stopped.reason, notificationId: stopped.notificationId }).toEqual({
        status: 'failed',
        reason: 'rule_paused_at_send',
        notificationId: null,
      });
    });
  });
}
