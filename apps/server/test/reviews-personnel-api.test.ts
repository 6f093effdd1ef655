import { randomBytes } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, rowsOf } from '../src/db/client.ts';
import { clientUsers, locations, personnel, personnelLocations, reviews } from '../src/db/schema/index.ts';
import { ingestReviews } from '../src/reputation/ingest/ingest.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * `reviews.personnel_ids` (issue 21, item 10 of the finishing list; docs/decisions/057): filled at
 * ingest from the review's text against the active personnel of its location (or of its client,
 * for a location nobody is linked to), rewritten when the text changes, and read with one query
 * for a whole batch.
 */
for (const kind of testDatabaseKinds()) {
  describe(`Personnel named in reviews (${kind})`, () => {
    let ctx: TestContext;
    let token: string;
    let clientId: number;
    let here: string;
    let elsewhere: string;
    let unstaffed: string;
    const ids: Record<string, number> = {};
    const tag = randomBytes(3).toString('hex');
    const post = (items: unknown[]) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/reviews',
        remoteAddress: '127.0.0.1',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        payload: JSON.stringify({ reviews: items }),
      });
    const review = (id: string, locationId: string, comment: string, updateTime = '2026-01-02T10:00:00Z') => ({
      reviewId: `${tag}-${id}`,
      locationId,
      reviewer: { displayName: 'Robin Vale' },
      starRating: 'FIVE',
      comment,
      createTime: '2026-01-02T10:00:00Z',
      updateTime,
    });
    const namedIn = async (id: string) => {
      const [row] = await ctx.database.db
        .select({ personnelIds: reviews.personnelIds })
        .from(reviews)
        .where(eq(reviews.externalId, `${tag}-${id}`));
      return row?.personnelIds ?? null;
    };
    const addPerson = async (key: string, values: Omit<typeof personnel.$inferInsert, 'clientId'>, at: string[], ofClient = clientId) => {
      const [row] = await ctx.database.db
        .insert(personnel)
        .values({ clientId: ofClient, ...values })
        .returning({ id: personnel.id });
      const id = row?.id ?? 0;
      if (at.length > 0) await ctx.database.db.insert(personnelLocations).values(at.map((locationId) => ({ personnelId: id, locationId })));
      ids[key] = id;
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      const db = ctx.database.db;
      const headers = bearer(await login(ctx.app, 'admin@example.com'));
      const own = await db.select().from(locations).limit(2);
      clientId = own[0]?.clientId ?? 0;
      here = own[0]?.id ?? '';
      const [second] = await db
        .select()
        .from(locations)
        .where(and(eq(locations.clientId, clientId), ne(locations.id, here)))
        .limit(1);
      elsewhere = second?.id ?? '';
      // A location nobody is linked to: the client's personnel are its candidates.
      unstaffed = randomBytes(12).toString('hex');
      await db.insert(locations).values({
        id: unstaffed,
        clientId,
        locationname: `Unstaffed ${tag}`,
        address1: '1 Main St',
        city: 'Austin',
        state: 'TX',
        postalCode: '78701',
        phone: '+15125550100',
        timezone: 'America/Chicago',
      });
      await addPerson('maria', { firstName: 'María', lastName: `Quillon${tag}`, aliases: [`Mari${tag}`] }, [here]);
      await addPerson('tom', { firstName: `Tomas${tag}`, lastName: 'Baker', displayName: `Tommy ${tag}` }, [here]);
      await addPerson('paused', { firstName: 'Ann', lastName: `Green${tag}`, status: 'paused' }, [here]);
      await addPerson('away', { firstName: 'Zed', lastName: `Quist${tag}` }, [elsewhere]);
      const [otherLocation] = await db.select().from(locations).where(ne(locations.clientId, clientId)).limit(1);
      await addPerson('foreign', { firstName: 'Otto', lastName: `Frey${tag}` }, [otherLocation?.id ?? ''], otherLocation?.clientId ?? 0);
      const [user] = await db.select().from(clientUsers).where(eq(clientUsers.clientId, clientId)).limit(1);
      const made = await ctx.app.inject({
        method: 'POST',
        url: '/api/api-token',
        headers,
        payload: { user_id: user?.userId ?? 0, name: 'Reviews', scopes: ['reviews:write'] },
      });
      expect(made.statusCode, made.body).toBe(201);
      token = (made.json() as { data: { token: string } }).data.token;
    });
    afterAll(() => ctx.close());

    it("fills the personnel a review names from its location's active staff", async () => {
      const res = await post([
        review('full', here, `maria quillon${tag} fixed our AC in an hour`),
        review('alias', here, `Ask for MARI${tag}! And tommy ${tag} was lovely.`),
        review('first', here, `Tomas${tag} came on time`),
        review('none', here, `We will come back; ann green${tag} was rude; Zed Quist${tag} too; Otto Frey${tag} as well`),
        review('away', elsewhere, `Zed Quist${tag} and María Quillon${tag}`),
        review('unstaffed', unstaffed, `Zed Quist${tag} called us back`),
        { ...review('empty', here, ''), comment: undefined },
      ]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.counts).toMatchObject({ created: 7, refused: 0 });
      expect(await namedIn('full')).toEqual([ids.maria]);
      // María was added before Tomas: ids ascending.
      expect(await namedIn('alias')).toEqual([ids.maria, ids.tom]);
      expect(await namedIn('first')).toEqual([ids.tom]);
      // Paused, working elsewhere, another client's: none is named here.
      expect(await namedIn('none')).toEqual([]);
      // At the other location only its own staff count.
      expect(await namedIn('away')).toEqual([ids.away]);
      expect(await namedIn('unstaffed')).toEqual([ids.away]);
      expect(await namedIn('empty')).toEqual([]);
    });

    it('rewrites the list when the text changes; an identical copy leaves the review unchanged', async () => {
      const first = await post([review('edit', here, `Mari${tag} was great`)]);
      expect(first.json().data.reviews[0].outcome).toBe('created');
      expect(await namedIn('edit')).toEqual([ids.maria]);
      const edited = await post([review('edit', here, `Actually it was Tommy ${tag}`, '2026-01-03T10:00:00Z')]);
      expect(edited.json().data.reviews[0].outcome).toBe('updated');
      expect(await namedIn('edit')).toEqual([ids.tom]);
      const again = await post([review('edit', here, `Actually it was Tommy ${tag}`, '2026-01-03T10:00:00Z')]);
      expect(again.json().data.reviews[0].outcome).toBe('unchanged');
    });

    it('reads the names once for a batch of 1,000 reviews over several locations', async () => {
      let reads = 0;
      const counted = new Proxy(ctx.database.db, {
        get(target, key, receiver) {
          if (key === 'execute')
            return (...args: Parameters<Db['execute']>) => {
              reads += 1;
              return target.execute(...args);
            };
          return Reflect.get(target, key, receiver);
        },
      });
      const items = Array.from({ length: 1000 }, (_, i) =>
        review(`batch-${i}`, [here, elsewhere, unstaffed][i % 3] ?? here, i % 2 === 0 ? `Zed Quist${tag} helped` : `Mari${tag} helped`),
      );
      const result = await ingestReviews(counted, { clientId, source: 'api', now: ctx.app.clock.now() }, items);
      expect(result.counts).toMatchObject({ created: 1000, refused: 0 });
      // Outside the writing transaction: the locations' clients, then the personnel; nothing per review.
      expect(reads).toBe(2);
      const named = await ctx.database.db.execute(
        sql`select location_id, personnel_ids, count(*)::int as n from reviews where external_id like ${`${tag}-batch-%`}
            group by location_id, personnel_ids order by location_id, personnel_ids`,
      );
      const byLocation = new Map<string, number[][]>();
      for (const r of rowsOf(named)) {
        const list = Array.isArray(r.personnel_ids) ? r.personnel_ids.map(Number) : [];
        byLocation.set(String(r.location_id), [...(byLocation.get(String(r.location_id)) ?? []), list]);
      }
      expect(byLocation.get(here)).toEqual(expect.arrayContaining([[], [ids.maria]]));
      expect(byLocation.get(elsewhere)).toEqual(expect.arrayContaining([[], [ids.away]]));
      expect(byLocation.get(unstaffed)).toEqual(expect.arrayContaining([[ids.maria], [ids.away]]));
    });
  });
}
