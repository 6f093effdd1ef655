import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { notificationLogs, surveyProcessingItems } from '../src/db/schema/index.ts';
import { createMessenger } from '../src/messaging/send.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { createSendEngine } from '../src/pipeline/send.ts';
import { HOUR, openSendWorld, type SendWorld, START, sendTools } from './pipeline-send-bed.ts';
import { adminHeaders } from './pipeline-send-claims-bed.ts';

/**
 * Send now racing a worker's batch on PostgreSQL (docs/decisions/075-send-claims.md): each round
 * admits invitations that are due, then a worker's passes (its transport a few milliseconds slow)
 * and a Send now per invitation start together, each after a random moment, on the pool's own
 * connections. Whoever claims an invitation first sends it; the other finds it held or sent.
 * Exactly one message per invitation, in every round.
 */
const ROUNDS = 40;
const PER_ROUND = 4;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!process.env.TEST_DATABASE_URL)('Send now racing a worker (pg)', () => {
  let world: SendWorld;
  let database: Database;
  let app: FastifyInstance;
  let headers: Record<string, string>;
  const clock = movableClock(START);

  beforeAll(async () => {
    world = await openSendWorld('pg', clock);
    ({ database, app } = world);
    headers = await adminHeaders(database.db, 'race');
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const { row, admit } = sendTools(() => world, clock, 'pg');

  it('sends each invitation exactly once, by the worker or by Send now', async () => {
    const slowOutbox = createMessenger(database.db, testConfig().messaging, {
      now: () => clock.now(),
      email: {
        name: 'slow',
        send: async () => {
          await pause(Math.random() * 4);
          return { providerMessageId: 'slow', detail: 'accepted' };
        },
        close: () => undefined,
      },
    });
    const answers = new Map<number, number>();
    let all: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      clock.set(START);
      const ids = await admit(Array.from({ length: PER_ROUND }, () => row()));
      all = [...all, ...ids];
      clock.advance(2 * HOUR);
      const worker = createSendEngine(database.db, slowOutbox, clock, app.surveySettings, { batchSize: 1 + (round % 3) });
      const replies = await Promise.all([
        (async () => {
          await pause(Math.random() * 6);
          for (let pass = 0; pass < PER_ROUND; pass++) await worker.run(clock.now());
          return null;
        })(),
        ...ids.map(async (id) => {
          await pause(Math.random() * 6);
          const res = await app.inject({ method: 'POST', url: `/api/survey-processing/${id}/send-now`, headers });
          return { id, res };
        }),
      ]);
      for (const reply of replies) {
        if (!reply) continue;
        const { statusCode } = reply.res;
        expect([200, 409], reply.res.body).toContain(statusCode);
        answers.set(statusCode, (answers.get(statusCode) ?? 0) + 1);
      }
      // Whatever a refused Send now left due, the worker sends now.
      while ((await worker.run(clock.now())) > 0);
      const sent = await database.db
        .select({ id: notificationLogs.relatedId })
        .from(notificationLogs)
        .where(and(eq(notificationLogs.relatedType, 'survey_processing_item'), inArray(notificationLogs.relatedId, ids.map(String))));
      expect(
        sent.map((s) => Number(s.id)).sort((a, b) => a - b),
        `round ${round}`,
      ).toEqual([...ids].sort((a, b) => a - b));
    }
    const items = await database.db
      .select({ status: surveyProcessingItems.status, claimedUntil: surveyProcessingItems.claimedUntil })
      .from(surveyProcessingItems)
      .where(inArray(surveyProcessingItems.id, all));
    expect(items.every((i) => i.status === 'sent' && i.claimedUntil === null)).toBe(true);
    // Both sides won some races: the rounds did interleave.
    expect(answers.get(200) ?? 0).toBeGreaterThan(0);
    expect(answers.get(409) ?? 0).toBeGreaterThan(0);
  });
});
