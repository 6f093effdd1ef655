import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locations, reviews, systemLogs } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * The Reputation Panel's review import (issue 21, item 1): a dry run that answers line by line and
 * keeps nothing, then Import with the same answer; locations by id, name or external code; a
 * broken quote is a 422 naming the line; another client's location is refused on its line.
 */
for (const kind of testDatabaseKinds()) {
  describe(`POST /api/reviews/import (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    let location: { id: string; name: string };
    let otherLocationId: string;
    const send = (csv: string, dryRun: boolean) =>
      ctx.app.inject({ method: 'POST', url: '/api/reviews/import', headers, payload: { csv, dry_run: dryRun } });
    const stored = async (prefix: string) =>
      ctx.database.db
        .select()
        .from(reviews)
        .where(sql`${reviews.externalId} like ${`${prefix}%`}`)
        .orderBy(reviews.externalId);

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      clientId = (await ctx.app.inject({ method: 'GET', url: '/api/user', headers })).json().data.user.current_client_id;
      const [own] = await ctx.database.db.select().from(locations).where(eq(locations.clientId, clientId)).limit(1);
      location = { id: own?.id ?? '', name: own?.locationname ?? '' };
      const [other] = await ctx.database.db.select().from(locations).where(sql`${locations.clientId} <> ${clientId}`).limit(1);
      otherLocationId = other?.id ?? '';
    });
    afterAll(() => ctx.close());

    it('dry run answers per line and keeps nothing; Import writes the accepted lines with the same outcomes', async () => {
      const csv = [
        'review_id,site,location,reviewer,rating,recommend,comment,created,reply,replied',
        `C1,google,${location.id},Dana Whitfield,5,,Great,2026-01-05T10:00:00Z,"Thanks, Dana",2026-01-06T10:00:00Z`,
        `C2,facebook,"${location.name}",Lee Park,,yes,"Said ""wow""",2026-01-07T10:00:00Z,,`,
        `C3,google,${location.id},Sam Ortiz,6,,,2026-01-08T10:00:00Z,,`,
        `C4,yelp,${otherLocationId},Ann Ray,2,,,2026-01-08T10:00:00Z,,`,
      ].join('\n');
      const dry = await send(csv, true);
      expect(dry.statusCode, dry.body).toBe(200);
      const answer = dry.json().data;
      expect(answer.counts).toEqual({ created: 2, updated: 0, unchanged: 0, refused: 2 });
      expect(answer.lines.map((l: { line: number; outcome: string }) => [l.line, l.outcome])).toEqual([
        [2, 'created'],
        [3, 'created'],
        [4, 'refused'],
        [5, 'refused'],
      ]);
      expect(answer.lines[2].errors.rating[0]).toMatch(/^The Star rating field/);
      expect(answer.lines[3].errors.location[0]).toBe("The Location field must name one of this client's locations");
      expect(await stored('C')).toHaveLength(0);

      const real = await send(csv, false);
      expect(real.json().data.counts).toEqual(answer.counts);
      const rows = await stored('C');
      expect(rows.map((r) => [r.externalId, r.site, r.rating, r.recommend, r.source])).toEqual([
        ['C1', 'google', 5, null, 'csv'],
        ['C2', 'facebook', null, true, 'csv'],
      ]);
      expect(rows[0]?.replyText).toBe('Thanks, Dana');
      expect(rows[1]?.text).toBe('Said "wow"');
      const [audit] = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'reviews.import'), eq(systemLogs.clientId, clientId)));
      expect(audit?.message).toContain('2 new');
      const again = await send(csv, true);
      expect(again.json().data.counts).toEqual({ created: 0, updated: 0, unchanged: 2, refused: 2 });
    });

    it('a broken quote is a 422 naming the line; unknown columns and an empty file are refused naming the CSV file', async () => {
      const broken = await send(
        `review_id,location,rating,created\nQ1,${location.id},5,2026-01-01T00:00:00Z\nQ2,"${location.id},5,2026-01-01T00:00:00Z\n`,
        true,
      );
      expect(broken.statusCode).toBe(422);
      expect(broken.json().errors.csv[0]).toMatch(/^Line 3/);
      const unknown = await send('review_id,stars\nX,5\n', true);
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().errors.csv[0]).toContain('Unknown columns: stars');
      const empty = await send('review_id\n', false);
      expect(empty.statusCode).toBe(422);
      const missing = await ctx.app.inject({ method: 'POST', url: '/api/reviews/import', headers, payload: { csv: 'a' } });
      expect([400, 422]).toContain(missing.statusCode);
      expect(missing.json().message).toContain('Dry run');
      expect(await stored('Q')).toHaveLength(0);
    });

    it('is staff only', async () => {
      const anonymous = await ctx.app.inject({
        method: 'POST',
        url: '/api/reviews/import',
        payload: { csv: 'review_id\nx\n', dry_run: true },
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });
}
