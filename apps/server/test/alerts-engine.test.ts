import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { evaluateResponse } from '../src/alerts/evaluate.ts';
import { clientUsers, notificationLogs, surveyAlertEvents, surveyAlertRecipients, surveyAlertRules } from '../src/db/schema/index.ts';
import { alertBed } from './alerts-bed.ts';
import { makeResponse, makeRule } from './alerts-fixture.ts';
import { testDatabaseKinds } from './helpers.ts';

const START = new Date('2026-03-02T15:00:00Z');
const MINUTE = 60_000;

for (const kind of testDatabaseKinds()) {
  describe(`Alert engine: evaluation (${kind})`, () => {
    const bed = alertBed(kind, START);
    const { clock } = bed;
    let n = 0;

    /** A rule made a minute ago, paused at once after the test so rules never see each other's responses. */
    const rule = async (input: Parameters<typeof makeRule>[2]) => {
      clock.advance(MINUTE);
      return makeRule(bed.database.db, bed.world, { extraEmails: [`extra${++n}@alert.test`], ...input }, clock.now());
    };
    const pause = (id: number) => bed.database.db.update(surveyAlertRules).set({ status: 'paused' }).where(eq(surveyAlertRules.id, id));
    /** A response stored now, its jobs run (the job `evaluate-alerts` and the delivery loop). */
    const respond = async (input: Parameters<typeof makeResponse>[2]) => {
      clock.advance(MINUTE);
      const id = await makeResponse(bed.database.db, bed.world, input, clock.now());
      await bed.app.jobs.runDue();
      return id;
    };
    const eventsOf = (ruleId: number, responseId?: number) =>
      bed.database.db
        .select()
        .from(surveyAlertEvents)
        .where(
          and(eq(surveyAlertEvents.ruleId, ruleId), responseId === undefined ? undefined : eq(surveyAlertEvents.responseId, responseId)),
        );
    const fired = async (ruleId: number, input: Parameters<typeof makeResponse>[2]) =>
      (await eventsOf(ruleId, await respond(input))).length > 0;

    it('score_at_or_below fires at and under its score, not above', async () => {
      const id = await rule({ trigger: 'score_at_or_below', scoreMax: 4 });
      expect(await fired(id, { score: 4 })).toBe(true);
      expect(await fired(id, { score: 0 })).toBe(true);
      expect(await fired(id, { score: 5 })).toBe(false);
      expect(await fired(id, { score: null, comment: 'no score given' })).toBe(false);
      await pause(id);
    });

    it('score_between fires inside its bounds only', async () => {
      const id = await rule({ trigger: 'score_between', scoreMin: 5, scoreMax: 6 });
      expect(await fired(id, { score: 5 })).toBe(true);
      expect(await fired(id, { score: 6 })).toBe(true);
      expect(await fired(id, { score: 4 })).toBe(false);
      expect(await fired(id, { score: 7 })).toBe(false);
      await pause(id);
    });

    it('detractor fires on 0–6 only', async () => {
      const id = await rule({ trigger: 'detractor' });
      expect(await fired(id, { score: 6 })).toBe(true);
      expect(await fired(id, { score: 7 })).toBe(false);
      await pause(id);
    });

    it('keyword matches whole words, ignoring case and accents, in the comment or any text answer', async () => {
      const id = await rule({ trigger: 'keyword', keywords: ['rude', 'cafe froid'] });
      expect(await fired(id, { score: 10, comment: 'The waiter was RUDE!' })).toBe(true);
      expect(await fired(id, { score: 10, comment: 'Fine', more: 'Un Café  froid'.replace('  ', ' ') })).toBe(true);
      expect(await fired(id, { score: 2, comment: 'A prudent choice, rudeness aside' })).toBe(false);
      await pause(id);
    });

    it('any_comment fires on any text answer, never on an empty one', async () => {
      const id = await rule({ trigger: 'any_comment' });
      expect(await fired(id, { score: 9, more: 'Thanks' })).toBe(true);
      expect(await fired(id, { score: 9 })).toBe(false);
      await pause(id);
    });

    it('matches surveys and locations (empty = all), and only responses submitted after the rule was made', async () => {
      const id = await rule({ trigger: 'detractor', surveyIds: [bed.world.surveyId], locationIds: [bed.world.locationId] });
      expect(await fired(id, { score: 1 })).toBe(true);
      expect(await fired(id, { score: 1, surveyId: bed.world.otherSurveyId })).toBe(false);
      expect(await fired(id, { score: 1, locationId: bed.world.otherLocationId })).toBe(false);
      clock.advance(MINUTE);
      const early = await makeResponse(bed.database.db, bed.world, { score: 1 }, new Date(clock.now().getTime() - 60 * MINUTE));
      await bed.app.jobs.runDue();
      expect(await eventsOf(id, early)).toHaveLength(0);
      await pause(id);
    });

    it('never alerts on a test response, an excluded one, or for a paused rule', async () => {
      const id = await rule({ trigger: 'detractor' });
      expect(await fired(id, { score: 0, test: true })).toBe(false);
      expect(await fired(id, { score: 0, excluded: true })).toBe(false);
      await pause(id);
      expect(await fired(id, { score: 0 })).toBe(false);
    });

    it('reaches active users on the channels each accepts, extra addresses, the personnel named and the location manager', async () => {
      const id = await rule({
        trigger: 'detractor',
        channels: ['email', 'sms'],
        extraEmails: ['Extra@Alert.test', 'extra@alert.test'],
        extraPhones: ['+13125550199'],
        notifyAssignedPersonnel: true,
        notifyLocationManager: true,
        userIds: [bed.world.ann, bed.world.bob, bed.world.cat, 1000],
      });
      const responseId = await respond({ score: 2, personnel: true });
      const got = (await eventsOf(id, responseId)).map((e) => `${e.channel}:${e.recipient}`).sort();
      expect(got).toEqual(
        [
          `email:ann-${kind}@alert.test`,
          'sms:+13125550102',
          `email:cat-${kind}@alert.test`,
          'email:extra@alert.test',
          'sms:+13125550199',
          `email:pete-${kind}@alert.test`,
          'sms:+13125550105',
          `email:mgr-${kind}@alert.test`,
          'sms:+13125550101',
        ].sort(),
      );
      await pause(id);
    });

    it('a rule that reaches nobody records one unsent event with reason no_recipients', async () => {
      const id = await rule({ trigger: 'detractor', extraEmails: [], userIds: [bed.world.bob] });
      const responseId = await respond({ score: 1 });
      const events = await eventsOf(id, responseId);
      expect(events.map((e) => ({ recipient: e.recipient, state: e.state, reason: e.reason }))).toEqual([
        { recipient: '', state: 'unsent', reason: 'no_recipients' },
      ]);
      await pause(id);
    });

    it('an instant alert is sent at once, a Tracking Logs row of type survey_alert with the facts and both links', async () => {
      const id = await rule({ trigger: 'detractor', extraEmails: [], userIds: [bed.world.ann] });
      const responseId = await respond({ score: 3, comment: 'Cold food' });
      const [event] = await eventsOf(id, responseId);
      expect(event?.state).toBe('sent');
      expect(event?.attempts).toBe(1);
      expect(event?.ackTokenHash).toMatch(/^[0-9a-f]{64}$/);
      const [log] = await bed.database.db
        .select()
        .from(notificationLogs)
        .where(eq(notificationLogs.id, event?.notificationId ?? 0));
      expect(log).toMatchObject({
        type: 'survey_alert',
        status: 'sent',
        recipient: `ann-${kind}@alert.test`,
        clientId: bed.world.clientId,
      });
      expect(log?.subjectOrTemplate).toBe(`Survey alert: score 3 at Alert Co ${kind}, Downtown`);
      expect(log?.bodyText).toContain('Comment: Cold food');
      expect(log?.bodyText).toContain('Customer: Dana (dana@customer.test, +13125559999)');
      expect(log?.bodyText).toMatch(/Acknowledge this alert: http\S+\/a\/[\w-]{32}/);
      expect(log?.bodyText).toContain(`/admin/survey-manager?survey=${bed.world.surveyId}`);
      await pause(id);
    });

    it('runs twice, alerts once', async () => {
      const id = await rule({ trigger: 'detractor', userIds: [bed.world.ann, bed.world.cat] });
      const responseId = await respond({ score: 0 });
      const first = await eventsOf(id, responseId);
      expect(first).toHaveLength(3);
      expect(await evaluateResponse(bed.database.db, responseId, clock.now())).toBe(0);
      await bed.app.jobs.enqueue('evaluate-alerts', { responseId });
      await bed.app.jobs.runDue();
      expect(await eventsOf(id, responseId)).toHaveLength(3);
      const ids = first.map((e) => String(e.id));
      const logs = await bed.database.db.select().from(notificationLogs).where(inArray(notificationLogs.relatedId, ids));
      expect(logs).toHaveLength(3);
      await pause(id);
    });

    it('an inactive client user and id 1000 are never recipients, however the rule lists them', async () => {
      await bed.database.db.update(clientUsers).set({ status: 'inactive' }).where(eq(clientUsers.userId, bed.world.cat));
      const id = await rule({ trigger: 'detractor', extraEmails: [], userIds: [bed.world.cat, 1000] });
      const responseId = await respond({ score: 0 });
      expect((await eventsOf(id, responseId)).map((e) => e.reason)).toEqual(['no_recipients']);
      const listed = await bed.database.db.select().from(surveyAlertRecipients).where(eq(surveyAlertRecipients.ruleId, id));
      expect(listed).toHaveLength(2);
      await bed.database.db.update(clientUsers).set({ status: 'active' }).where(eq(clientUsers.userId, bed.world.cat));
      await pause(id);
    });
  });
}
