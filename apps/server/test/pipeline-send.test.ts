import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import {
  clientSurveySettings,
  clients,
  emailOptOuts,
  locations,
  notificationLogs,
  smsTemplates,
  surveyProcessingItems,
  surveyResponses,
  surveys,
} from '../src/db/schema/index.ts';
import { createMessenger } from '../src/messaging/send.ts';
import { admitRows } from '../src/pipeline/admit.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { backoffMs } from '../src/pipeline/queue.ts';
import { createSendEngine, MAX_SEND_ATTEMPTS } from '../src/pipeline/send.ts';
import type { NormalRow } from '../src/pipeline/types.ts';
import { failingMessenger, normalRow, openTestDatabase, testDatabaseKinds } from './helpers.ts';

/** Monday 2 March 2026, 09:00 in Chicago. */
const START = new Date('2026-03-02T15:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

for (const kind of testDatabaseKinds()) {
  describe(`Send engine (${kind})`, () => {
    let database: Database;
    let app: FastifyInstance;
    const clock = movableClock(START);
    let clientId: number;
    let emailSurvey: number;
    let fallbackSurvey: number;
    let twiceSurvey: number;
    let n = 0;

    beforeAll(async () => {
      database = await openTestDatabase(kind);
      app = await buildApp(testConfig(), { database, clock });
      await app.ready();
      const db = database.db;
      const [client] = await db.insert(clients).values({ name: 'Send Co', timezone: 'America/Chicago' }).returning({ id: clients.id });
      clientId = client?.id ?? 0;
      await db.insert(clientSurveySettings).values({
        clientId,
        fromName: 'Send Co',
        fromEmail: 'hello@send.test',
        quietHoursStart: '21:00',
        quietHoursEnd: '08:00',
        sendDays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        dailyCapPerLocation: 1000,
        overSurveyDays: 0,
      });
      await db.insert(locations).values({
        id: 'S-LOC',
        clientId,
        locationname: 'Downtown',
        address1: '1 Main St',
        city: 'Chicago',
        state: 'IL',
        postalCode: '60601',
        phone: '+13125550100',
        timezone: 'America/Chicago',
      });
      const [template] = await db
        .insert(smsTemplates)
        .values({
          clientId,
          name: 'Invite',
          purpose: 'survey_invite',
          language: 'en',
          body: 'Hi {first_name}, rate {business_name}: {link} STOP to opt out',
          encoding: 'GSM-7',
          segments: 1,
          hasOptOut: true,
        })
        .returning({ id: smsTemplates.id });
      const base = {
        clientId,
        type: 'nps',
        language: 'en',
        senderName: 'Send Co',
        emailSubject: 'How was {location_name}?',
        emailBody: 'Hi {first_name}, tell us: {survey_link}',
        smsTemplateId: template?.id ?? null,
        sendDelayHours: 2,
        reminderCount: 1,
        reminderIntervalDays: 3,
        linkExpiresDays: 10,
      };
      const made = await db
        .insert(surveys)
        .values([
          { ...base, name: 'Email', channel: 'email' },
          { ...base, name: 'Fallback', channel: 'email_then_sms' },
          { ...base, name: 'Twice', channel: 'email', reminderCount: 2, reminderIntervalDays: 2 },
        ])
        .returning({ id: surveys.id });
      [emailSurvey, fallbackSurvey, twiceSurvey] = made.map((s) => s.id) as [number, number, number];
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    const row = (overrides: Partial<NormalRow> = {}): NormalRow => {
      n++;
      return normalRow({
        rowNumber: n,
        email: `send${n}-${kind}@x.test`,
        transactionId: `S-${n}`,
        transactionDate: '2026-03-01',
        locationId: 'S-LOC',
        ...overrides,
      });
    };
    const admit = async (rows: NormalRow[], surveyId = emailSurvey) => {
      const outcomes = await admitRows(
        database.db,
        { clientId, surveyId, dataFeedId: null, runId: null, source: 'api' },
        rows,
        clock.now(),
      );
      return outcomes.map((o) => o.itemId);
    };
    const itemOf = async (id: number | undefined) => {
      const [item] = await database.db
        .select()
        .from(surveyProcessingItems)
        .where(eq(surveyProcessingItems.id, id ?? 0));
      if (!item) throw new Error(`no item ${id}`);
      return item;
    };
    const messagesOf = (id: number | undefined) =>
      database.db
        .select()
        .from(notificationLogs)
        .where(and(eq(notificationLogs.relatedType, 'survey_processing_item'), eq(notificationLogs.relatedId, String(id))))
        .orderBy(notificationLogs.id);

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

    it('retries a failing transport with back-off, then fails with the provider error', async () => {
      clock.set(START);
      const [id] = await admit([row()]);
      const engine = createSendEngine(
        database.db,
        failingMessenger(database.db, () => clock.now()),
        clock,
        app.surveySettings,
      );
      clock.advance(2 * HOUR);
      for (let attempt = 1; attempt <= MAX_SEND_ATTEMPTS; attempt++) {
        await engine.run(clock.now());
        const item = await itemOf(id);
        expect(item.attempts).toBe(attempt);
        expect(item.lastError).toContain('421 4.3.0 Temporary failure');
        if (attempt < MAX_SEND_ATTEMPTS) {
          expect(item.status).toBe('scheduled');
          expect(item.scheduledAt?.toISOString()).toBe(new Date(clock.now().getTime() + backoffMs(attempt)).toISOString());
          clock.advance(backoffMs(attempt));
        } else {
          expect(item.status).toBe('failed');
        }
      }
      expect((await messagesOf(id)).map((m) => m.status)).toEqual(['failed', 'failed', 'failed']);
    });

    it('a survey paused after admission stops its sends and reminders until resumed', async () => {
      clock.set(START);
      const [due, sent] = await admit([row(), row()]);
      clock.advance(2 * HOUR - 60_000);
      // One goes out before the pause, the other is due after it.
      await app.sendEngine.sendItemsNow([sent ?? 0]);
      await database.db.update(surveys).set({ status: 'paused' }).where(eq(surveys.id, emailSurvey));
      try {
        clock.advance(60_000);
        await app.jobs.runDue();
        expect(await itemOf(due)).toMatchObject({ status: 'skipped_paused', skipReason: 'The survey is paused' });
        expect(await messagesOf(due)).toHaveLength(0);
        clock.advance(3 * DAY);
        await app.jobs.runDue();
        expect(await itemOf(sent)).toMatchObject({ status: 'sent', remindersSent: 0 });
      } finally {
        await database.db.update(surveys).set({ status: 'active' }).where(eq(surveys.id, emailSurvey));
      }
      clock.advance(60_000);
      await app.jobs.runDue();
      expect(await itemOf(sent)).toMatchObject({ status: 'reminded', remindersSent: 1 });
    });

    it('an invitation cancelled while its batch is out stays cancelled', async () => {
      clock.set(START);
      const [id] = await admit([row()]);
      // The transport is slow: a person cancels the invitation on screen meanwhile.
      const messenger = createMessenger(database.db, testConfig().messaging, {
        now: () => clock.now(),
        email: {
          name: 'slow',
          send: async () => {
            await database.db
              .update(surveyProcessingItems)
              .set({ status: 'skipped_manual', skipReason: 'Customer called' })
              .where(eq(surveyProcessingItems.id, id ?? 0));
            return { providerMessageId: 'slow-1', detail: 'accepted' };
          },
          close: () => undefined,
        },
      });
      clock.advance(2 * HOUR);
      await createSendEngine(database.db, messenger, clock, app.surveySettings).run(clock.now());
      expect(await itemOf(id)).toMatchObject({ status: 'skipped_manual', skipReason: 'Customer called' });
    });

    it('two calls admitting the same transaction at once schedule it once', async () => {
      clock.set(START);
      const same = row({ transactionId: `RACE-${kind}` });
      const admitOne = (r: NormalRow) =>
        database.db.transaction((tx) =>
          admitRows(tx, { clientId, surveyId: emailSurvey, dataFeedId: null, runId: null, source: 'api' }, [r], clock.now()),
        );
      const outcomes = await Promise.all([
        admitOne(same),
        admitOne({ ...same, rowNumber: same.rowNumber + 1000, email: `other-${kind}@x.test` }),
      ]);
      expect(
        outcomes
          .flat()
          .map((o) => o.status)
          .sort(),
      ).toEqual(['scheduled', 'skipped_duplicate']);
    });

    it('two engines sending at once never send an invitation twice', async () => {
      clock.set(START);
      const ids = await admit(Array.from({ length: 40 }, () => row()));
      clock.advance(2 * HOUR);
      const engines = [0, 1].map(() => createSendEngine(database.db, app.messenger, clock, app.surveySettings, { batchSize: 7 }));
      for (let i = 0; i < 10; i++) await Promise.all(engines.map((e) => e.run(clock.now())));
      const sent = await database.db
        .select({ id: notificationLogs.relatedId })
        .from(notificationLogs)
        .where(and(eq(notificationLogs.relatedType, 'survey_processing_item'), inArray(notificationLogs.relatedId, ids.map(String))));
      expect(sent).toHaveLength(40);
      expect(new Set(sent.map((s) => s.id)).size).toBe(40);
    });
  });
}
