import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationLogs, surveyAlertEvents, surveyAlertRules, systemLogs, users } from '../src/db/schema/index.ts';
import { type AlertWorld, makeResponse, makeRule, makeWorld } from './alerts-fixture.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

for (const kind of testDatabaseKinds()) {
  describe(`Survey Alert Settings: Test (${kind})`, () => {
    let ctx: TestContext;
    let world: AlertWorld;
    let headers: Record<string, string>;
    const test = (id: number, auth = headers) =>
      ctx.app.inject({ method: 'POST', url: `/api/survey-alert-settings/${id}/test`, headers: auth });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      world = await makeWorld(ctx.database.db, kind);
      await ctx.database.db.update(users).set({ currentClientId: world.clientId }).where(eq(users.email, 'admin@example.com'));
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(() => ctx.close());

    it('fires the rule on the newest response it fires on, to its real recipients, marked as a test, and audits it', async () => {
      const past = new Date(Date.now() - 60 * 60_000);
      const ruleId = await makeRule(
        ctx.database.db,
        world,
        { trigger: 'keyword', keywords: ['rude'], extraEmails: [`t-${kind}@alert.test`], userIds: [world.ann] },
        past,
      );
      await makeResponse(ctx.database.db, world, { score: 3, comment: 'Staff were rude' }, new Date(past.getTime() - 60_000));
      await makeResponse(ctx.database.db, world, { score: 9, comment: 'Lovely' }, new Date(past.getTime() - 30_000));
      const res = await test(ruleId);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ sent: 2, recipients: [`ann-${kind}@alert.test`, `t-${kind}@alert.test`] });
      const events = await ctx.database.db.select().from(surveyAlertEvents).where(eq(surveyAlertEvents.ruleId, ruleId));
      expect(events.every((e) => e.test && e.state === 'sent')).toBe(true);
      const [log] = await ctx.database.db
        .select()
        .from(notificationLogs)
        .where(eq(notificationLogs.id, events[0]?.notificationId ?? 0));
      expect(log?.subjectOrTemplate).toMatch(/^\[Test\] Survey alert: score 3 at /);
      expect(log?.bodyText).toContain('Comment: Staff were rude');
      const audit = await ctx.database.db.select().from(systemLogs).where(eq(systemLogs.action, 'survey_alert_rule.test'));
      expect(audit.at(-1)?.message).toBe('Sent a test of survey alert rule Rule to 2 recipients');
      // A second Test sends again: tests are never "already alerted".
      expect((await test(ruleId)).json().data.sent).toBe(2);
    });

    it('answers 409 for an archived rule, 404 for another client’s or an unknown rule, 401 without a session', async () => {
      const ruleId = await makeRule(ctx.database.db, world, { trigger: 'detractor', status: 'archived' }, new Date());
      const archived = await test(ruleId);
      expect(archived.statusCode).toBe(409);
      expect(archived.json().message).toBe('An archived rule cannot be tested: restore it first.');
      const [other] = await ctx.database.db
        .insert(surveyAlertRules)
        .values({ clientId: world.otherClientId, name: 'Theirs', trigger: 'detractor' })
        .returning({ id: surveyAlertRules.id });
      expect((await test(other?.id ?? 0)).statusCode).toBe(404);
      expect((await test(999_999)).statusCode).toBe(404);
      expect((await test(ruleId, {})).statusCode).toBe(401);
    });
  });
}
