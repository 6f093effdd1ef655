import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.ts';
import { googleConnections, locations, reviewPullSources, reviews, systemLogs } from '../src/db/schema/index.ts';
import { secretBox } from '../src/pipeline/ingest/secret.ts';
import { createQueue, type Queue } from '../src/pipeline/queue.ts';
import { claimDueSources, pullAndRecord } from '../src/reputation/ingest/google-pull.ts';
import { installReviewPulls } from '../src/reputation/ingest/install.ts';
import { type FakeGoogle, type FakeReview, startFakeGoogle } from './fake-google-business.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * The Google Business Profile review pull (issue 21, item 1) against a local fake of that API:
 * the connection saved with its refresh token encrypted and never read back, a location mapped,
 * the worker's loop pulling every page through a 429, only what is newer on the next pull 24 h
 * later, and a failure kept on the source, the connection and System Logs.
 */
const DAY = 86_400_000;
const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'] as const;

for (const kind of testDatabaseKinds()) {
  describe(`Google review pull (${kind})`, () => {
    let fake: FakeGoogle;
    let ctx: TestContext;
    let headers: Record<string, string>;
    let locationId: string;
    let queue: Queue;
    let t0: number;
    const GOOGLE_LOCATION = 'locations/222';
    const inject = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
      ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const review = (i: number, at: number): FakeReview => ({
      reviewId: `G${i}-${kind}`,
      reviewer: { displayName: `Reviewer ${i}` },
      starRating: STARS[i % 5] ?? 'FIVE',
      comment: `Visit number ${i}`,
      createTime: new Date(at).toISOString(),
      updateTime: new Date(at).toISOString(),
    });
    const reviewCalls = () => fake.requests.filter((r) => r.path.includes('/reviews')).length;

    beforeAll(async () => {
      fake = await startFakeGoogle();
      const base = testConfig();
      ctx = await startTestApp(kind, {
        providers: {
          ...base.providers,
          googleBusiness: { apiUrl: fake.url, tokenUrl: `${fake.url}/token`, clientId: 'client-id', clientSecret: 'client-secret' },
          allowPrivateHosts: true,
        },
      });
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const clientId = (await inject('GET', '/api/user')).json().data.user.current_client_id;
      const [own] = await ctx.database.db.select().from(locations).where(eq(locations.clientId, clientId)).limit(1);
      locationId = own?.id ?? '';
      t0 = ctx.app.clock.now().getTime();
      // 120 reviews over the last 10 days: three pages of 50.
      fake.reviews.set(
        `accounts/111/${GOOGLE_LOCATION}`,
        Array.from({ length: 120 }, (_, i) => review(i, t0 - DAY * 10 + i * 7_000_000)),
      );
      queue = createQueue(ctx.database.db, ctx.app.clock);
      installReviewPulls(queue, ctx.database.db, ctx.app.clock, {
        secrets: secretBox(ctx.config),
        providers: ctx.config.providers,
        backoffMs: 1,
      });
    });
    afterAll(async () => {
      await ctx.close();
      await fake.close();
    });

    it('saves the connection with the refresh token encrypted and never read back; checks its fields', async () => {
      expect((await inject('GET', '/api/reviews/google')).json().data).toEqual({ enabled: true, connection: null });
      const noToken = await inject('PUT', '/api/reviews/google', { account: 'accounts/111' });
      expect(noToken.statusCode).toBe(422);
      expect(noToken.json().errors.refresh_token).toEqual(['The Refresh token field is required']);
      const badAccount = await inject('PUT', '/api/reviews/google', { account: 'me', refresh_token: 'x' });
      expect([400, 422]).toContain(badAccount.statusCode);
      expect(badAccount.json().message).toContain('Account');
      const saved = await inject('PUT', '/api/reviews/google', { account: 'accounts/111', refresh_token: fake.refreshToken });
      expect(saved.statusCode, saved.body).toBe(200);
      const read = await inject('GET', '/api/reviews/google');
      expect(read.json().data.connection).toMatchObject({ account: 'accounts/111', refresh_token: 'stored', status: 'active' });
      expect(read.body).not.toContain(fake.refreshToken);
      const [row] = await ctx.database.db.select().from(googleConnections);
      expect(row?.refreshTokenEncrypted).toMatch(/^v1\./);
      expect(row?.refreshTokenEncrypted).not.toContain(fake.refreshToken);
      const badMapping = await inject('PUT', `/api/reviews/google/locations/${locationId}`, { google_location: 'x' });
      expect([400, 422]).toContain(badMapping.statusCode);
      expect(badMapping.json().message).toContain('Google location');
      const mapped = await inject('PUT', `/api/reviews/google/locations/${locationId}`, { google_location: GOOGLE_LOCATION });
      expect(mapped.statusCode, mapped.body).toBe(200);
      const list = (await inject('GET', '/api/reviews/google/locations')).json();
      expect(list.data.find((l: { location_id: string }) => l.location_id === locationId)).toMatchObject({
        google_location: GOOGLE_LOCATION,
      });
    });

    it('pulls every page through a 429, then only what changed since, 24 h later', async () => {
      fake.tooMany = 1;
      // The mapping made the location due at the moment it was saved.
      t0 = ctx.app.clock.now().getTime();
      const now = new Date(t0);
      await queue.runDue(now);
      const stored = await ctx.database.db
        .select()
        .from(reviews)
        .where(and(eq(reviews.locationId, locationId), eq(reviews.source, 'google')));
      expect(stored).toHaveLength(120);
      expect(reviewCalls()).toBe(4); // the 429, then three pages
      expect(fake.requests.filter((r) => r.path === '/token')).toHaveLength(1);
      const [source] = await ctx.database.db.select().from(reviewPullSources).where(eq(reviewPullSources.locationId, locationId));
      expect(source).toMatchObject({ lastError: null, reviewsSeen: 120 });
      expect(source?.nextPullAt?.getTime()).toBe(t0 + DAY);

      // Not due again before 24 h.
      await queue.runDue(new Date(t0 + DAY / 2));
      expect(reviewCalls()).toBe(4);

      // A new review and a reply to an old one; the next pull reads one page and stops.
      const list = fake.reviews.get(`accounts/111/${GOOGLE_LOCATION}`) ?? [];
      const later = t0 + DAY / 2;
      list.push(review(500, later));
      // One dated ahead of our clock at the time of the pull: refused, and the refusal kept in System Logs.
      list.push(review(501, t0 + DAY + 3 * 3_600_000));
      const old = list[3];
      if (old) {
        old.updateTime = new Date(later).toISOString();
        old.reviewReply = { comment: 'Thanks for coming back!', updateTime: new Date(later).toISOString() };
      }
      await queue.runDue(new Date(t0 + DAY + 1000));
      expect(reviewCalls()).toBe(5);
      const [replied] = await ctx.database.db
        .select()
        .from(reviews)
        .where(eq(reviews.externalId, `G3-${kind}`));
      expect(replied?.replyText).toBe('Thanks for coming back!');
      expect(
        await ctx.database.db
          .select()
          .from(reviews)
          .where(eq(reviews.externalId, `G500-${kind}`)),
      ).toHaveLength(1);
    });

    it('a Pull now pressed while a pull runs is kept: the location stays due rather than waiting a day', async () => {
      const now = new Date(t0 + 3 * DAY);
      const [claimed] = await claimDueSources(ctx.database.db, now, 10);
      expect(claimed?.locationId).toBe(locationId);
      if (!claimed) return;
      // Pull now, as its route does, while this worker holds the claim.
      await ctx.database.db.update(reviewPullSources).set({ nextPullAt: now }).where(eq(reviewPullSources.locationId, locationId));
      await pullAndRecord(
        { db: ctx.database.db, providers: ctx.config.providers, secrets: secretBox(ctx.config), backoffMs: 1 },
        claimed,
        now,
      );
      const [source] = await ctx.database.db.select().from(reviewPullSources).where(eq(reviewPullSources.locationId, locationId));
      expect(source?.lastPulledAt?.getTime()).toBe(now.getTime());
      expect(source?.nextPullAt?.getTime()).toBe(now.getTime());
      expect(source?.lastError).toBeNull();
    });

    it('keeps a failure on the source, the connection and System Logs; Pull now makes the location due', async () => {
      fake.refreshToken = 'rotated-by-google';
      const pull = await inject('POST', `/api/reviews/google/locations/${locationId}/pull`);
      expect(pull.statusCode, pull.body).toBe(202);
      const at = new Date(t0 + DAY + 60_000);
      await queue.runDue(at);
      const [source] = await ctx.database.db.select().from(reviewPullSources).where(eq(reviewPullSources.locationId, locationId));
      expect(source?.lastError).toContain('Google OAuth answered 400');
      expect(source?.nextPullAt?.getTime()).toBe(at.getTime() + 3_600_000);
      const [connection] = await ctx.database.db.select().from(googleConnections);
      expect(connection?.lastError).toContain('400');
      const logs = await ctx.database.db.select().from(systemLogs).where(eq(systemLogs.action, 'reviews.pull'));
      expect(logs.at(-1)).toMatchObject({ level: 'error', entityId: locationId });
      expect((await inject('GET', '/api/reviews/google')).json().data.connection.last_error).toContain('400');
      const unmapped = await ctx.database.db.execute(
        sql`select _id from locations where _id <> ${locationId} and client_id = (select client_id from locations where _id = ${locationId}) limit 1`,
      );
      const other = (unmapped as unknown as { rows: { _id: string }[] }).rows[0]?._id;
      if (other) expect((await inject('POST', `/api/reviews/google/locations/${other}/pull`)).statusCode).toBe(404);
      const cleared = await inject('DELETE', '/api/reviews/google');
      expect(cleared.statusCode).toBe(204);
      expect(await ctx.database.db.select().from(reviewPullSources)).toHaveLength(0);
      // Without a connection no worker would pull: Pull now says so rather than answering "queued".
      const orphan = await inject('POST', `/api/reviews/google/locations/${locationId}/pull`);
      expect(orphan.statusCode).toBe(409);
      expect(orphan.json().message).toContain('no Google connection');
    });
  });
}
