import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliverDue } from '../src/alerts/deliver.ts';
import { evaluateResponse } from '../src/alerts/evaluate.ts';
import { emailOptOuts, notificationLogs, surveyAlertEvents, surveyAlertRules } from '../src/db/schema/index.ts';
import { alertBed } from './alerts-bed.ts';
import { capturingMessenger } from './alerts-capture.ts';
import { makeResponse, makeRule } from './alerts-fixture.ts';
import { testDatabaseKinds } from './helpers.ts';

const START = new Date('2026-03-02T15:00:00Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const html = { accept: 'text/html' };

for (const kind of testDatabaseKinds()) {
  describe(`Alert links: acknowledge and one-click unsubscribe (${kind})`, () => {
    const bed = alertBed(kind, START);
    const { clock } = bed;

    /** An alert to `address` sent through the app's workers: its event id and its link's token. */
    const alert = async (address: string) => {
      await bed.database.db.update(surveyAlertRules).set({ status: 'archived' }).where(eq(surveyAlertRules.clientId, bed.world.clientId));
      clock.advance(MINUTE);
      const ruleId = await makeRule(bed.database.db, bed.world, { trigger: 'detractor', extraEmails: [address] }, clock.now());
      clock.advance(MINUTE);
      await makeResponse(bed.database.db, bed.world, { score: 1 }, clock.now());
      await bed.app.jobs.runDue();
      const [event] = await bed.database.db.select().from(surveyAlertEvents).where(eq(surveyAlertEvents.ruleId, ruleId));
      const [log] = await bed.database.db
        .select()
        .from(notificationLogs)
        .where(eq(notificationLogs.id, event?.notificationId ?? 0));
      const token = /\/a\/([\w-]+)/.exec(log?.bodyText ?? '')?.[1];
      if (!event || !token) throw new Error('no alert sent');
      expect(log?.bodyText).toContain(`/alerts/unsubscribe/${token}`);
      return { id: event.id, token };
    };
    const eventOf = async (id: number) => (await bed.database.db.select().from(surveyAlertEvents).where(eq(surveyAlertEvents.id, id)))[0];

    it('the acknowledge link shows a button; pressing it acknowledges once; again says so; others reveal nothing', async () => {
      const { id, token } = await alert(`ack-${kind}@alert.test`);
      const page = await bed.app.inject({ method: 'GET', url: `/a/${token}`, headers: html });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Acknowledge this alert');
      expect(page.body).toContain(`action="/a/${token}"`);
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect((await eventOf(id))?.acknowledgedAt).toBeNull();
      const done = await bed.app.inject({
        method: 'POST',
        url: `/a/${token}`,
        headers: { ...html, 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain('Alert acknowledged');
      expect((await eventOf(id))?.acknowledgedAt?.toISOString()).toBe(clock.now().toISOString());
      const again = await bed.app.inject({ method: 'POST', url: `/a/${token}`, headers: html });
      expect(again.statusCode).toBe(409);
      expect(again.body).toContain('Already acknowledged');
      const reopened = await bed.app.inject({ method: 'GET', url: `/a/${token}`, headers: html });
      expect(reopened.statusCode).toBe(409);
      const unknown = await bed.app.inject({ method: 'GET', url: '/a/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', headers: html });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('Link not found');
      expect(unknown.body).not.toContain(`Alert Co`);
      const json = await bed.app.inject({ method: 'POST', url: '/a/nope' });
      expect(json.statusCode).toBe(404);
      expect(json.json()).toMatchObject({ message: 'Alert link not found.' });
    });

    it('an acknowledge link older than 30 days has expired and acknowledges nothing', async () => {
      const { id, token } = await alert(`old-${kind}@alert.test`);
      clock.advance(31 * DAY);
      const res = await bed.app.inject({ method: 'POST', url: `/a/${token}`, headers: html });
      expect(res.statusCode).toBe(410);
      expect(res.body).toContain('This link has expired');
      expect((await eventOf(id))?.acknowledgedAt).toBeNull();
    });

    it('one-click unsubscribe (RFC 8058 POST) stops alerts to that address from that client at once', async () => {
      const address = `stop-${kind}@alert.test`;
      const { token } = await alert(address);
      const confirm = await bed.app.inject({ method: 'GET', url: `/alerts/unsubscribe/${token}`, headers: html });
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain(`Stop survey alerts from Alert Co ${kind} to ${address}?`);
      expect(await bed.database.db.select().from(emailOptOuts).where(eq(emailOptOuts.email, address))).toHaveLength(0);
      const oneClick = await bed.app.inject({
        method: 'POST',
        url: `/alerts/unsubscribe/${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.statusCode).toBe(200);
      const [row] = await bed.database.db.select().from(emailOptOuts).where(eq(emailOptOuts.email, address));
      expect(row).toMatchObject({ clientId: bed.world.clientId, source: 'alert_unsubscribe' });
      const next = await alert(address);
      const after = await eventOf(next.id);
      expect({ state: after?.state, reason: after?.reason }).toEqual({ state: 'unsent', reason: 'recipient_unsubscribed' });
    });

    it('every alert e-mail carries List-Unsubscribe and List-Unsubscribe-Post to the transport', async () => {
      const { messenger: capturing, sent } = capturingMessenger(bed.database.db, () => clock.now());
      await bed.database.db.update(surveyAlertRules).set({ status: 'archived' }).where(eq(surveyAlertRules.clientId, bed.world.clientId));
      clock.advance(MINUTE);
      await makeRule(bed.database.db, bed.world, { trigger: 'detractor', extraEmails: [`hdr-${kind}@alert.test`] }, clock.now());
      clock.advance(MINUTE);
      const responseId = await makeResponse(bed.database.db, bed.world, { score: 0 }, clock.now());
      await evaluateResponse(bed.database.db, responseId, clock.now());
      await deliverDue(bed.database.db, capturing, clock.now());
      expect(sent).toHaveLength(1);
      expect(sent[0]?.headers?.['List-Unsubscribe']).toMatch(/^<http\S+\/alerts\/unsubscribe\/[\w-]{32}>$/);
      expect(sent[0]?.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    });
  });
}
