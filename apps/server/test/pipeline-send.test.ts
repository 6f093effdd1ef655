import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { emailOptOuts, surveyProcessingItems, surveyResponses } from '../src/db/schema/index.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { createSendEngine } from '../src/pipeline/send.ts';
import { testDatabaseKinds } from './helpers.ts';
import { DAY, HOUR, openSendWorld, type SendWorld, START, sendTools } from './pipeline-send-bed.ts';

for (const kind of testDatabaseKinds()) {
  describe(`Send engine (${kind})`, () => {
    let world: SendWorld;
    let database: Database;
    let app: FastifyInstance;
    const clock = movableClock(START);
    let clientId: number;
    let emailSurvey: number;
    let fallbackSurvey: number;
    let twiceSurvey: number;

    beforeAll(async () => {
      world = await openSendWorld(kind, clock);
      ({ database, app, clientId, emailSurvey, fallbackSurvey, twiceSurvey } = world);
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    const { row, admit, itemOf, messagesOf } = sendTools(() => world, clock, kind);

    it('sends what is due to the outbox and leaves what is not due', async () => {
      clock.set(START);
      const [id] = await admit([row()]);
      // Due at 11:00 (send delay 2 h): at 10:59 nothing goes.
      clock.advance(2 * HOUR - 60_000);
      await app.jobs.runDue();
      expect((await itemOf(id)).status).toBe('scheduled');
      expect(await messagesOf(id)).toHaveLength(0);
      clock.advance(60_000);
      await app.jobs.runDue();
      const item = await itemOf(id);
      expect(item).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
      expect(item.sentAt?.toISOString()).toBe(clock.now().toISOString());
      expect(item.expiresAt.toISOString()).toBe(new Date(clock.now().getTime() + 10 * DAY).toISOString());
      const [message] = await messagesOf(id);
      expect(message).toMatchObject({ type: 'survey_invite', channel: 'email', status: 'sent', subjectOrTemplate: 'How was Downtown?' });
      expect(message?.bodyText).toContain(`/s/${item.token}`);
    });

    it('reminds once after the interval, then expires the unanswered link', async () => {
      clock.set(START);
      const [id, answered] = await admit([row(), row()]);
      clock.advance(2 * HOUR);
      await app.jobs.runDue();
      const sentAt = clock.now().getTime();
      await database.db
        .insert(surveyResponses)
        .values({ processingItemId: answered ?? 0, surveyId: emailSurvey, clientId, answers: {}, questions: [] });
      await database.db
        .update(surveyProcessingItems)
        .set({ status: 'responded' })
        .where(eq(surveyProcessingItems.id, answered ?? 0));
      clock.set(new Date(sentAt + 3 * DAY - 60_000));
      await app.jobs.runDue();
      expect(await itemOf(id)).toMatchObject({ remindersSent: 0, nextReminderAt: new Date(sentAt + 3 * DAY) });
      clock.set(new Date(sentAt + 3 * DAY));
      await app.jobs.runDue();
      expect(await itemOf(id)).toMatchObject({ status: 'reminded', remindersSent: 1, nextReminderAt: null });
      expect((await messagesOf(id)).map((m) => m.type)).toEqual(['survey_invite', 'survey_reminder']);
      // Reminder count 1: no second one.
      clock.set(new Date(sentAt + 6 * DAY));
      await app.jobs.runDue();
      expect(await messagesOf(id)).toHaveLength(2);
      expect((await messagesOf(answered)).map((m) => m.type)).toEqual(['survey_invite']);
      clock.set(new Date(sentAt + 10 * DAY));
      await app.jobs.runDue();
      expect((await itemOf(id)).status).toBe('expired');
      expect((await itemOf(answered)).status).toBe('responded');
    });

    it('reminds as many times as the survey says, each after its interval from the send', async () => {
      clock.set(START);
      const [id] = await admit([row()], twiceSurvey);
      clock.advance(2 * HOUR);
      await app.jobs.runDue();
      const sentAt = clock.now().getTime();
      const types = async () => (await messagesOf(id)).map((m) => m.type);
      // [days after the send, reminders sent by then, the next one due (days after the send)]
      let before = 0;
      for (const [days, count, next] of [
        [2, 1, 4],
        [4, 2, null],
        [6, 2, null],
      ] as const) {
        clock.set(new Date(sentAt + days * DAY - 60_000));
        await app.jobs.runDue();
        expect(await types(), `just before day ${days}`).toHaveLength(1 + before);
        before = count;
        clock.set(new Date(sentAt + days * DAY));
        await app.jobs.runDue();
        expect(await itemOf(id), `day ${days}`).toMatchObject({
          remindersSent: count,
          nextReminderAt: next === null ? null : new Date(sentAt + next * DAY),
        });
        expect(await types()).toHaveLength(1 + count);
      }
    });

    it('falls back to SMS when the e-mail is refused and the customer opted in to texts', async () => {
      clock.set(START);
      const email = `fallback-${kind}@x.test`;
      const [id] = await admit([row({ email, phone: '+13125550142', smsOptIn: true })], fallbackSurvey);
      expect((await itemOf(id)).channel).toBe('email');
      await database.db.insert(emailOptOuts).values({ email, clientId, source: 'unsubscribe' });
      clock.advance(2 * HOUR);
      await app.jobs.runDue();
      expect(await itemOf(id)).toMatchObject({ status: 'sent', channel: 'sms' });
      expect((await messagesOf(id)).map((m) => [m.channel, m.status])).toEqual([
        ['email', 'suppressed'],
        ['sms', 'sent'],
      ]);
    });

    it('Send now sends at once what is scheduled for later', async () => {
      clock.set(START);
      const [id] = await admit([row({ transactionDate: '2026-03-20' })]);
      expect((await itemOf(id)).status).toBe('scheduled');
      const [outcome] = await app.sendEngine.sendItemsNow([id ?? 0]);
      expect(outcome).toMatchObject({ itemId: id, status: 'sent', error: null });
      expect(await messagesOf(id)).toHaveLength(1);
    });

    it('Retry failed / Send now over more items than a batch sends them all', async () => {
      clock.set(START);
      const ids = await admit(Array.from({ length: 7 }, () => row({ transactionDate: '2026-03-20' })));
      const engine = createSendEngine(database.db, app.messenger, clock, app.surveySettings, { batchSize: 3 });
      const outcomes = await engine.sendItemsNow(ids);
      expect(outcomes.map((o) => o.status)).toEqual(ids.map(() => 'sent'));
    });
  });
}
