import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../src/alerts/deliver.ts';
import { testConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import {
  emailOptOuts,
  emailSuppressions,
  notificationLogs,
  smsOptOuts,
  surveyAlertEvents,
  surveyAlertRules,
} from '../src/db/schema/index.ts';
import { createMessenger, type Messenger } from '../src/messaging/send.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { type AlertWorld, detractorAlert, makeWorld } from './alerts-fixture.ts';
import { failingMessenger, openTestDatabase, testDatabaseKinds } from './helpers.ts';

const START = new Date('2026-03-02T15:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

for (const kind of testDatabaseKinds()) {
  describe(`Alert engine: delivery, reasons and retries (${kind})`, () => {
    let database: Database;
    let world: AlertWorld;
    let outbox: Messenger;
    const clock = movableClock(START);
    const now = () => clock.now();

    beforeAll(async () => {
      database = await openTestDatabase(kind);
      world = await makeWorld(database.db, kind);
      outbox = createMessenger(database.db, testConfig().messaging, { now });
    });
    afterAll(async () => {
      await database?.close();
    });

    /** A detractor alert to one address of a fresh rule, evaluated (not yet delivered): its event. */
    const alertTo = (address: { email?: string; phone?: string }) => detractorAlert(database.db, world, clock, address);
    const reload = async (id: number) => {
      const [event] = await database.db.select().from(surveyAlertEvents).where(eq(surveyAlertEvents.id, id));
      if (!event) throw new Error('no event');
      return event;
    };
    const deliverWith = (messenger: Messenger) => deliverDue(database.db, messenger, clock.now());

    it('a suppressed address is unsent at once with ses_suppressed, and Tracking Logs shows it suppressed', async () => {
      await database.db.insert(emailSuppressions).values({ email: `bounced-${kind}@alert.test`, reason: 'BOUNCE' });
      const event = await alertTo({ email: `bounced-${kind}@alert.test` });
      await deliverWith(outbox);
      const after = await reload(event.id);
      expect({ state: after.state, reason: after.reason, attempts: after.attempts, next: after.nextRetryAt }).toEqual({
        state: 'unsent',
        reason: 'ses_suppressed',
        attempts: 1,
        next: null,
      });
      const [log] = await database.db
        .select()
        .from(notificationLogs)
        .where(eq(notificationLogs.id, after.notificationId ?? 0));
      expect(log).toMatchObject({ type: 'survey_alert', status: 'suppressed' });
    });

    it('an unsubscribed address is recipient_unsubscribed; an opted-out phone sms_opted_out; a bad number sms_invalid_number', async () => {
      await database.db
        .insert(emailOptOuts)
        .values({ email: `gone-${kind}@alert.test`, clientId: world.clientId, source: 'alert_unsubscribe' });
      const phone = kind === 'pg' ? '+13125550177' : '+13125550178';
      await database.db.insert(smsOptOuts).values({ phone, clientId: null, keyword: 'STOP', source: 'sms' });
      const unsubscribed = await alertTo({ email: `gone-${kind}@alert.test` });
      await deliverWith(outbox);
      const optedOut = await alertTo({ phone });
      await deliverWith(outbox);
      const invalid = await alertTo({ phone: '+1' });
      await deliverWith(outbox);
      expect((await reload(unsubscribed.id)).reason).toBe('recipient_unsubscribed');
      expect((await reload(optedOut.id)).reason).toBe('sms_opted_out');
      expect((await reload(invalid.id)).reason).toBe('sms_invalid_number');
      for (const e of [unsubscribed, optedOut, invalid]) expect((await reload(e.id)).state).toBe('unsent');
    });

    it('a rule paused before the send stops the alert with rule_paused_at_send, sending nothing', async () => {
      const event = await alertTo({ email: `paused-${kind}@alert.test` });
      await database.db.update(surveyAlertRules).set({ status: 'paused' }).where(eq(surveyAlertRules.id, event.ruleId));
      await deliverWith(outbox);
      const after = await reload(event.id);
      expect({ state: after.state, reason: after.reason, notificationId: after.notificationId }).toEqual({
        state: 'unsent',
        reason: 'rule_paused_at_send',
        notificationId: null,
      });
    });

    it('a provider rejection (SMTP 5xx) is final: ses_rejected, no retry', async () => {
      const rejecting = createMessenger(database.db, testConfig().messaging, {
        now,
        email: {
          name: 'rejecting',
          send: async () => {
            throw new Error('550 5.1.1 MessageRejected: Email address is not verified');
          },
          close: () => undefined,
        },
      });
      const event = await alertTo({ email: `rejected-${kind}@alert.test` });
      await deliverWith(rejecting);
      const after = await reload(event.id);
      expect({ state: after.state, reason: after.reason, next: after.nextRetryAt }).toEqual({
        state: 'unsent',
        reason: 'ses_rejected',
        next: null,
      });
    });

    it('a transient failure retries at 5 min, 30 min, 2 h and 12 h, each not a moment before, then is unsent with provider_error', async () => {
      const failing = failingMessenger(database.db, now);
      const event = await alertTo({ email: `flaky-${kind}@alert.test` });
      await deliverWith(failing);
      const waits = [5 * MINUTE, 30 * MINUTE, 2 * HOUR, 12 * HOUR];
      for (const [i, wait] of waits.entries()) {
        const failedAt = clock.now().getTime();
        const retrying = await reload(event.id);
        expect({ state: retrying.state, reason: retrying.reason, attempts: retrying.attempts }).toEqual({
          state: 'retrying',
          reason: 'provider_error',
          attempts: i + 1,
        });
        expect(retrying.nextRetryAt?.getTime()).toBe(failedAt + wait);
        clock.set(new Date(failedAt + wait - 1));
        await deliverWith(failing);
        expect((await reload(event.id)).attempts).toBe(i + 1);
        clock.set(new Date(failedAt + wait));
        await deliverWith(failing);
      }
      const spent = await reload(event.id);
      expect({ state: spent.state, reason: spent.reason, attempts: spent.attempts, next: spent.nextRetryAt }).toEqual({
        state: 'unsent',
        reason: 'provider_error',
        attempts: 5,
        next: null,
      });
    });

    it('a retry that then goes through is sent, and two deliveries at once never send one event twice', async () => {
      const event = await alertTo({ email: `late-${kind}@alert.test` });
      await deliverWith(failingMessenger(database.db, now));
      clock.advance(5 * MINUTE);
      const [a, b] = await Promise.all([deliverWith(outbox), deliverWith(outbox)]);
      expect((a ?? 0) + (b ?? 0)).toBe(1);
      const after = await reload(event.id);
      expect({ state: after.state, reason: after.reason, attempts: after.attempts }).toEqual({ state: 'sent', reason: null, attempts: 2 });
      const logs = await database.db
        .select()
        .from(notificationLogs)
        .where(eq(notificationLogs.recipient, `late-${kind}@alert.test`));
      expect(logs.map((l) => l.status).sort()).toEqual(['failed', 'sent']);
    });
  });
}
