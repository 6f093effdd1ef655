import { and, eq, inArray, isNotNull, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notificationLogs, surveyAlertDigests, surveyAlertEvents, surveyAlertRules } from '../src/db/schema/index.ts';
import { alertBed } from './alerts-bed.ts';
import { makeInvitation, makeResponse, makeRule } from './alerts-fixture.ts';
import { testDatabaseKinds } from './helpers.ts';

/** Monday 2 March 2026, 09:00 in Chicago (UTC−6). */
const START = new Date('2026-03-02T15:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

for (const kind of testDatabaseKinds()) {
  describe(`Alert engine: digests, escalation, unanswered invitations (${kind})`, () => {
    const bed = alertBed(kind, START);
    const { clock } = bed;

    const onlyRule = async (input: Parameters<typeof makeRule>[2]) => {
      await bed.database.db.update(surveyAlertRules).set({ status: 'archived' }).where(eq(surveyAlertRules.clientId, bed.world.clientId));
      return makeRule(bed.database.db, bed.world, input, clock.now());
    };
    const logsTo = (to: string) => bed.database.db.select().from(notificationLogs).where(eq(notificationLogs.recipient, to));
    const at = async (iso: string) => {
      clock.set(new Date(iso));
      await bed.app.jobs.runDue();
    };

    it('a daily digest sends one message per recipient and channel at its hour in the client zone, then nothing more that day', async () => {
      clock.set(START);
      const to = `digest-${kind}@alert.test`;
      const ruleId = await onlyRule({
        trigger: 'detractor',
        frequency: 'daily_digest',
        digestHour: 17,
        channels: ['email', 'sms'],
        extraEmails: [to],
        extraPhones: ['+13125550166'],
      });
      clock.advance(MINUTE);
      await makeResponse(bed.database.db, bed.world, { score: 1, comment: 'Slow' }, clock.now());
      clock.advance(MINUTE);
      await makeResponse(bed.database.db, bed.world, { score: 2, comment: 'Cold' }, clock.now());
      await bed.app.jobs.runDue();
      expect(await logsTo(to)).toHaveLength(0);
      await at('2026-03-02T22:59:59Z'); // 16:59:59 in Chicago
      expect(await logsTo(to)).toHaveLength(0);
      await at('2026-03-02T23:00:00Z'); // 17:00 in Chicago
      const mails = await logsTo(to);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subjectOrTemplate).toBe(`Survey alerts digest: 2 responses at Alert Co ${kind}`);
      expect(mails[0]?.bodyText).toContain('score 1 · Dana: “Slow”');
      expect(mails[0]?.bodyText).toContain('score 2 · Dana: “Cold”');
      expect(await logsTo('+13125550166')).toHaveLength(1);
      const digests = await bed.database.db.select().from(surveyAlertDigests).where(eq(surveyAlertDigests.ruleId, ruleId));
      expect(digests.map((d) => d.periodStart.toISOString())).toEqual(['2026-03-02T23:00:00.000Z', '2026-03-02T23:00:00.000Z']);
      const events = await bed.database.db.select().from(surveyAlertEvents).where(eq(surveyAlertEvents.ruleId, ruleId));
      expect(new Set(events.map((e) => e.state))).toEqual(new Set(['sent']));
      // A response after the hour waits for the next day's digest.
      clock.advance(MINUTE);
      await makeResponse(bed.database.db, bed.world, { score: 3 }, clock.now());
      await at('2026-03-03T05:00:00Z');
      expect(await logsTo(to)).toHaveLength(1);
      await at('2026-03-03T23:00:00Z');
      expect(await logsTo(to)).toHaveLength(2);
    });

    it('a digest whose claim was left unsent (its worker died) goes out 10 minutes later, never lost; a fresh claim is left alone', async () => {
      clock.set(new Date('2026-03-16T15:00:00Z')); // Monday, 10:00 in Chicago (UTC−5)
      const to = `claimed-${kind}@alert.test`;
      const ruleId = await onlyRule({ trigger: 'detractor', frequency: 'daily_digest', digestHour: 17, extraEmails: [to] });
      clock.advance(MINUTE);
      await makeResponse(bed.database.db, bed.world, { score: 1, comment: 'Lost?' }, clock.now());
      await bed.app.jobs.runDue();
      // A worker claimed the 17:00 digest, then died before sending it.
      const period = new Date('2026-03-16T22:00:00Z');
      await bed.database.db
        .insert(surveyAlertDigests)
        .values({ ruleId, channel: 'email', recipient: to, periodStart: period, createdAt: period });
      await at('2026-03-16T22:05:00Z');
      expect(await logsTo(to)).toHaveLength(0);
      await at('2026-03-16T22:11:00Z');
      const mails = await logsTo(to);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.bodyText).toContain('“Lost?”');
      await at('2026-03-16T22:30:00Z');
      expect(await logsTo(to)).toHaveLength(1);
    });

    it('an alert nobody acknowledges within escalate_after_hours goes to the escalation addresses once; an acknowledged one never does', async () => {
      clock.set(new Date('2026-03-05T15:00:00Z'));
      const boss = `boss-${kind}@alert.test`;
      const ruleId = await onlyRule({
        trigger: 'detractor',
        extraEmails: [`front-${kind}@alert.test`],
        escalateAfterHours: 2,
        escalationEmails: [boss],
      });
      clock.advance(MINUTE);
      const ignored = await makeResponse(bed.database.db, bed.world, { score: 0 }, clock.now());
      const handled = await makeResponse(bed.database.db, bed.world, { score: 1 }, clock.now());
      await bed.app.jobs.runDue();
      const sentAt = clock.now().getTime();
      await bed.database.db
        .update(surveyAlertEvents)
        .set({ acknowledgedAt: clock.now() })
        .where(and(eq(surveyAlertEvents.ruleId, ruleId), eq(surveyAlertEvents.responseId, handled)));
      clock.set(new Date(sentAt + 2 * HOUR - 1000));
      await bed.app.jobs.runDue();
      expect(await logsTo(boss)).toHaveLength(0);
      clock.set(new Date(sentAt + 2 * HOUR));
      await bed.app.jobs.runDue();
      clock.advance(HOUR);
      await bed.app.jobs.runDue();
      const escalations = await logsTo(boss);
      expect(escalations).toHaveLength(1);
      expect(escalations[0]?.subjectOrTemplate).toBe(`Escalated survey alert: not acknowledged in 2 h at Alert Co ${kind}`);
      const [ignoredEvent] = await bed.database.db.select().from(surveyAlertEvents).where(eq(surveyAlertEvents.responseId, ignored));
      expect(ignoredEvent?.escalatedAt?.getTime()).toBe(sentAt + 2 * HOUR);
      const [handledEvent] = await bed.database.db.select().from(surveyAlertEvents).where(eq(surveyAlertEvents.responseId, handled));
      expect(handledEvent?.escalatedAt).toBeNull();
    });

    it('an escalation due more than a week ago (the workers were stopped) is not sent late; one due within the week is', async () => {
      clock.set(new Date('2026-03-20T15:00:00Z'));
      const boss = `late-boss-${kind}@alert.test`;
      await onlyRule({ trigger: 'detractor', extraEmails: [`late-${kind}@alert.test`], escalateAfterHours: 1, escalationEmails: [boss] });
      clock.advance(MINUTE);
      const stale = await makeResponse(bed.database.db, bed.world, { score: 0 }, clock.now());
      await bed.app.jobs.runDue();
      // The workers stop, and start again a week and a minute after its escalation fell due.
      clock.set(new Date(clock.now().getTime() + HOUR + 7 * DAY + MINUTE));
      await bed.app.jobs.runDue();
      const recent = await makeResponse(bed.database.db, bed.world, { score: 0 }, clock.now());
      await bed.app.jobs.runDue();
      // Stopped again; back six days after the second one's escalation fell due.
      clock.set(new Date(clock.now().getTime() + HOUR + 6 * DAY));
      await bed.app.jobs.runDue();
      const escalated = await bed.database.db.select().from(surveyAlertEvents).where(isNotNull(surveyAlertEvents.escalatedAt));
      const ids = escalated.map((e) => e.responseId);
      expect(ids).toContain(recent);
      expect(ids).not.toContain(stale);
      expect(await logsTo(boss)).toHaveLength(1);
    });

    it('no_response_days alerts once per invitation still unanswered N days after it was sent', async () => {
      clock.set(new Date('2026-03-10T15:00:00Z'));
      const to = `quiet-${kind}@alert.test`;
      const ruleId = await onlyRule({ trigger: 'no_response_days', noResponseDays: 3, extraEmails: [to] });
      clock.advance(MINUTE);
      const silent = await makeInvitation(bed.database.db, bed.world, {}, clock.now());
      const answered = await makeResponse(bed.database.db, bed.world, { score: 10 }, clock.now());
      const sentAt = clock.now().getTime();
      clock.set(new Date(sentAt + 3 * DAY - HOUR));
      await bed.app.jobs.runDue();
      expect(await bed.database.db.select().from(surveyAlertEvents).where(eq(surveyAlertEvents.ruleId, ruleId))).toHaveLength(0);
      clock.set(new Date(sentAt + 3 * DAY));
      await bed.app.jobs.runDue();
      clock.advance(2 * HOUR);
      await bed.app.jobs.runDue();
      const events = await bed.database.db.select().from(surveyAlertEvents).where(eq(surveyAlertEvents.ruleId, ruleId));
      expect(events.map((e) => ({ item: e.processingItemId, response: e.responseId, state: e.state }))).toEqual([
        { item: silent, response: null, state: 'sent' },
      ]);
      expect(answered).toBeGreaterThan(0);
      const mails = await bed.database.db
        .select()
        .from(notificationLogs)
        .where(and(inArray(notificationLogs.recipient, [to]), like(notificationLogs.subjectOrTemplate, '%no response after 3 days%')));
      expect(mails).toHaveLength(1);
    });
  });
}
