import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import type { Messenger } from '../src/messaging/send.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { createSendEngine } from '../src/pipeline/send.ts';
import { capturingMessenger } from './alerts-capture.ts';
import { failingMessenger, testDatabaseKinds } from './helpers.ts';
import { HOUR, openSendWorld, type SendWorld, START, sendTools } from './pipeline-send-bed.ts';
import { gate, heldMessenger, LEASE_MS, MINUTE } from './pipeline-send-claims-bed.ts';

/**
 * A worker killed while its batch is out (pipeline/send-resume.ts): the NotificationLog rows are
 * written before the provider is called and the invitations' outcomes after, so a worker that dies
 * between the two leaves rows behind and its invitations due again once the lease ends. The next
 * worker finishes those rows instead of writing new ones: one message per invitation.
 */
for (const kind of testDatabaseKinds()) {
  describe(`Send engine after a worker died mid-batch (${kind})`, () => {
    let world: SendWorld;
    let database: Database;
    let app: FastifyInstance;
    const clock = movableClock(START);

    beforeAll(async () => {
      world = await openSendWorld(kind, clock);
      ({ database, app } = world);
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    const { row, admit, itemOf, messagesOf } = sendTools(() => world, clock, kind);
    const counted = () => capturingMessenger(database.db, () => clock.now());
    /** The next worker, once the dead one's lease has ended. */
    const nextWorker = async (messenger: Messenger) => {
      clock.advance(LEASE_MS + MINUTE);
      await createSendEngine(database.db, messenger, clock, app.surveySettings).run(clock.now());
    };

    it('died while the provider had the batch: the next worker delivers the same rows, once each', async () => {
      clock.set(START);
      const ids = await admit([row(), row()]);
      clock.advance(2 * HOUR);
      // The dead worker: its provider call never returns, and it renews no lease.
      const held = gate();
      void createSendEngine(database.db, heldMessenger(database.db, clock, held), clock, app.surveySettings, {
        renewEveryMs: null,
      }).run(clock.now());
      await held.reached;
      for (const id of ids) expect((await messagesOf(id)).map((m) => m.status)).toEqual(['queued']);

      const next = counted();
      await nextWorker(next.messenger);
      expect(next.sent).toHaveLength(2);
      for (const id of ids) {
        const messages = await messagesOf(id);
        expect(messages.map((m) => m.status)).toEqual(['sent']);
        expect(messages[0]?.providerMessageId).toBe('m1');
        expect(await itemOf(id)).toMatchObject({ status: 'sent', sentAt: clock.now(), claimedUntil: null, attempts: 2 });
      }
    });

    it('died after the provider took the batch, before the outcomes: the next worker records them and sends nothing', async () => {
      clock.set(START);
      const [id] = await admit([row()]);
      clock.advance(2 * HOUR);
      const sentAt = clock.now();
      const first = counted();
      const dying: Messenger = {
        ...first.messenger,
        sendMany: async (messages) => {
          await first.messenger.sendMany(messages);
          throw new Error('killed before the outcomes were written');
        },
      };
      await expect(createSendEngine(database.db, dying, clock, app.surveySettings).run(clock.now())).rejects.toThrow('killed');
      expect(await itemOf(id)).toMatchObject({ status: 'scheduled', attempts: 1 });

      const next = counted();
      await nextWorker(next.messenger);
      expect(first.sent).toHaveLength(1);
      expect(next.sent).toEqual([]);
      expect((await messagesOf(id)).map((m) => m.status)).toEqual(['sent']);
      expect(await itemOf(id)).toMatchObject({ status: 'sent', sentAt, claimedUntil: null });
    });

    it('a failed earlier attempt is not a send: the next one writes its own row', async () => {
      clock.set(START);
      const [id] = await admit([row()]);
      clock.advance(2 * HOUR);
      const failing = failingMessenger(database.db, () => clock.now());
      await createSendEngine(database.db, failing, clock, app.surveySettings).run(clock.now());
      expect(await itemOf(id)).toMatchObject({ status: 'scheduled', attempts: 1 });
      const next = counted();
      await nextWorker(next.messenger);
      expect(next.sent).toHaveLength(1);
      expect((await messagesOf(id)).map((m) => m.status)).toEqual(['failed', 'sent']);
      expect(await itemOf(id)).toMatchObject({ status: 'sent' });
    });
  });
}
