import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { notificationLogs, surveyProcessingItems, surveys } from '../src/db/schema/index.ts';
import { createMessenger } from '../src/messaging/send.ts';
import { admitRows } from '../src/pipeline/admit.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { backoffMs } from '../src/pipeline/queue.ts';
import { createSendEngine, MAX_SEND_ATTEMPTS } from '../src/pipeline/send.ts';
import type { NormalRow } from '../src/pipeline/types.ts';
import { failingMessenger, testDatabaseKinds } from './helpers.ts';
import { DAY, HOUR, openSendWorld, type SendWorld, START, sendTools } from './pipeline-send-bed.ts';

/** The send engine when a transport fails, a survey pauses, an invitation is cancelled or two callers race. */
for (const kind of testDatabaseKinds()) {
  describe(`Send engine: failures and races (${kind})`, () => {
    let world: SendWorld;
    let database: Database;
    let app: FastifyInstance;
    const clock = movableClock(START);
    let clientId: number;
    let emailSurvey: number;

    beforeAll(async () => {
      world = await openSendWorld(kind, clock);
      ({ database, app, clientId, emailSurvey } = world);
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    const { row, admit, itemOf, messagesOf } = sendTools(() => world, clock, kind);

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
