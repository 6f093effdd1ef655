import { MAX_REVIEWS_PER_BATCH } from '@admin/shared';
import { and, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { clientUsers, locations, reviews, systemLogs } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * `POST /api/v1/reviews` (issue 21, item 1 and "Bad input and limits"): the Google Business Profile
 * shape in, an answer per review, idempotent on site + review id, later copies overwrite, refusals
 * per item naming the field, the review jobs enqueued for what was written.
 */
for (const kind of testDatabaseKinds()) {
  describe(`POST /api/v1/reviews (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let token: string;
    let otherToken: string;
    let locationId: string;
    let otherLocationId: string;
    let clientId: number;
    const post = (payload: unknown, t = token) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/reviews',
        remoteAddress: '127.0.0.1',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${t}` },
        payload: JSON.stringify(payload),
      });
    /** Times from one instant, so the same review sent twice is the same copy. */
    let start = 0;
    const ago = (days: number) => new Date(start - days * 86_400_000).toISOString();
    const review = (id: string, extra: Record<string, unknown> = {}) => ({
      name: `accounts/1/locations/2/reviews/${id}`,
      reviewId: id,
      locationId,
      reviewer: { displayName: 'Dana Whitfield' },
      starRating: 'FIVE',
      comment: 'Quick and friendly service.',
      createTime: ago(2),
      updateTime: ago(2),
      ...extra,
    });
    const jobsFor = async (reviewId: number) =>
      rowsOf(
        await ctx.database.db.execute(
          sql`select queue, status from jobs where payload->>'reviewId' = ${String(reviewId)} order by queue, id`,
        ),
      );
    const tokenFor = async (userId: number) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/api-token',
        headers,
        payload: { user_id: userId, name: 'Reviews', scopes: ['reviews:write'] },
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { data: { token: string } }).data.token;
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      start = ctx.app.clock.now().getTime();
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const db = ctx.database.db;
      const [location] = await db.select().from(locations).limit(1);
      locationId = location?.id ?? '';
      clientId = location?.clientId ?? 0;
      const [other] = await db.select().from(locations).where(ne(locations.clientId, clientId)).limit(1);
      otherLocationId = other?.id ?? '';
      const [own] = await db.select().from(clientUsers).where(eq(clientUsers.clientId, clientId)).limit(1);
      const [foreign] = await db
        .select()
        .from(clientUsers)
        .where(eq(clientUsers.clientId, other?.clientId ?? 0))
        .limit(1);
      token = await tokenFor(own?.userId ?? 0);
      otherToken = await tokenFor(foreign?.userId ?? 0);
    });
    afterAll(() => ctx.close());

    it('creates, then answers unchanged, then updates with a reply; one row; the review jobs follow each write', async () => {
      const first = await post({ reviews: [review(`R1-${kind}`)] });
      expect(first.statusCode, first.body).toBe(200);
      const [answer] = first.json().data.reviews;
      expect(answer).toMatchObject({ index: 0, externalId: `R1-${kind}`, outcome: 'created', errors: {} });
      const [row] = await ctx.database.db
        .select()
        .from(reviews)
        .where(eq(reviews.externalId, `R1-${kind}`));
      expect(row).toMatchObject({ clientId, locationId, site: 'google', authorName: 'Dana Whitfield', rating: 5, source: 'api' });
      expect(await jobsFor(answer.id)).toEqual([
        { queue: 'evaluate-review-alerts', status: 'pending' },
        { queue: 'match-review', status: 'pending' },
      ]);

      const again = await post({ reviews: [review(`R1-${kind}`)] });
      expect(again.json().data.reviews[0]).toMatchObject({ outcome: 'unchanged', id: answer.id });
      expect(await jobsFor(answer.id)).toHaveLength(2);

      // The first jobs ran; an update with a reply enqueues them again.
      await ctx.database.db.execute(sql`update jobs set status = 'done' where payload->>'reviewId' = ${String(answer.id)}`);
      const reply = { comment: 'Thank you, Dana!', updateTime: ago(1) };
      const updated = await post({ reviews: [review(`R1-${kind}`, { starRating: 'FOUR', updateTime: ago(1), reviewReply: reply })] });
      expect(updated.json().data).toMatchObject({ counts: { created: 0, updated: 1, unchanged: 0, refused: 0 } });
      const rows = await ctx.database.db
        .select()
        .from(reviews)
        .where(eq(reviews.externalId, `R1-${kind}`));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ rating: 4, replyText: 'Thank you, Dana!' });
      expect((await jobsFor(answer.id)).filter((j) => j.status === 'pending')).toHaveLength(2);

      // An older copy (a pull lagging behind) never overwrites the newer one.
      const older = await post({ reviews: [review(`R1-${kind}`, { starRating: 'ONE', updateTime: ago(2) })] });
      expect(older.json().data.reviews[0].outcome).toBe('unchanged');
      const [kept] = await ctx.database.db
        .select()
        .from(reviews)
        .where(eq(reviews.externalId, `R1-${kind}`));
      expect(kept?.rating).toBe(4);
      const [audit] = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'reviews.ingest'), eq(systemLogs.clientId, clientId)));
      expect(audit?.message).toContain('1 new');
    });

    it('refuses bad items one by one, naming the field, and writes the good ones', async () => {
      const future = new Date(ctx.app.clock.now().getTime() + 3_600_000).toISOString();
      const res = await post({
        reviews: [
          review(`B0-${kind}`),
          review(`B1-${kind}`, { starRating: '6' }),
          review(`B2-${kind}`, { createTime: future }),
          review(`B3-${kind}`, { locationId: otherLocationId }),
          review(`B4-${kind}`, { site: 'facebook', starRating: null }),
          review(`B5-${kind}`, { site: 'facebook', starRating: null, recommend: true }),
          review(`B6-${kind}`, { recommend: false }),
          review(`B0-${kind}`),
          'not a review',
          review(`B10-${kind}`, { site: 'facebook', recommend: true }),
          review(`B11-${kind}`, { site: 'myspace' }),
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      const answers = res.json().data.reviews as { outcome: string; errors: Record<string, string[]> }[];
      expect(answers.map((a) => a.outcome)).toEqual([
        'created',
        'refused',
        'refused',
        'refused',
        'refused',
        'created',
        'refused',
        'refused',
        'refused',
        'refused',
        'refused',
      ]);
      expect(answers[1]?.errors.starRating?.[0]).toMatch(/^The Star rating field must be a whole number from 1 to 5/);
      expect(answers[2]?.errors.createTime).toEqual(['The Created field cannot be in the future']);
      expect(answers[3]?.errors.locationId).toEqual(["The Location field must name one of this client's locations"]);
      expect(answers[4]?.errors.recommend).toEqual(['The Recommend field is required for Facebook reviews']);
      expect(answers[6]?.errors.recommend?.[0]).toContain('applies to Facebook only');
      expect(answers[7]?.errors.reviewId?.[0]).toContain('repeats review 1');
      expect(answers[8]?.errors.review).toBeDefined();
      expect(answers[9]?.errors.starRating?.[0]).toBe('The Star rating field does not apply to Facebook: use Recommend');
      expect(answers[10]?.errors.site?.[0]).toMatch(/^The Site field must be one of/);
      const stored = await ctx.database.db
        .select({ id: reviews.externalId })
        .from(reviews)
        .where(sql`${reviews.externalId} like ${`B%-${kind}`}`);
      expect(stored.map((r) => r.id).sort()).toEqual([`B0-${kind}`, `B5-${kind}`]);
      const [facebook] = await ctx.database.db
        .select()
        .from(reviews)
        .where(eq(reviews.externalId, `B5-${kind}`));
      expect(facebook).toMatchObject({ rating: null, recommend: true, sentiment: 'positive' });
    });

    it("keeps each client's copy of a site's review apart: another client's same site id neither touches nor blocks it", async () => {
      const mine = await post({ reviews: [review(`X1-${kind}`)] });
      expect(mine.json().data.reviews[0].outcome).toBe('created');
      // Review ids are public: another client sending the same one gets its own copy, and ours is untouched.
      const theirs = await post(
        { reviews: [review(`X1-${kind}`, { locationId: otherLocationId, starRating: 'ONE', updateTime: ago(0) })] },
        otherToken,
      );
      expect(theirs.json().data.reviews[0]).toMatchObject({ outcome: 'created' });
      const rows = await ctx.database.db
        .select()
        .from(reviews)
        .where(eq(reviews.externalId, `X1-${kind}`));
      expect(rows.find((r) => r.locationId === locationId)).toMatchObject({ rating: 5 });
      expect(rows.find((r) => r.locationId === otherLocationId)).toMatchObject({ rating: 1 });
      expect(rows).toHaveLength(2);
      // Ours, sent again, is still ours and unchanged.
      expect((await post({ reviews: [review(`X1-${kind}`)] })).json().data.reviews[0].outcome).toBe('unchanged');
    });

    it('refuses a batch over the limit naming the Reviews field, an empty one, a console session and a missing token', async () => {
      const many = Array.from({ length: MAX_REVIEWS_PER_BATCH + 1 }, (_, i) => review(`M${i}-${kind}`));
      const over = await post({ reviews: many });
      expect(over.statusCode).toBe(413);
      expect(over.json().errors.reviews[0]).toContain('The Reviews field');
      expect(
        await ctx.database.db
          .select()
          .from(reviews)
          .where(eq(reviews.externalId, `M0-${kind}`)),
      ).toHaveLength(0);
      const empty = await post({ reviews: [] });
      expect(empty.statusCode).toBe(422);
      expect(empty.json().errors.reviews).toBeDefined();
      const notArray = await post({ reviews: 'all of them' });
      expect([400, 422]).toContain(notArray.statusCode);
      const session = await ctx.app.inject({ method: 'POST', url: '/api/v1/reviews', headers, payload: { reviews: [review('S1')] } });
      expect(session.statusCode).toBe(401);
      const none = await ctx.app.inject({ method: 'POST', url: '/api/v1/reviews', payload: { reviews: [review('S2')] } });
      expect(none.statusCode).toBe(401);
    });

    it('takes a full batch of 1,000 in one call', async () => {
      const batch = Array.from({ length: MAX_REVIEWS_PER_BATCH }, (_, i) =>
        review(`F${i}-${kind}`, { comment: 'x'.repeat(2000), reviewer: { displayName: `Reviewer ${i}` } }),
      );
      const res = await post({ reviews: batch });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      expect(res.json().data.counts.created).toBe(MAX_REVIEWS_PER_BATCH);
    });
  });
}
