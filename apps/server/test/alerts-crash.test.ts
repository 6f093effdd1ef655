import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliverDue } from '../src/alerts/deliver.ts';
import { hashToken } from '../src/alerts/links.ts';
import { notificationLogs, surveyAlertEvents } from '../src/db/schema/index.ts';
import type { Messenger } from '../src/messaging/send.ts';
import { alertBed } from './alerts-bed.ts';
import { capturingMessenger } from './alerts-capture.ts';
import { detractorAlert } from './alerts-fixture.ts';
import { testDatabaseKinds } from './helpers.ts';
import { gate, heldMessenger } from './pipeline-send-claims-bed.ts';

const START = new Date('2026-03-02T15:00:00Z');
/** How long a delivery claim holds an alert event (alerts/deliver.ts). */
const LEASE_MS = 10 * 60_000;

/**
 * A worker killed while it sends an alert (decision 093): the alert's row is written before the
 * provider is called and the event settled after, so a worker that dies between the two leaves
 * the event claimed, due again when the lease ends. The next worker finishes that row instead of
 * writing another, and the alert's acknowledge link works whichever message the manager got.
 */
for (const kind of testDatabaseKinds()) {
  describe(`Alert delivery after a worker died mid-send (${kind})`, () => {
    const bed = alertBed(kind, START, `crash-${kind}`);
    const now = () => bed.clock.now();

    const eventOf = async (id: number) => {
      const [event] = await bed.database.db.select().from(surveyAlertEvents).where(eq(surveyAlertEvents.id, id));
      if (!event) throw new Error('no event');
      return event;
    };
    const rowsOf = (id: number) =>
      bed.database.db
        .select()
        .from(notificationLogs)
        .where(and(eq(notificationLogs.relatedType, 'survey_alert_event'), eq(notificationLogs.relatedId, String(id))))
        .orderBy(notificationLogs.id);
    /** The acknowledge link's token in a message's text, which the event must know by its hash. */
    const tokenIn = (text: string) => /\/a\/([\w-]+)/.exec(text)?.[1] ?? '';
    const nextWorker = async (messenger: Messenger) => {
      bed.clock.advance(LEASE_MS + 60_000);
      await deliverDue(bed.database.db, messenger, now());
    };

    it('died while the provider had the alert: the next worker delivers it on the same row, and its link works', async () => {
      const event = await detractorAlert(bed.database.db, bed.world, bed.clock, { email: `held-${kind}@alert.test` });
      const held = gate();
      // The dead worker: its provider call never returns (the gate is never opened).
      const dead = heldMessenger(bed.database.db, bed.clock, held);
      void deliverDue(bed.database.db, dead, now());
      await held.reached;
      expect((await rowsOf(event.id)).map((r) => r.status)).toEqual(['queued']);

      const next = capturingMessenger(bed.database.db, now);
      await nextWorker(next.messenger);
      expect(next.sent.map((e) => e.to)).toEqual([`held-${kind}@alert.test`]);
      const rows = await rowsOf(event.id);
      expect(rows.map((r) => r.status)).toEqual(['sent']);
      const after = await eventOf(event.id);
      expect(after).toMatchObject({ state: 'sent', notificationId: rows[0]?.id, attempts: 2 });
      expect(after.ackTokenHash).toBe(hashToken(tokenIn(rows[0]?.bodyText ?? '')));
    });

    it('died after the provider took the alert, before settling it: the next worker settles it and sends nothing', async () => {
      const event = await detractorAlert(bed.database.db, bed.world, bed.clock, { email: `took-${kind}@alert.test` });
      const first = capturingMessenger(bed.database.db, now);
      const dying: Messenger = {
        ...first.messenger,
        send: async (message) => {
          await first.messenger.send(message);
          throw new Error('killed before the event was settled');
        },
      };
      await expect(deliverDue(bed.database.db, dying, now())).rejects.toThrow('killed');
      expect(await eventOf(event.id)).toMatchObject({ state: 'pending', attempts: 1 });

      const next = capturingMessenger(bed.database.db, now);
      await nextWorker(next.messenger);
      expect(next.sent).toEqual([]);
      const rows = await rowsOf(event.id);
      expect(rows.map((r) => r.status)).toEqual(['sent']);
      const after = await eventOf(event.id);
      expect(after).toMatchObject({ state: 'sent', notificationId: rows[0]?.id });
      // The link in the alert the manager got works: its hash was kept before the send.
      expect(after.ackTokenHash).toBe(hashToken(tokenIn(rows[0]?.bodyText ?? '')));
    });
  });
}
