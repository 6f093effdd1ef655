import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { evaluateResponse, evaluateResponses } from '../src/alerts/evaluate.ts';
import { jobs, surveyAlertEvents, surveyAlertRules } from '../src/db/schema/index.ts';
import { alertBed } from './alerts-bed.ts';
import { makeResponse, makeRule } from './alerts-fixture.ts';
import { testDatabaseKinds } from './helpers.ts';

const START = new Date('2026-03-02T15:00:00Z');
const MINUTE = 60_000;

/** The alert engine takes the queue's claimed batch of `evaluate-alerts` jobs at once (apps/server/src/alerts/install.ts). */
for (const kind of testDatabaseKinds()) {
  describe(`Alert engine: evaluation in batches (${kind})`, () => {
    const bed = alertBed(kind, START, `batch-${kind}`);
    const { clock } = bed;

    const eventsOf = async (responseIds: number[]) =>
      (await bed.database.db.select().from(surveyAlertEvents).where(inArray(surveyAlertEvents.responseId, responseIds)))
        .map((e) => `${e.responseId} ${e.ruleId} ${e.channel}:${e.recipient} ${e.state} ${e.reason ?? ''}`)
        .sort();
    const pauseAll = (ids: number[]) =>
      bed.database.db.update(surveyAlertRules).set({ status: 'paused' }).where(inArray(surveyAlertRules.id, ids));

    it('a batch of responses gets exactly the events each would get alone', async () => {
      clock.advance(MINUTE);
      const at = clock.now();
      const rules = [
        await makeRule(bed.database.db, bed.world, { trigger: 'detractor', notifyAssignedPersonnel: true, userIds: [bed.world.ann] }, at),
        await makeRule(
          bed.database.db,
          bed.world,
          { trigger: 'keyword', keywords: ['rude', 'dirty'], extraEmails: ['words@alert.test'] },
          at,
        ),
        await makeRule(
          bed.database.db,
          bed.world,
          { trigger: 'keyword', keywords: ['cold coffee'], extraEmails: ['phrase@alert.test'] },
          at,
        ),
        await makeRule(
          bed.database.db,
          bed.world,
          { trigger: 'score_between', scoreMin: 9, scoreMax: 10, notifyLocationManager: true },
          at,
        ),
        await makeRule(bed.database.db, bed.world, { trigger: 'any_comment', extraEmails: [] }, at),
      ];
      clock.advance(MINUTE);
      const inputs = [
        { score: 2, personnel: true },
        { score: 9, comment: 'Great, but the porter was RUDE.' },
        { score: 10, comment: 'Cold  coffee? No: cold coffee, twice' },
        { score: 8, more: 'a prudent choice' },
        { score: 1, test: true },
        { score: 0, comment: 'dirty tables', excluded: true },
      ];
      const ids: number[] = [];
      for (const input of inputs) ids.push(await makeResponse(bed.database.db, bed.world, input, clock.now()));
      // All six jobs wait; one worker pass takes them as one batch.
      expect(await bed.app.jobs.runDue()).toBeGreaterThanOrEqual(ids.length);
      const pending = await bed.database.db.select().from(jobs).where(eq(jobs.queue, 'evaluate-alerts'));
      expect(pending.filter((j) => j.status !== 'done')).toEqual([]);
      const batched = await eventsOf(ids);
      expect(batched.length).toBeGreaterThan(5);

      await bed.database.db.delete(surveyAlertEvents).where(inArray(surveyAlertEvents.responseId, ids));
      for (const id of ids) await evaluateResponse(bed.database.db, id, clock.now());
      const alone = (await eventsOf(ids)).map((e) => e.replace(/ sent | pending /, ' pending '));
      expect(batched.map((e) => e.replace(/ sent | pending /, ' pending '))).toEqual(alone);
      // The keyword rule fired on the whole word only, the phrase rule on its phrase only.
      expect(batched.filter((e) => e.includes('words@alert.test'))).toHaveLength(1);
      expect(batched.filter((e) => e.includes('phrase@alert.test'))).toHaveLength(1);
      await pauseAll(rules);
    });

    it('a rule changed after the rules were read counts from the next batch on', async () => {
      clock.advance(MINUTE);
      const id = await makeRule(
        bed.database.db,
        bed.world,
        { trigger: 'keyword', keywords: ['slow'], extraEmails: ['edit@alert.test'] },
        clock.now(),
      );
      clock.advance(MINUTE);
      const first = await makeResponse(bed.database.db, bed.world, { score: 8, comment: 'noisy room' }, clock.now());
      await bed.app.jobs.runDue();
      expect(await eventsOf([first])).toEqual([]);
      // Changed behind the engine's back (no API call): the rule set's stamp still sees it.
      await bed.database.db
        .update(surveyAlertRules)
        .set({ keywords: ['noisy'] })
        .where(eq(surveyAlertRules.id, id));
      clock.advance(MINUTE);
      const second = await makeResponse(bed.database.db, bed.world, { score: 8, comment: 'noisy room' }, clock.now());
      await bed.app.jobs.runDue();
      expect((await eventsOf([second])).filter((e) => e.includes('edit@alert.test'))).toHaveLength(1);
      await pauseAll([id]);
      clock.advance(MINUTE);
      const third = await makeResponse(bed.database.db, bed.world, { score: 8, comment: 'noisy room' }, clock.now());
      await bed.app.jobs.runDue();
      expect(await eventsOf([third])).toEqual([]);
    });

    it('two workers evaluating the same responses at once write each alert once (the unique index holds it)', async () => {
      const { clock } = bed;
      clock.advance(MINUTE);
      const id = await makeRule(bed.database.db, bed.world, { trigger: 'detractor', extraEmails: ['race@alert.test'] }, clock.now());
      clock.advance(MINUTE);
      const ids: number[] = [];
      for (let i = 0; i < 20; i++) ids.push(await makeResponse(bed.database.db, bed.world, { score: 1 }, clock.now()));
      // On PostgreSQL these run on two connections at the same moment; PGlite runs them one after the other.
      const created = await Promise.all([
        evaluateResponses(bed.database.db, ids, clock.now()),
        evaluateResponses(bed.database.db, ids, clock.now()),
      ]);
      const mine = (await eventsOf(ids)).filter((e) => e.includes('race@alert.test'));
      expect(mine).toHaveLength(ids.length);
      expect(created[0] + created[1]).toBe((await eventsOf(ids)).length);
      await pauseAll([id]);
    });
  });
}
