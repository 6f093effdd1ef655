import { gzipSync } from 'node:zlib';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { clients, surveyProcessingItems, surveyResponses, testimonials } from '../src/db/schema/index.ts';
import { FEED_CACHE_MS } from '../src/modules/testimonials/feed-cache.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

type Item = { id: number; name: string; text: string; featured: boolean; date: string; rating: number | null; rating_max: number | null };

for (const kind of testDatabaseKinds()) {
  describe(`Testimonial widget: public feed, script and iframe page (${kind})`, () => {
    let ctx: TestContext;
    /** The server on a clock the tests move, so the feed's few seconds in memory pass at once. */
    let app: FastifyInstance;
    const clock = movableClock(new Date());
    let clientId: number;
    let staff: Record<string, string>;
    const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
    /** A change made outside this server (another process, by hand) shows once the kept answer's time is up. */
    const outlastCache = () => clock.advance(FEED_CACHE_MS);

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      app = await buildApp(ctx.config, { database: ctx.database, clock });
      await app.ready();
      staff = bearer(await login(app, 'admin@example.com'));
      const user = await app.inject({ method: 'GET', url: '/api/user', headers: staff });
      clientId = user.json().data.user.current_client_id;
    });
    afterAll(async () => {
      await app?.close();
      await ctx?.close();
    });

    it('answers the published ones only, featured first then newest, with the display name and no personal data', async () => {
      const res = await get(`/api/public/testimonials?client=${clientId}`, { origin: 'https://www.example.org' });
      expect(res.statusCode).toBe(200);
      const data: Item[] = res.json().data;
      const published = await ctx.database.db
        .select()
        .from(testimonials)
        .where(and(eq(testimonials.clientId, clientId), eq(testimonials.status, 'published')));
      expect(data.map((d) => d.id).sort()).toEqual(published.map((p) => p.id).sort());
      const order = [...published].sort(
        (a, b) =>
          Number(b.featured) - Number(a.featured) || (b.publishedAt?.getTime() ?? 0) - (a.publishedAt?.getTime() ?? 0) || b.id - a.id,
      );
      expect(data.map((d) => d.id)).toEqual(order.map((p) => p.id));
      expect(data[0]?.featured).toBe(true);
      // Nothing of the customer but "First L.": no e-mail, phone or surname anywhere in the answer.
      const items = await ctx.database.db
        .select({ email: surveyProcessingItems.email, phone: surveyProcessingItems.phone, last: surveyProcessingItems.lastName })
        .from(testimonials)
        .innerJoin(surveyResponses, eq(surveyResponses.id, testimonials.responseId))
        .innerJoin(surveyProcessingItems, eq(surveyProcessingItems.id, surveyResponses.processingItemId))
        .where(and(eq(testimonials.clientId, clientId), eq(testimonials.status, 'published')));
      for (const i of items) {
        if (i.email) expect(res.body).not.toContain(i.email);
        if (i.phone) expect(res.body).not.toContain(i.phone);
        if (i.last && i.last.length > 1) expect(res.body).not.toContain(i.last);
      }
      expect(Object.keys(data[0] ?? {}).sort()).toEqual(['date', 'featured', 'id', 'location', 'name', 'rating', 'rating_max', 'text']);
      expect(res.body).not.toMatch(/schema\.org|itemprop|"@type"/);
    });

    it('is open to every origin, cacheable a short while, with an ETag that answers 304 until something changes', async () => {
      const res = await get(`/api/public/testimonials?client=${clientId}`, { origin: 'https://shop.example.net' });
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      const etag = String(res.headers.etag);
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await get(`/api/public/testimonials?client=${clientId}`, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      // A testimonial unpublished: the feed changes, and so does its ETag.
      const [one] = await ctx.database.db
        .select()
        .from(testimonials)
        .where(and(eq(testimonials.clientId, clientId), eq(testimonials.status, 'published')))
        .limit(1);
      await ctx.database.db
        .update(testimonials)
        .set({ status: 'approved' })
        .where(eq(testimonials.id, one?.id ?? 0));
      // Changed by hand in the database: the answer kept in memory stands for a few seconds, then goes.
      expect((await get(`/api/public/testimonials?client=${clientId}`, { 'if-none-match': etag })).statusCode).toBe(304);
      outlastCache();
      const changed = await get(`/api/public/testimonials?client=${clientId}`, { 'if-none-match': etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().data.map((d: Item) => d.id)).not.toContain(one?.id);
      await ctx.database.db
        .update(testimonials)
        .set({ status: 'published' })
        .where(eq(testimonials.id, one?.id ?? 0));
      outlastCache();
    });

    it('shows a change made in the Testimonials Tool at once', async () => {
      const feed = async () => (await get(`/api/public/testimonials?client=${clientId}&limit=50`)).json().data.map((d: Item) => d.id);
      const before: number[] = await feed();
      const id = before[0] ?? 0;
      const act = (action: string) => app.inject({ method: 'POST', url: `/api/testimonials/${id}/${action}`, headers: staff, payload: {} });
      expect((await act('unpublish')).statusCode).toBe(200);
      expect(await feed()).not.toContain(id);
      expect((await act('publish')).statusCode).toBe(200);
      expect(await feed()).toContain(id);
    });

    it('filters by location and limits the count', async () => {
      const [row] = await ctx.database.db
        .select({ location: testimonials.locationId })
        .from(testimonials)
        .where(and(eq(testimonials.clientId, clientId), eq(testimonials.status, 'published'), sql`${testimonials.locationId} is not null`))
        .limit(1);
      const location = row?.location ?? '';
      const res = await get(`/api/public/testimonials?client=${clientId}&location=${location}`);
      expect(res.statusCode).toBe(200);
      const data: Item[] = res.json().data;
      expect(data.length).toBeGreaterThan(0);
      const own = await ctx.database.db
        .select({ id: testimonials.id })
        .from(testimonials)
        .where(and(eq(testimonials.locationId, location), eq(testimonials.status, 'published')));
      expect(data.map((d) => d.id).sort()).toEqual(own.map((o) => o.id).sort());
      expect((await get(`/api/public/testimonials?client=${clientId}&limit=1`)).json().data).toHaveLength(1);
    });

    it('refuses bad and unknown parameters with 4xx JSON naming the parameter, never 5xx', async () => {
      const cases: Array<[string, number, string]> = [
        ['/api/public/testimonials', 400, 'client'],
        ['/api/public/testimonials?client=abc', 400, 'client'],
        ['/api/public/testimonials?client=99999999999', 400, 'client'],
        ['/api/public/testimonials?client=0', 400, 'client'],
        ['/api/public/testimonials?client=999999', 404, 'client'],
        [`/api/public/testimonials?client=${clientId}&location=nope`, 404, 'location'],
        [`/api/public/testimonials?client=${clientId}&limit=500`, 400, 'limit'],
        [`/api/public/testimonials?client=${clientId}&email=1`, 400, 'email'],
        ['/w/testimonials/abc', 400, 'key'],
        ['/w/testimonials/999999', 404, 'client'],
      ];
      for (const [url, status, field] of cases) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(status);
        expect(res.json().errors, url).toHaveProperty(field);
      }
      // Another client's location is not this client's.
      const [other] = await ctx.database.db
        .select({ location: testimonials.locationId })
        .from(testimonials)
        .where(and(sql`${testimonials.clientId} <> ${clientId}`, sql`${testimonials.locationId} is not null`))
        .limit(1);
      expect((await get(`/api/public/testimonials?client=${clientId}&location=${other?.location}`)).statusCode).toBe(404);
      // An archived client publishes nothing.
      await ctx.database.db.update(clients).set({ status: 'inactive' }).where(eq(clients.id, clientId));
      outlastCache();
      expect((await get(`/api/public/testimonials?client=${clientId}`)).statusCode).toBe(404);
      await ctx.database.db.update(clients).set({ status: 'active' }).where(eq(clients.id, clientId));
      outlastCache();
    });

    it('serves the widget script: a custom element in a shadow root, no dependencies, at most 10 KB gzipped', async () => {
      const res = await get('/w/testimonials.js');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/javascript');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.body).toContain("customElements.define('selected-testimonials'");
      expect(res.body).toContain('attachShadow');
      expect(res.body).toContain("'Selected testimonials'");
      expect(res.body).not.toMatch(/\bimport\b|\brequire\(|innerHTML|schema\.org/);
      const gzipped = gzipSync(res.rawPayload).length;
      expect(gzipped).toBeLessThanOrEqual(10 * 1024);
      console.log(`widget script: ${res.rawPayload.length} bytes, ${gzipped} bytes gzipped`);
    });

    it('serves the iframe page, which any site may frame', async () => {
      const res = await get(`/w/testimonials/${clientId}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(String(res.headers['content-security-policy'])).toContain('frame-ancestors *');
      expect(res.body).toContain(`<selected-testimonials client="${clientId}"></selected-testimonials>`);
      expect(res.body).toContain('<script src="/w/testimonials.js"></script>');
      expect(res.body).toContain('<title>Selected testimonials</title>');
      // The console's pages keep refusing to be framed.
      expect((await get('/healthz')).headers['x-frame-options']).toBe('DENY');
    });
  });
}
