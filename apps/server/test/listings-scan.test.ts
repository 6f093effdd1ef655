import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.ts';
import { jobs, listingScans, listings, locations, systemLogs } from '../src/db/schema/index.ts';
import { listingSources } from '../src/listings/install.ts';
import { scanLocation } from '../src/listings/scan-location.ts';
import { clearOldFoundValues, scheduleWeeklyScans } from '../src/listings/schedule.ts';
import { SCAN_STALE_MS, startScan } from '../src/modules/listings/start-scan.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';
import { type BedLocation, listingClient } from './listings-bed.ts';
import { type FakeProviders, PLACES_KEY, startFakeProviders, YELP_KEY } from './listings-fakes.ts';

/**
 * Scans against the local fakes of Google Places and Yelp (the real adapters, over HTTP, through
 * the outbound guard with PROVIDERS_ALLOW_PRIVATE): what each directory holds, compared; the scan
 * as a job with its progress; one scan per client; resuming after a crash; the weekly schedule
 * and the 30-day clearing of found values.
 */
for (const kind of testDatabaseKinds()) {
  describe(`Listings scans (${kind})`, () => {
    let ctx: TestContext;
    let fakes: FakeProviders;
    let headers: Record<string, string>;
    let clientId: number;
    let locs: BedLocation[];
    const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
      ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const rowsOf = (locationId: string) => ctx.database.db.select().from(listings).where(eq(listings.locationId, locationId));

    beforeAll(async () => {
      fakes = await startFakeProviders();
      const base = testConfig().providers;
      ctx = await startTestApp(kind, {
        providers: {
          ...base,
          googlePlaces: { apiUrl: fakes.placesUrl, apiKey: PLACES_KEY },
          yelp: { apiUrl: fakes.yelpUrl, apiKey: YELP_KEY },
          allowPrivateHosts: true,
          // The eight directories without an adapter from the demo directory, as the demo reads them.
          demoDirectory: true,
        },
      });
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      ({ clientId, locations: locs } = await listingClient(ctx.database.db, 'Scan', 4));
      expect((await send('PUT', `/api/users/switch-client/${clientId}`)).statusCode).toBe(200);
      const [first, second, third] = locs;
      if (!first || !second || !third) throw new Error('bed');
      // Both providers hold the first location with an old phone. The second has a duplicate on both.
      fakes.businesses.set(first.name.toLowerCase(), [{ ...first.business, phone: '(303) 555-9999' }]);
      fakes.businesses.set(second.name.toLowerCase(), [
        second.business,
        { ...second.business, address: '990 Old Road, Lakewood, CO 80228', website: undefined },
      ]);
      fakes.businesses.set(third.name.toLowerCase(), [third.business]);
    });
    afterAll(async () => {
      await ctx.close();
      await fakes.close();
    });

    it('Scan now of one location: a job whose Google listing shows the phone mismatch, Yelp and the demo directories beside it', async () => {
      const [first] = locs;
      if (!first) throw new Error('bed');
      const res = await send('POST', '/api/listings/scan', { location_id: first.id });
      expect(res.statusCode).toBe(202);
      expect(res.json().data).toMatchObject({ status: 'queued', total: 1, done: 0 });
      await ctx.app.jobs.runDue();
      const scan = (await send('GET', '/api/listings/scans/latest')).json().data;
      expect(scan).toMatchObject({ status: 'succeeded', total: 1, done: 1, failed: 0 });
      const rows = await rowsOf(first.id);
      expect(new Set(rows.map((r) => r.directory)).size).toBe(10);
      const google = rows.find((r) => r.directory === 'google');
      expect(google).toMatchObject({ nameMatch: true, addressMatch: true, phoneMatch: false, websiteMatch: true, hoursMatch: true });
      expect(google).toMatchObject({ score: 75, status: 'needs_update', foundPhone: '(303) 555-9999' });
      expect(google?.externalId).toMatch(/^place_/);
      const yelp = rows.find((r) => r.directory === 'yelp');
      // Yelp carries no website nor hours: those are not compared (name 30 + address 30 of 85).
      expect(yelp).toMatchObject({ phoneMatch: false, websiteMatch: null, hoursMatch: null, score: 71, status: 'needs_update' });
      // The real calls: the key and the field mask Google requires, Yelp's bearer key.
      const search = fakes.requests.find((r) => r.path === '/v1/places:searchText');
      expect(search?.headers['x-goog-fieldmask']).toContain('places.nationalPhoneNumber');
      expect(fakes.requests.some((r) => r.path === '/v3/businesses/matches')).toBe(true);
      const audit = await ctx.database.db.select().from(systemLogs).where(eq(systemLogs.action, 'listing.scan'));
      expect(audit.some((a) => a.clientId === clientId)).toBe(true);
    });

    it('a second scan reads Google by the place id it kept (Place Details), and survives a 429 with back-off', async () => {
      const [first] = locs;
      if (!first) throw new Error('bed');
      const before = fakes.requests.length;
      fakes.throttleNext(1);
      expect((await send('POST', '/api/listings/scan', { location_id: first.id })).statusCode).toBe(202);
      await ctx.app.jobs.runDue();
      const calls = fakes.requests.slice(before);
      expect(calls.some((r) => r.path.startsWith('/v1/places/place_'))).toBe(true);
      expect((await send('GET', '/api/listings/scans/latest')).json().data).toMatchObject({ status: 'succeeded', done: 1 });
    });

    it('a whole-client scan: one at a time, progress counted, duplicates found by two of name, address and phone', async () => {
      const res = await send('POST', '/api/listings/scan', {});
      expect(res.statusCode).toBe(202);
      expect(res.json().data.total).toBe(4);
      const again = await send('POST', '/api/listings/scan', {});
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toMatch(/already queued/);
      await ctx.app.jobs.runDue();
      expect((await send('GET', '/api/listings/scans/latest')).json().data).toMatchObject({ status: 'succeeded', total: 4, done: 4 });
      const [, second, , fourth] = locs;
      if (!second || !fourth) throw new Error('bed');
      const google = (await rowsOf(second.id)).filter((r) => r.directory === 'google').sort((a, b) => a.id - b.id);
      expect(google.map((g) => g.status)).toEqual(['accurate', 'duplicate']);
      expect(google[1]?.duplicateOfId).toBe(google[0]?.id);
      // Nothing on Google or Yelp for the fourth: one not-found row each.
      const missing = (await rowsOf(fourth.id)).filter((r) => r.directory === 'google' || r.directory === 'yelp');
      expect(missing.map((m) => [m.status, m.externalId])).toEqual([
        ['not_found', null],
        ['not_found', null],
      ]);
    });

    it("a rescan reads Google by the listing's own place id, not its duplicate's", async () => {
      const [, second] = locs;
      if (!second) throw new Error('bed');
      const before = fakes.requests.length;
      expect((await send('POST', '/api/listings/scan', { location_id: second.id })).statusCode).toBe(202);
      await ctx.app.jobs.runDue();
      const google = (await rowsOf(second.id)).filter((r) => r.directory === 'google').sort((a, b) => a.id - b.id);
      const details = fakes.requests.slice(before).find((r) => r.path.startsWith('/v1/places/place_'));
      expect(details?.path).toBe(`/v1/places/${google[0]?.externalId}`);
      expect(google.map((g) => g.status)).toEqual(['accurate', 'duplicate']);
    });

    it('a scan whose worker died resumes where it stopped, scanning no location twice', async () => {
      const db = ctx.database.db;
      const { scan } = await startScan(db, { clientId, locationId: null, requestedBy: null }, new Date());
      // The worker began: it marked the scan running and scanned the first location, then died.
      const startedAt = new Date();
      await db.update(listingScans).set({ status: 'running', startedAt }).where(eq(listingScans.id, scan.id));
      const sources = listingSources(ctx.config.providers);
      const [first] = locs.slice().sort((a, b) => a.id.localeCompare(b.id));
      if (!first) throw new Error('bed');
      const [location] = await db.select().from(locations).where(eq(locations.id, first.id));
      if (!location) throw new Error('bed');
      await scanLocation(db, sources, location, scan.id, new Date());
      const before = fakes.requests.length;
      await ctx.app.jobs.runDue();
      const [after] = await db.select().from(listingScans).where(eq(listingScans.id, scan.id));
      expect(after).toMatchObject({ status: 'succeeded', total: 4, done: 4, failed: 0 });
      // The resumed run asked the providers about the three others only.
      const asked = fakes.requests.slice(before).filter((r) => r.path === '/v3/businesses/matches');
      expect(asked).toHaveLength(3);
      expect(asked.some((r) => r.path.includes(encodeURIComponent(first.name)))).toBe(false);
    });

    it('two Scan nows at once start one scan (on PostgreSQL on two connections): the other is answered the running one', async () => {
      const db = ctx.database.db;
      const [a, b] = await Promise.all([
        startScan(db, { clientId, locationId: null, requestedBy: null }, new Date()),
        startScan(db, { clientId, locationId: null, requestedBy: null }, new Date()),
      ]);
      expect([a.started, b.started].sort()).toEqual([false, true]);
      expect(a.scan.id).toBe(b.scan.id);
      await ctx.app.jobs.runDue();
      const [done] = await db.select().from(listingScans).where(eq(listingScans.id, a.scan.id));
      expect(done?.status).toBe('succeeded');
    });

    it('a scan whose job was lost (not moved on for 15 minutes) is failed, saying so, and the next Scan now starts a new one', async () => {
      const db = ctx.database.db;
      const t0 = new Date();
      const { scan: lost } = await startScan(db, { clientId, locationId: null, requestedBy: null }, t0);
      await db.delete(jobs).where(sql`${jobs.payload}->>'scanId' = ${String(lost.id)}`);
      // Within the bound it still counts as running.
      const soon = await startScan(db, { clientId, locationId: null, requestedBy: null }, new Date(t0.getTime() + SCAN_STALE_MS - 60_000));
      expect(soon).toMatchObject({ started: false, scan: { id: lost.id } });
      const later = await startScan(db, { clientId, locationId: null, requestedBy: null }, new Date(t0.getTime() + SCAN_STALE_MS + 60_000));
      expect(later.started).toBe(true);
      expect(later.scan.id).not.toBe(lost.id);
      const [failed] = await db.select().from(listingScans).where(eq(listingScans.id, lost.id));
      expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('stopped without finishing') });
      await ctx.app.jobs.runDue(new Date(t0.getTime() + SCAN_STALE_MS + 120_000));
      const [next] = await db.select().from(listingScans).where(eq(listingScans.id, later.scan.id));
      expect(next?.status).toBe('succeeded');
    });

    it('a rescan keeps what a person did while the directories were being read (Not mine meanwhile stays)', async () => {
      const db = ctx.database.db;
      const [first] = locs;
      if (!first) throw new Error('bed');
      const [location] = await db.select().from(locations).where(eq(locations.id, first.id));
      if (!location) throw new Error('bed');
      const sources = listingSources(ctx.config.providers);
      await scanLocation(db, sources, location, null, new Date());
      const [yelp] = (await rowsOf(first.id)).filter((r) => r.directory === 'yelp' && r.externalId !== null);
      if (!yelp) throw new Error('no Yelp listing');
      // Someone presses Not mine on the Yelp listing while the rescan waits on the directories.
      const slow = sources.map((source) => ({
        ...source,
        lookup: async (target: Parameters<typeof source.lookup>[0]) => {
          const found = await source.lookup(target);
          if (source.directory === 'yelp')
            await db.update(listings).set({ isMine: false, status: 'suppressed', updatedAt: new Date() }).where(eq(listings.id, yelp.id));
          return found;
        },
      }));
      await scanLocation(db, slow, location, null, new Date());
      const [after] = await db.select().from(listings).where(eq(listings.id, yelp.id));
      expect(after).toMatchObject({ isMine: false, status: 'suppressed' });
    });

    it('found values are cleared 30 days after they were read; place ids, verdicts and scores stay', async () => {
      const db = ctx.database.db;
      const [first] = locs;
      if (!first) throw new Error('bed');
      const old = new Date(Date.now() - 31 * 86_400_000);
      await db
        .update(listings)
        .set({ foundAt: old })
        .where(and(eq(listings.locationId, first.id), eq(listings.directory, 'google')));
      expect(await clearOldFoundValues(db, new Date())).toBeGreaterThanOrEqual(1);
      const [google] = (await rowsOf(first.id)).filter((r) => r.directory === 'google');
      expect(google).toMatchObject({ foundPhone: null, foundName: null, foundAt: null, phoneMatch: false, score: 75 });
      expect(google?.externalId).toMatch(/^place_/);
    });

    it('the weekly schedule scans a client a week after its last scan, and not before', async () => {
      const db = ctx.database.db;
      const count = async () => (await db.select().from(listingScans).where(eq(listingScans.clientId, clientId))).length;
      const n = await count();
      await scheduleWeeklyScans(db, new Date(Date.now() + 86_400_000));
      expect(await count()).toBe(n);
      await scheduleWeeklyScans(db, new Date(Date.now() + 8 * 86_400_000));
      const scans = await db.select().from(listingScans).where(eq(listingScans.clientId, clientId));
      expect(scans).toHaveLength(n + 1);
      expect(scans.find((s) => s.requestedBy === null && s.status === 'queued')).toBeTruthy();
    });
  });
}
