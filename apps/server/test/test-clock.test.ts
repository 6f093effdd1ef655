import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { notificationLogs, surveyProcessingItems } from '../src/db/schema/index.ts';
import { admitRows } from '../src/pipeline/admit.ts';
import { bearer, login, normalRow, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const HOUR = 3_600_000;

for (const kind of testDatabaseKinds()) {
  describe(`Test clock (${kind})`, () => {
    let on: TestContext;
    let off: TestContext;
    let auth: Record<string, string>;

    beforeAll(async () => {
      [on, off] = await Promise.all([startTestApp(kind, { clockControl: true }), startTestApp(kind)]);
      auth = bearer(await login(on.app, 'admin@example.com'));
    });
    afterAll(async () => {
      await Promise.all([on?.close(), off?.close()]);
    });

    it('does not exist unless CLOCK_CONTROL is on', async () => {
      const token = await login(off.app, 'admin@example.com');
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const res = await off.app.inject({
          method,
          url: '/api/test-clock',
          headers: bearer(token),
          payload: method === 'PUT' ? { now: new Date().toISOString() } : undefined,
        });
        expect(res.statusCode, method).toBe(404);
      }
    });

    it('needs a signed-in administrator', async () => {
      const res = await on.app.inject({ method: 'PUT', url: '/api/test-clock', payload: { now: new Date().toISOString() } });
      expect(res.statusCode).toBe(401);
    });

    it('refuses a time that is not one, or more than a year away, naming the field', async () => {
      const bad = await on.app.inject({ method: 'PUT', url: '/api/test-clock', headers: auth, payload: { now: 'tomorrow' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors.now[0]).toMatch(/^The Now field/);
      const far = await on.app.inject({
        method: 'PUT',
        url: '/api/test-clock',
        headers: auth,
        payload: { now: new Date(Date.now() + 400 * 24 * HOUR).toISOString() },
      });
      expect(far.statusCode).toBe(422);
      expect(far.json().errors.now).toEqual(['The Now field must be within a year of the real time']);
    });

    it('moves the pipeline clock: an invitation scheduled later is sent at once, with the moved time, then the clock goes back', async () => {
      const db = on.database.db;
      // An active e-mail survey of an active client, and one of its active locations.
      const [target] = rowsOf(
        await db.execute(sql`
          select s.id as survey_id, s.client_id, l._id as location_id from surveys s
          join clients c on c.id = s.client_id and c.status = 'active'
          join locations l on l.client_id = s.client_id and l.status = 'active'
          where s.status = 'active' and s.channel = 'email' order by s.id limit 1`),
      );
      if (!target) throw new Error('the demo data has no active e-mail survey');
      const now = on.app.clock.now();
      const [outcome] = await db.transaction((tx) =>
        admitRows(
          tx,
          { clientId: Number(target.client_id), surveyId: Number(target.survey_id), dataFeedId: null, runId: null, source: 'api' },
          [
            normalRow({
              rowNumber: 1,
              firstName: 'Clocky',
              email: `clock-${kind}@example.com`,
              transactionId: `CLOCK-${kind}`,
              transactionDate: now.toISOString().slice(0, 10),
              locationId: String(target.location_id),
            }),
          ],
          now,
        ),
      );
      expect(outcome?.status).toBe('scheduled');
      const at = outcome?.scheduledAt ?? now;
      expect(at.getTime()).toBeGreaterThan(now.getTime());

      const moved = await on.app.inject({
        method: 'PUT',
        url: '/api/test-clock',
        headers: auth,
        payload: { now: new Date(at.getTime() + 60_000).toISOString() },
      });
      expect(moved.statusCode).toBe(200);
      const clock = moved.json().data;
      expect(clock.offset_ms).toBeGreaterThan(0);
      expect(new Date(clock.now).getTime()).toBeGreaterThanOrEqual(at.getTime());

      const [item] = await db
        .select()
        .from(surveyProcessingItems)
        .where(eq(surveyProcessingItems.id, outcome?.itemId ?? 0));
      expect(item?.status).toBe('sent');
      expect(item?.sentAt?.getTime()).toBeGreaterThanOrEqual(at.getTime());
      const messages = await db
        .select({ status: notificationLogs.status, createdAt: notificationLogs.createdAt })
        .from(notificationLogs)
        .where(and(eq(notificationLogs.relatedType, 'survey_processing_item'), eq(notificationLogs.relatedId, String(outcome?.itemId))));
      expect(messages.map((m) => m.status)).toEqual(['sent']);
      expect(messages[0]?.createdAt.getTime()).toBeGreaterThanOrEqual(at.getTime());

      const back = await on.app.inject({ method: 'DELETE', url: '/api/test-clock', headers: auth });
      expect(back.json().data.offset_ms).toBe(0);
      expect(Math.abs(on.app.clock.now().getTime() - Date.now())).toBeLessThan(5_000);
    });
  });
}
