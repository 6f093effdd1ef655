import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, testConfig } from '../src/config.ts';
import { listingScans, listings, locations } from '../src/db/schema/index.ts';
import { listingSources } from '../src/listings/install.ts';
import { scanLocation } from '../src/listings/scan-location.ts';
import { startScan } from '../src/modules/listings/start-scan.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';
import { type BedLocation, listingClient } from './listings-bed.ts';
import { type FakeProviders, PLACES_KEY, startFakeProviders } from './listings-fakes.ts';

type Row = {
  id: number;
  directory: string;
  listing_status: string;
  score: number | null;
  phone_match: boolean | null;
  last_checked_at: string | null;
  updated_at: string;
};

describe('LISTINGS_DEMO_DIRECTORY', () => {
  it('follows DEMO_DATA unless set: on for the embedded demo, off for a server, either way when named', () => {
    const server = 'postgres://u:p@db.example.com:5432/app';
    expect(loadConfig({}).providers.demoDirectory).toBe(true);
    expect(loadConfig({ DATABASE_URL: server }).providers.demoDirectory).toBe(false);
    expect(loadConfig({ DATABASE_URL: server, DEMO_DATA: 'on' }).providers.demoDirectory).toBe(true);
    expect(loadConfig({ DEMO_DATA: 'on', LISTINGS_DEMO_DIRECTORY: 'off' }).providers.demoDirectory).toBe(false);
    expect(loadConfig({ DATABASE_URL: server, LISTINGS_DEMO_DIRECTORY: 'on' }).providers.demoDirectory).toBe(true);
    expect(() => loadConfig({ LISTINGS_DEMO_DIRECTORY: 'maybe' })).toThrow(/LISTINGS_DEMO_DIRECTORY/);
  });
});

/**
 * Production without the demo directory (docs/decisions/052): Google read through Places (its key
 * set, against the local fake), Yelp without a key and the eight directories without an adapter
 * not checked — shown so, outside the score, in the fix list as not checked — never invented.
 */
