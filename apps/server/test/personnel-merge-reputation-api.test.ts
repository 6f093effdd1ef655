import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * Merge Personnel moves what the reputation side holds of a duplicate (modules/personnel-merge/
 * references.ts): review invitations, testimonials, and reviews naming them (reviews.personnel_ids),
 * counted in the preview and the history.
 */
for (const kind of testDatabaseKinds()) {
  describe(`merge personnel: review invitations, testimonials and reviews naming them (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    const post = (url: string, payload: unknown) =>
      ctx.app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
    const one = async (query: ReturnType<typeof sql>) => rowsOf(await ctx.database.db.execute(query))[0] ?? {};

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(() => ctx.close());

    it('gives them to the survivor, a review naming both once, and says so', async () => {
      const [location] = (await ctx.app.inject({ method: 'GET', url: '/api/endpoints', headers })).json().data as { _id: string }[];
      const create = async (first: string) => {
        const res = await post('/api/personnel', { first_name: first, last_name: 'Merger', location_ids: [location?._id] });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data as { id: number; client_id: number };
      };
      const survivor = await create('Dana');
      const dup = await create('Danna');
      const amp = await one(sql`update amplifications set personnel_id = ${dup.id}
        where id = (select min(id) from amplifications where client_id = ${dup.client_id}) returning id`);
      const quote = await one(sql`update testimonials set personnel_id = ${dup.id}
        where id = (select min(id) from testimonials where client_id = ${dup.client_id}) returning id`);
      const both = await one(sql`update reviews set personnel_ids = array[${survivor.id}::int, ${dup.id}::int]
        where id = (select min(id) from reviews where client_id = ${dup.client_id}) returning id`);
      const alone = await one(sql`update reviews set personnel_ids = array[${dup.id}::int]
        where id = (select max(id) from reviews where client_id = ${dup.client_id}) returning id`);
      expect([amp.id, quote.id, both.id, alone.id].every((id) => id !== undefined)).toBe(true);

      const selection = { survivor_id: survivor.id, duplicate_ids: [dup.id] };
      const preview = (await post('/api/get-merge-personnel/preview', selection)).json().data;
      expect(preview.moved_counts).toMatchObject({ amplifications: 1, testimonials: 1, review_mentions: 2 });
      const done = await post('/api/get-merge-personnel', { ...selection, confirm_name: 'Dana Merger' });
      expect(done.statusCode, done.body).toBe(201);

      expect(await one(sql`select personnel_id from amplifications where id = ${amp.id}`)).toEqual({ personnel_id: survivor.id });
      expect(await one(sql`select personnel_id from testimonials where id = ${quote.id}`)).toEqual({ personnel_id: survivor.id });
      expect(await one(sql`select personnel_ids from reviews where id = ${both.id}`)).toEqual({ personnel_ids: [survivor.id] });
      expect(await one(sql`select personnel_ids from reviews where id = ${alone.id}`)).toEqual({ personnel_ids: [survivor.id] });
      const history = (await ctx.app.inject({ method: 'GET', url: '/api/get-merge-personnel/history/export', headers })).body;
      expect(history).toContain('Review invitations: 1, Testimonials: 1, Reviews naming them: 2');
      // The date in the client's zone, named, as every export writes it.
      expect(history.split('\r\n')[1]).toMatch(/^"\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M [A-Z]{2,5}"/);
    });
  });
}
