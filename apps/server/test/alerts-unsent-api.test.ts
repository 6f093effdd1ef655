import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailSuppressions, surveyAlertEvents, surveyAlertRules, systemLogs } from '../src/db/schema/index.ts';
import { type AlertWorld, makeResponse, makeRule, makeWorld } from './alerts-fixture.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const PATH = '/api/survey-alerts-unsent-events';

for (const kind of testDatabaseKinds()) {
  describe(`Survey Alerts Unsent events API (${kind})`, () => {
    let ctx: TestContext;
    let world: AlertWorld;
    let headers: Record<string, string>;
    const post = (url: string, payload?: object) =>
      ctx.app.inject({ method: 'POST', url, headers, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });

    /** A detractor alert to a suppressed address, delivered by the workers: its (unsent) event id. */
    const unsentAlert = async (address: string) => {
      await ctx.database.db.update(surveyAlertRules).set({ status: 'archived' }).where(eq(surveyAlertRules.clientId, world.clientId));
      await ctx.database.db.insert(emailSuppressions).values({ email: address, reason: 'BOUNCE' }).onConflictDoNothing();
      const ruleId = await makeRule(
        ctx.database.db,
        world,
        { name: `Rule for ${address}`, trigger: 'detractor', extraEmails: [address] },
        new Date(Date.now() - 60_000),
      );
      await makeResponse(ctx.database.db, world, { score: 1, comment: 'Never again' }, new Date());
      await ctx.app.jobs.runDue();
      const [event] = await ctx.database.db.select().from(surveyAlertEvents).where(eq(surveyAlertEvents.ruleId, ruleId));
      if (!event) throw new Error('no event');
      return event.id;
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      world = await makeWorld(ctx.database.db, kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(() => ctx.close());

    it('lists an unsent alert with its reason, filters by reason, and refuses without a session', async () => {
      const id = await unsentAlert(`list-${kind}@alert.test`);
      const list = await ctx.app.inject({ method: 'GET', url: `${PATH}?client=${world.clientId}`, headers });
      expect(list.statusCode).toBe(200);
      const row = list.json().data.find((r: { id: number }) => r.id === id);
      expect(row).toMatchObject({
        state: 'unsent',
        reason: 'ses_suppressed',
        recipient: `list-${kind}@alert.test`,
        score: 1,
        comment: 'Never again',
        attempts: 1,
      });
      const other = await ctx.app.inject({ method: 'GET', url: `${PATH}?client=${world.clientId}&reason=provider_error`, headers });
      expect(other.json().data.some((r: { id: number }) => r.id === id)).toBe(false);
      const bad = await ctx.app.inject({ method: 'GET', url: `${PATH}?reason=nope`, headers });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().errors)).toEqual(['reason.0']);
      expect((await ctx.app.inject({ method: 'GET', url: PATH })).statusCode).toBe(401);
      const csv = await ctx.app.inject({ method: 'GET', url: `${PATH}/export?client=${world.clientId}`, headers });
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toContain('On the suppression list');
    });

    it('Resend to… another address delivers it and the row says resent; a bad address is refused beside the field', async () => {
      const id = await unsentAlert(`bounced-${kind}@alert.test`);
      const bad = await post(`${PATH}/${id}/resend-to`, { to: 'not-an-address' });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({ to: ['The Send to field must be a valid email'] });
      const empty = await post(`${PATH}/${id}/resend-to`, { to: '' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().errors.to).toEqual(['The Send to field is required']);
      const ok = await post(`${PATH}/${id}/resend-to`, { to: `Desk-${kind}@alert.test` });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data).toMatchObject({ state: 'resent', resent_to: `desk-${kind}@alert.test`, reason: null, attempts: 2 });
      const again = await post(`${PATH}/${id}/resend-to`, { to: `desk-${kind}@alert.test` });
      expect(again.statusCode).toBe(409);
      const audit = await ctx.database.db.select().from(systemLogs).where(eq(systemLogs.action, 'survey_alert_events.resend_to'));
      expect(audit.at(-1)?.entityId).toBe(String(id));
    });

    it('Resend to the same suppressed address stays unsent; Dismiss needs a note of at most 500 characters', async () => {
      const id = await unsentAlert(`still-${kind}@alert.test`);
      const resent = await post(`${PATH}/${id}/resend`);
      expect(resent.json().data).toMatchObject({ state: 'unsent', reason: 'ses_suppressed', attempts: 2 });
      const noNote = await post(`${PATH}/${id}/dismiss`, { note: ' ' });
      expect(noNote.statusCode).toBe(400);
      expect(noNote.json().errors.note).toEqual(['The Note field is required']);
      const long = await post(`${PATH}/${id}/dismiss`, { note: 'x'.repeat(501) });
      expect(long.json().errors.note).toEqual(['The Note field may not be greater than 500 characters']);
      const ok = await post(`${PATH}/${id}/dismiss`, { note: 'Called the customer ourselves' });
      expect(ok.json().data).toMatchObject({ state: 'dismissed', note: 'Called the customer ourselves' });
    });

    it('Resend resolves the recipients again: one removed from the rule gets nothing, one added gets the alert', async () => {
      const id = await unsentAlert(`removed-${kind}@alert.test`);
      const [event] = await ctx.database.db.select().from(surveyAlertEvents).where(eq(surveyAlertEvents.id, id));
      const added = `added-${kind}@alert.test`;
      await ctx.database.db
        .update(surveyAlertRules)
        .set({ extraEmails: [added] })
        .where(eq(surveyAlertRules.id, event?.ruleId ?? 0));
      const res = await post(`${PATH}/${id}/resend`);
      expect(res.json().data).toMatchObject({ state: 'unsent', reason: 'ses_suppressed', attempts: 1 });
      const all = await ctx.database.db
        .select()
        .from(surveyAlertEvents)
        .where(eq(surveyAlertEvents.ruleId, event?.ruleId ?? 0));
      expect(all.map((e) => `${e.recipient}:${e.state}`).sort()).toEqual([`${added}:sent`, `removed-${kind}@alert.test:unsent`]);
    });

    it('bulk Resend previews the count and scope, resends exactly that many, and refuses a stale count', async () => {
      const address = `bulk-${kind}@alert.test`;
      const id = await unsentAlert(address);
      await ctx.database.db.delete(emailSuppressions).where(eq(emailSuppressions.email, address));
      const filter = { client: [String(world.clientId)], reason: ['ses_suppressed'], state: ['unsent'], q: address };
      const preview = await post(`${PATH}/resend/preview`, { filter });
      expect(preview.json().data).toEqual({ count: 1, scope: `Alert Co ${kind}` });
      const stale = await post(`${PATH}/resend`, { filter, confirmed: 2 });
      expect(stale.statusCode).toBe(409);
      const done = await post(`${PATH}/resend`, { filter, confirmed: 1 });
      expect(done.json().data).toEqual({ changed: 1, delivered: 1 });
      const [event] = await ctx.database.db.select().from(surveyAlertEvents).where(eq(surveyAlertEvents.id, id));
      expect(event?.state).toBe('resent');
    });
  });
}