for (const kind of testDatabaseKinds()) {
  describe(`Listings without a connection (${kind})`, () => {
    let ctx: TestContext;
    let fakes: FakeProviders;
    let headers: Record<string, string>;
    let clientId: number;
    let locs: BedLocation[];
    const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
      ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const list = async (query: string) => {
      const res = await send('GET', `/api/listings?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: Row[]; total: number };
    };
    const rowsOf = (locationId: string) => ctx.database.db.select().from(listings).where(eq(listings.locationId, locationId));

    beforeAll(async () => {
      fakes = await startFakeProviders();
      const base = testConfig().providers;
      ctx = await startTestApp(kind, {
        providers: {
          ...base,
          googlePlaces: { apiUrl: fakes.placesUrl, apiKey: PLACES_KEY },
          yelp: { ...base.yelp, apiKey: null },
          allowPrivateHosts: true,
          demoDirectory: false,
        },
      });
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      ({ clientId, locations: locs } = await listingClient(ctx.database.db, 'Conn', 3));
      expect((await send('PUT', `/api/users/switch-client/${clientId}`)).statusCode).toBe(200);
      for (const l of locs) fakes.businesses.set(l.name.toLowerCase(), [{ ...l.business, phone: '(303) 555-9999' }]);
      expect((await send('POST', '/api/listings/scan', {})).statusCode).toBe(202);
      await ctx.app.jobs.runDue();
    });
    afterAll(async () => {
      await ctx.close();
      await fakes.close();
    });

    it('only Google is read; the other nine directories are Not checked (No connection), with no score, verdicts nor Last checked', async () => {
      expect((await send('GET', '/api/listings/scans/latest')).json().data).toMatchObject({ status: 'succeeded', total: 3, done: 3 });
      // Nothing asked of Yelp: it has no key.
      expect(fakes.requests.some((r) => r.path.startsWith('/v3/'))).toBe(false);
      const all = (await list('perPage=200')).data;
      expect(all).toHaveLength(30);
      const google = all.filter((r) => r.directory === 'google');
      expect(google.map((r) => [r.listing_status, r.score, r.phone_match])).toEqual(Array(3).fill(['needs_update', 75, false]));
      const others = all.filter((r) => r.directory !== 'google');
      expect(others).toHaveLength(27);
      for (const r of others)
        expect(r).toMatchObject({ listing_status: 'not_checked', score: null, phone_match: null, last_checked_at: null });
      // Outside the score: Score below never lists them; the status filter does.
      expect((await list('score_below=100&perPage=200')).data.map((r) => r.directory)).toEqual(['google', 'google', 'google']);
      expect((await list('status=not_checked&perPage=200')).total).toBe(27);
      // The export says it in words.
      const csv = (await send('GET', '/api/listings/export?directory=bing')).body;
      expect(csv).toMatch(/^.*Bing Places,Not checked,,—,—,—,—,—,No connection,/m);
    });

    it('the fix list names each directory not checked once per location, beside the fields to fix', async () => {
      const res = await send('GET', '/api/listings/fix-list');
      expect(res.statusCode).toBe(200);
      const lines = res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      const notChecked = lines.filter((l) => l.includes(',Not checked,'));
      expect(notChecked).toHaveLength(27);
      expect(notChecked.filter((l) => l.includes(',Yelp,'))).toHaveLength(3);
      expect(notChecked[0]).toMatch(/,All fields,,No connection,Not checked,$/);
      expect(lines.filter((l) => l.includes(',Phone,') && l.includes('Google Business Profile'))).toHaveLength(3);
    });

    it('Mark updated is refused on a listing not checked (nothing would ever confirm it)', async () => {
      const [row] = (await list('directory=bing&perPage=1')).data;
      if (!row) throw new Error('no Bing row');
      const res = await send('POST', `/api/listings/${row.id}/updated`, { note: 'sent' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/not checked cannot be marked updated/);
      // Nor marked mine or not mine: the row holds no listing read from Bing.
      for (const action of ['mine', 'not-mine']) {
        const refused = await send('POST', `/api/listings/${row.id}/${action}`, {});
        expect(refused.statusCode).toBe(409);
        expect(refused.json().message).toMatch(/No listing was read on Bing Places/);
      }
    });

    it('a directory that loses its connection: its listings become not checked, keeping the place id, the URL and Not mine', async () => {
      const db = ctx.database.db;
      const [first] = locs;
      if (!first) throw new Error('bed');
      const [google] = (await rowsOf(first.id)).filter((r) => r.directory === 'google');
      if (!google) throw new Error('no Google listing');
      await db
        .update(listings)
        .set({ listingUrl: 'https://g.page/mine', isMine: false, status: 'suppressed' })
        .where(eq(listings.id, google.id));
      const [location] = await db.select().from(locations).where(eq(locations.id, first.id));
      if (!location) throw new Error('bed');
      const keyless = listingSources({ ...ctx.config.providers, googlePlaces: { ...ctx.config.providers.googlePlaces, apiKey: null } });
      expect(keyless.every((s) => !s.connected)).toBe(true);
      await scanLocation(db, keyless, location, null, new Date());
      const [after] = await db.select().from(listings).where(eq(listings.id, google.id));
      expect(after).toMatchObject({
        externalId: google.externalId,
        listingUrl: 'https://g.page/mine',
        isMine: false,
        status: 'suppressed',
      });
      expect(after).toMatchObject({ phoneMatch: null, nameMatch: null, score: null });
      // Mine again: the next scan without a connection says not checked.
      await db.update(listings).set({ isMine: true, status: 'needs_update' }).where(eq(listings.id, google.id));
      await scanLocation(db, keyless, location, null, new Date());
      const [again] = await db.select().from(listings).where(eq(listings.id, google.id));
      expect(again).toMatchObject({ status: 'not_checked', externalId: google.externalId, listingUrl: 'https://g.page/mine' });
      // With the key back, the same row is compared again (no second Google row).
      await scanLocation(db, listingSources(ctx.config.providers), location, null, new Date());
      const rows = (await rowsOf(first.id)).filter((r) => r.directory === 'google');
      expect(rows.map((r) => [r.id, r.status, r.score])).toEqual([[google.id, 'needs_update', 75]]);
    });

    it('a scan whose worker died resumes where it stopped when its locations are not checked', async () => {
      const db = ctx.database.db;
      const { scan } = await startScan(db, { clientId, locationId: null, requestedBy: null }, new Date());
      await db.update(listingScans).set({ status: 'running', startedAt: new Date() }).where(eq(listingScans.id, scan.id));
      const [first] = locs.slice().sort((a, b) => a.id.localeCompare(b.id));
      const [location] = await db
        .select()
        .from(locations)
        .where(eq(locations.id, first?.id ?? ''));
      if (!location) throw new Error('bed');
      const none = listingSources({ ...ctx.config.providers, googlePlaces: { ...ctx.config.providers.googlePlaces, apiKey: null } });
      await scanLocation(db, none, location, scan.id, new Date());
      const before = fakes.requests.length;
      await ctx.app.jobs.runDue();
      const [after] = await db.select().from(listingScans).where(eq(listingScans.id, scan.id));
      expect(after).toMatchObject({ status: 'succeeded', total: 3, done: 3, failed: 0 });
      expect(fakes.requests.length - before).toBe(2);
    });

    it('a rescan’s set-based update writes every column it owns: found hours cleared to SQL null, timestamps, verdicts', async () => {
      const db = ctx.database.db;
      const [, second] = locs;
      if (!second) throw new Error('bed');
      const { hours: _hours, ...withoutHours } = second.business;
      fakes.businesses.set(second.name.toLowerCase(), [withoutHours]);
      const at = new Date(Date.now() + 60_000);
      const [location] = await db.select().from(locations).where(eq(locations.id, second.id));
      if (!location) throw new Error('bed');
      await scanLocation(db, listingSources(ctx.config.providers), location, null, at);
      const [google] = await db
        .select({
          row: listings,
          hoursIsNull: sql<boolean>`${listings.foundHours} is null`,
        })
        .from(listings)
        .where(and(eq(listings.locationId, second.id), eq(listings.directory, 'google')));
      expect(google?.hoursIsNull).toBe(true);
      expect(google?.row).toMatchObject({
        phoneMatch: true,
        hoursMatch: false,
        score: 95,
        status: 'needs_update',
        foundPhone: '(303) 555-1001',
      });
      expect(google?.row.lastCheckedAt?.getTime()).toBe(at.getTime());
      expect(google?.row.foundAt?.getTime()).toBe(at.getTime());
    });
  });
}
