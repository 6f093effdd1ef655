import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, clientUsers, dataFeeds, endpointConfigs, locations, surveys } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * One winner for every create of API access that must be unique (issue 18, item 4; decision 032).
 * PGlite runs one transaction at a time, so these races are real only on PostgreSQL
 * (TEST_DATABASE_URL): the app's pool there holds ten connections, and the requests overlap.
 */
const PARALLEL = 10;

for (const kind of testDatabaseKinds()) {
  describe(`API tokens and endpoints under parallel requests (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    const inject = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
      ctx.app.inject({ method, url, headers, payload });
    const statuses = (responses: { statusCode: number }[]) => responses.map((r) => r.statusCode).sort();

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(() => ctx.close());

    it('ten parallel Generate token for one user issue one token; ten parallel Regenerate of it issue one more', async () => {
      const [portal] = await ctx.database.db.select().from(clientUsers).limit(1);
      const userId = portal?.userId ?? 0;
      const made = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          inject('POST', '/api/api-token', { user_id: userId, name: `Race ${i}`, scopes: ['feeds:write'] }),
        ),
      );
      expect(statuses(made)).toEqual([201, ...Array.from({ length: PARALLEL - 1 }, () => 409)]);
      const live = await ctx.database.db
        .select()
        .from(apiTokens)
        .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
      expect(live).toHaveLength(1);

      const id = live[0]?.id;
      const regenerated = await Promise.all(
        Array.from({ length: PARALLEL }, () => inject('POST', `/api/api-token/${id}/regenerate`, { grace_hours: 1 })),
      );
      expect(statuses(regenerated)).toEqual([201, ...Array.from({ length: PARALLEL - 1 }, () => 409)]);
      const all = await ctx.database.db.select().from(apiTokens).where(eq(apiTokens.userId, userId));
      expect(all).toHaveLength(2);
      expect(all.filter((t) => t.revokedAt === null)).toHaveLength(1);
    });

    it('ten parallel first saves of one endpoint make one settings row and one api feed; the nine that saw no version are refused', async () => {
      const [location] = await ctx.database.db
        .select({ id: locations.id, clientId: locations.clientId })
        .from(locations)
        .where(sql`not exists (select 1 from ${endpointConfigs} e where e.location_id = ${locations.id})`)
        .limit(1);
      const [survey] = await ctx.database.db
        .select({ id: surveys.id })
        .from(surveys)
        .where(and(eq(surveys.clientId, location?.clientId ?? 0), sql`${surveys.status} <> 'inactive'`))
        .limit(1);
      const saves = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          inject('PUT', `/api/api-endpoints/${location?.id}`, { survey_id: survey?.id, rate_limit_per_min: 100 + i }),
        ),
      );
      const feeds = await ctx.database.db
        .select()
        .from(dataFeeds)
        .where(and(eq(dataFeeds.locationId, location?.id ?? ''), eq(dataFeeds.sourceType, 'api')));
      expect(feeds).toHaveLength(1);
      const configs = await ctx.database.db
        .select()
        .from(endpointConfigs)
        .where(eq(endpointConfigs.locationId, location?.id ?? ''));
      expect(configs).toHaveLength(1);
      expect(configs[0]).toMatchObject({ dataFeedId: feeds[0]?.id, webhookSecretHash: null });
      // A loser is 409 when the winner committed while it waited on the row, 422 (no version)
      // when the winner had finished before it looked: never a second feed, never an overwrite.
      expect(statuses(saves).filter((s) => s === 200)).toHaveLength(1);
      expect(statuses(saves).filter((s) => s !== 200 && s !== 409 && s !== 422)).toEqual([]);
      const won = saves.find((r) => r.statusCode === 200);
      expect(won?.json().data).toMatchObject({ webhook_secret: null, endpoint: { rate_limit_per_min: configs[0]?.rateLimitPerMin } });
    });
  });
}
