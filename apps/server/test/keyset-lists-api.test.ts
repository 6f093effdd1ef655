import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

// The lists that page with the kit's keysetPage (apps/server/src/kit/keyset-page.ts): walked a few
// rows at a time by their cursors, each answers the rows of one big page, in its order, each once,
// in the default sort and in chosen ones (ascending and descending), on the demo data (with more
// unsent alerts than it has, some made at the same moment, so the id breaks their tie).
const LISTS: { path: string; sorts: string[] }[] = [
  { path: '/api/surveys?client=all', sorts: ['', '&sort=type', '&sort=updated_at&order=desc', '&sort=name&order=desc'] },
  { path: '/api/survey-alert-settings?client=all', sorts: ['', '&sort=trigger', '&sort=status&order=desc'] },
  { path: '/api/data-feeds?client=all', sorts: ['', '&sort=last_received&order=desc', '&sort=source_type'] },
  {
    path: '/api/survey-alerts-unsent-events?state=unsent&state=retrying&state=resent&state=dismissed',
    sorts: ['', '&sort=state&order=asc'],
  },
  { path: '/api/notifications-logs?type=survey_invite', sorts: ['', '&sort=status&order=asc', '&order=asc'] },
];
/** Rows compared per list and sort: one page of the reference, walked `STEP` at a time. */
const WINDOW = 40;
const STEP = 3;

type Page = { data: { id: number }[]; nextCursor?: string | null };

for (const kind of testDatabaseKinds()) {
  describe(`Keyset lists (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    const page = async (url: string): Promise<Page> => {
      const res = await ctx.app.inject({ method: 'GET', url, headers });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
      return res.json();
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      await ctx.database.db.execute(sql`
        insert into survey_alert_events (rule_id, client_id, channel, recipient, state, reason, attempts, created_at)
        select r.id, r.client_id, 'email', 'keyset-' || g || '@example.com', (array['unsent', 'retrying', 'dismissed'])[1 + g % 3],
          'On the suppression list', 1, timestamptz '2026-11-01 12:00:00+00' - (g / 3) * interval '1 minute'
        from (select * from survey_alert_rules order by id limit 1) r, generate_series(1, 11) g`);
    });
    afterAll(async () => {
      await ctx?.close();
    });

    for (const { path, sorts } of LISTS) {
      it(`walks ${path} by its cursors as one page has it`, async () => {
        for (const sort of sorts) {
          const reference = (await page(`${path}${sort}&perPage=${WINDOW}`)).data.map((r) => r.id);
          expect({ path, sort, rows: reference.length > STEP }).toEqual({ path, sort, rows: true });
          const walked: number[] = [];
          let cursor: string | null | undefined;
          do {
            const p = await page(`${path}${sort}&perPage=${STEP}${cursor ? `&cursor=${cursor}` : ''}`);
            walked.push(...p.data.map((r) => r.id));
            cursor = p.nextCursor;
          } while (cursor && walked.length < reference.length);
          expect({ path, sort, ids: walked.slice(0, reference.length) }).toEqual({ path, sort, ids: reference });
        }
      });

      it(`refuses a bad cursor, or one of another sort, on ${path} with a 400 naming it`, async () => {
        const first = await page(`${path}&perPage=1`);
        expect(first.nextCursor).toBeTruthy();
        // The default sort's cursor starts with a text or a time; the other sort's first key is of the other type or count.
        const other = path.includes('notifications') ? 'status' : path.includes('unsent') ? 'state' : 'updated_at';
        for (const url of [`${path}&cursor=bad`, `${path}&sort=${other}&cursor=${first.nextCursor}`]) {
          const res = await ctx.app.inject({ method: 'GET', url, headers });
          expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
          expect(res.json().errors).toHaveProperty('cursor');
        }
      });
    }
  });
}
