import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { createSendEngine } from '../src/pipeline/send.ts';
import { testDatabaseKinds } from './helpers.ts';
import { HOUR, openSendWorld, type SendWorld, START, sendTools } from './pipeline-send-bed.ts';
import { adminHeaders, gate, heldMessenger, LEASE_MS, MINUTE } from './pipeline-send-claims-bed.ts';

/**
 * A batch the send engine holds (docs/decisions/075-send-claims.md): its lease is renewed while a
 * slow transport keeps it out, so no other worker takes it again, and Send now refuses it until
 * its outcome is written; either way one message goes out.
 */
for (const kind of testDatabaseKinds()) {
  describe(`Send engine claims (${kind})`, () => {
    let world: SendWorld;
    let database: Database;
    let app: FastifyInstance;
    let headers: Record<string, string>;
    const clock = movableClock(START);

    beforeAll(async () => {
      world = await openSendWorld(kind, clock);
      ({ database, app } = world);
      headers = await adminHeaders(database.db, kind);
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    const { row, admit, itemOf, messagesOf } = sendTools(() => world, clock, kind);
    const post = (url: string, payload?: object) => app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
    /** Waits (real time) until a renewal has pushed the invitation's lease to the clock's now plus a lease. */
    const renewed = (id: number | undefined) =>
      vi.waitFor(
        async () => {
          const item = await itemOf(id);
          const until = clock.now().getTime() + LEASE_MS;
          expect(item.claimedUntil?.getTime()).toBe(until);
          expect(item.scheduledAt?.getTime()).toBe(until);
        },
        { timeout: 5000, interval: 20 },
      );

    it('renews the lease while a slow transport holds the batch past five minutes, then stops', async () => {
      clock.set(START);
      const [id] = await admit([row()]);
      clock.advance(2 * HOUR);
      const claimedAt = clock.now().getTime();
      const held = gate();
      const engine = createSendEngine(database.db, heldMessenger(database.db, clock, held), clock, app.surveySettings, {
        renewEveryMs: 20,
      });
      const batch = engine.run(clock.now());
      await held.reached;
      expect((await itemOf(id)).claimedUntil?.getTime()).toBe(claimedAt + LEASE_MS);
      for (const minutes of [4, 4]) {
        clock.advance(minutes * MINUTE);
        await renewed(id);
      }
      // Eight minutes after the claim, past its first lease: another worker finds nothing to send.
      const other = createSendEngine(database.db, app.messenger, clock, app.surveySettings);
      await other.run(clock.now());
      expect(await app.sendEngine.sendItemsNow([id ?? 0])).toEqual([]);
      expect(await app.sendEngine.beingSent([id ?? 0])).toEqual([id]);
      expect(await messagesOf(id)).toHaveLength(1);
      held.open();
      await batch;
      const sent = await itemOf(id);
      expect(sent).toMatchObject({ status: 'sent', claimedUntil: null, attempts: 1 });
      expect(sent.sentAt?.getTime()).toBe(claimedAt);
      expect((await messagesOf(id)).map((m) => m.status)).toEqual(['sent']);
      // No renewal after the outcome: the send time stays as written.
      clock.advance(MINUTE);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await itemOf(id)).scheduledAt?.getTime()).toBe(claimedAt);
      expect(await app.sendEngine.beingSent([id ?? 0])).toEqual([]);
    });

    it('Send now, Fix contact and Reschedule answer 409 while a batch holds the invitation, and one message goes out', async () => {
      clock.set(START);
      const [id] = await admit([row()]);
      clock.advance(2 * HOUR);
      const held = gate();
      const engine = createSendEngine(database.db, heldMessenger(database.db, clock, held), clock, app.surveySettings, {
        renewEveryMs: 20,
      });
      const batch = engine.run(clock.now());
      await held.reached;
      const before = await itemOf(id);
      const bodies: Record<string, object | undefined> = {
        'send-now': undefined,
        'fix-contact': { email: 'new@x.test' },
        reschedule: { scheduled_at: new Date(clock.now().getTime() + 24 * HOUR).toISOString() },
      };
      for (const [action, body] of Object.entries(bodies)) {
        const res = await post(`/api/survey-processing/${id}/${action}`, body);
        expect(res.statusCode, `${action}: ${res.body}`).toBe(409);
        expect(res.json().message).toBe('This invitation is being sent right now: reload it in a moment to see how it went.');
      }
      expect(await itemOf(id)).toMatchObject({ email: before.email, attempts: 1, status: 'scheduled' });
      held.open();
      await batch;
      expect(await itemOf(id)).toMatchObject({ status: 'sent', claimedUntil: null });
      // Sent: Send now now refuses it for its status, and the one message stays one.
      const again = await post(`/api/survey-processing/${id}/send-now`);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toContain('This invitation is sent');
      expect(await messagesOf(id)).toHaveLength(1);
    });

    it('a worker leaves alone what Send now holds, and a second Send now sends nothing', async () => {
      clock.set(START);
      const [id] = await admit([row({ transactionDate: '2026-03-20' })]);
      const held = gate();
      const engine = createSendEngine(database.db, heldMessenger(database.db, clock, held), clock, app.surveySettings, {
        renewEveryMs: 20,
      });
      const first = engine.sendItemsNow([id ?? 0]);
      await held.reached;
      clock.advance(6 * MINUTE);
      await renewed(id);
      await createSendEngine(database.db, app.messenger, clock, app.surveySettings).run(clock.now());
      expect(await app.sendEngine.sendItemsNow([id ?? 0])).toEqual([]);
      held.open();
      expect((await first).map((o) => o.status)).toEqual(['sent']);
      expect(await messagesOf(id)).toHaveLength(1);
    });

    it('a cancel while the batch is out ends the hold and stays', async () => {
      clock.set(START);
      const [id] = await admit([row()]);
      clock.advance(2 * HOUR);
      const held = gate();
      const engine = createSendEngine(database.db, heldMessenger(database.db, clock, held), clock, app.surveySettings, {
        renewEveryMs: 20,
      });
      const batch = engine.run(clock.now());
      await held.reached;
      const cancel = await post(`/api/survey-processing/${id}/cancel`, { note: 'Wrong address' });
      expect(cancel.statusCode, cancel.body).toBe(200);
      expect(await itemOf(id)).toMatchObject({ status: 'skipped_manual', claimedUntil: null });
      expect(await app.sendEngine.beingSent([id ?? 0])).toEqual([]);
      clock.advance(2 * MINUTE);
      held.open();
      await batch;
      expect(await itemOf(id)).toMatchObject({ status: 'skipped_manual', claimedUntil: null, scheduledAt: null });
      const again = await post(`/api/survey-processing/${id}/send-now`);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toContain('This invitation is cancelled');
    });
  });
}
