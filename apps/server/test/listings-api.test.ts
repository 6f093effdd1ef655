import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listings, systemLogs } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';
import { type BedLocation, listingClient } from './listings-bed.ts';

type Row = {
  id: number;
  listing_status: string;
  directory: string;
  score: number | null;
  phone_match: boolean | null;
  updated_at: string;
  listing_url: string | null;
  note: string | null;
  is_mine: boolean | null;
  location_id: string;
};

/**
 * The Listings Tool's list, filters, row actions and fix list, on listings scanned from the
 * built-in demo directory (no provider keys): every action audited, bad input refused naming the
 * field as the screen labels it.
 */
for (const kind of testDatabaseKinds()) {
  describe(`Listings Tool API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    let locs: BedLocation[];
    const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
      ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const list = async (query: string) => {
      const res = await send('GET', `/api/listings?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: Row[]; total: number; nextCursor: string | null };
    };
    const oneOf = async (query: string) => {
      const [row] = (await list(query)).data;
      if (!row) throw new Error(`no listing for ${query}`);
      return row;
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      ({ clientId, locations: locs } = await listingClient(ctx.database.db, 'Tool', 3));
      expect((await send('PUT', `/api/users/switch-client/${clientId}`)).statusCode).toBe(200);
      expect((await send('POST', '/api/listings/scan', {})).statusCode).toBe(202);
      await ctx.app.jobs.runDue();
    });
    afterAll(() => ctx.close());

    it("lists the current client's listings by location, keyset-paged, with every directory", async () => {
      const all = await list('perPage=200');
      expect(all.total).toBeGreaterThanOrEqual(30);
      expect(new Set(all.data.map((r) => r.location_id))).toEqual(new Set(locs.map((l) => l.id)));
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const page: { data: Row[]; nextCursor: string | null } = await list(`perPage=7${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...page.data.map((r) => r.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(all.data.map((r) => r.id));
      expect(new Set(seen).size).toBe(seen.length);
    });

    it('filters by location, directory, status and Score below; a bad Score below is refused naming it', async () => {
      const [first] = locs;
      if (!first) throw new Error('bed');
      const one = await list(`location=${first.id}&directory=google,yelp`);
      expect(one.data.every((r) => r.location_id === first.id && ['google', 'yelp'].includes(r.directory))).toBe(true);
      const low = await list('score_below=80&perPage=200');
      expect(low.data.length).toBeGreaterThan(0);
      expect(low.data.every((r) => r.score !== null && r.score < 80)).toBe(true);
      // Every demo location has one directory with an old phone (the demo directory's rule).
      const phones = (await list('status=needs_update&perPage=200')).data.filter((r) => r.phone_match === false);
      expect(new Set(phones.map((r) => r.location_id)).size).toBe(3);
      for (const bad of ['abc', '101', '-1', '5.5']) {
        const res = await send('GET', `/api/listings?score_below=${bad}`);
        expect(res.statusCode).toBe(400);
        expect(JSON.stringify(res.json().errors.score_below)).toMatch(/The Score below field must be/);
      }
      expect((await send('GET', '/api/listings?directory=myspace')).statusCode).toBe(400);
    });

    it('Set listing URL checks the url rule and changes the row, audited', async () => {
      const row = await oneOf('directory=bing&perPage=1');
      const bad = await send('POST', `/api/listings/${row.id}/url`, { listing_url: 'not a url' });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors.listing_url[0]).toMatch(/^The Listing URL field/);
      const ok = await send('POST', `/api/listings/${row.id}/url`, {
        listing_url: 'https://www.bing.com/maps?ss=ypid.YN1',
        updated_at: row.updated_at,
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data.listing_url).toBe('https://www.bing.com/maps?ss=ypid.YN1');
      // A stale version is a conflict, not an overwrite.
      const stale = await send('POST', `/api/listings/${row.id}/url`, { listing_url: 'https://example.com/x', updated_at: row.updated_at });
      expect(stale.statusCode).toBe(409);
      const [audit] = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'listing.url'), eq(systemLogs.entityId, String(row.id))));
      expect(audit?.after).toMatchObject({ listing_url: 'https://www.bing.com/maps?ss=ypid.YN1' });
      // The next scan keeps the URL a person set.
      await send('POST', '/api/listings/scan', {});
      await ctx.app.jobs.runDue();
      const [after] = await ctx.database.db.select().from(listings).where(eq(listings.id, row.id));
      expect(after?.listingUrl).toBe('https://www.bing.com/maps?ss=ypid.YN1');
    });

    it('Mark updated makes it pending with its note; Not mine suppresses, Mine restores; Flag duplicate', async () => {
      const row = (await list('status=needs_update&perPage=200')).data.find((r) => r.phone_match === false);
      if (!row) throw new Error('no phone mismatch');
      const tooLong = await send('POST', `/api/listings/${row.id}/updated`, { note: 'x'.repeat(501) });
      expect(tooLong.statusCode).toBe(422);
      expect(tooLong.json().errors.note[0]).toMatch(/^The Note field may not be greater than 500/);
      const updated = await send('POST', `/api/listings/${row.id}/updated`, { note: 'New number sent to the directory' });
      expect(updated.json().data).toMatchObject({ listing_status: 'pending_update', note: 'New number sent to the directory' });
      // A rescan that still finds the old phone keeps it pending.
      await send('POST', '/api/listings/scan', { location_id: row.location_id });
      await ctx.app.jobs.runDue();
      expect((await oneOf(`location=${row.location_id}&directory=${row.directory}&status=pending_update`)).id).toBe(row.id);

      const notMine = await send('POST', `/api/listings/${row.id}/not-mine`, {});
      expect(notMine.json().data).toMatchObject({ listing_status: 'suppressed', is_mine: false });
      expect((await send('POST', `/api/listings/${row.id}/not-mine`, {})).statusCode).toBe(409);
      expect((await send('POST', `/api/listings/${row.id}/updated`, {})).statusCode).toBe(409);
      const mine = await send('POST', `/api/listings/${row.id}/mine`, {});
      expect(mine.json().data).toMatchObject({ listing_status: 'needs_update', is_mine: true });

      const dupTarget = await send('POST', `/api/listings/${row.id}/duplicate`, { duplicate_of_id: row.id });
      expect(dupTarget.statusCode).toBe(422);
      expect(dupTarget.json().errors.duplicate_of_id[0]).toMatch(/^The Duplicate of field/);
      const actions = await ctx.database.db
        .select({ action: systemLogs.action })
        .from(systemLogs)
        .where(eq(systemLogs.entityId, String(row.id)));
      expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['listing.updated', 'listing.not_mine', 'listing.mine']));
    });

    it("another client's listing is not found; Scan now of another client's location is refused naming Location", async () => {
      const foreign = await listingClient(ctx.database.db, 'Other', 1);
      const [loc] = foreign.locations;
      if (!loc) throw new Error('bed');
      const [theirs] = await ctx.database.db
        .insert(listings)
        .values({ clientId: foreign.clientId, locationId: loc.id, directory: 'bbb', status: 'not_found' })
        .returning({ id: listings.id });
      expect((await send('POST', `/api/listings/${theirs?.id}/mine`, {})).statusCode).toBe(404);
      expect((await list(`location=${loc.id}`)).data).toHaveLength(0);
      const scan = await send('POST', '/api/listings/scan', { location_id: loc.id });
      expect(scan.statusCode).toBe(422);
      expect(scan.json().errors.location_id[0]).toMatch(/^The Location field/);
      expect((await send('POST', '/api/listings/scan', { location_id: 'nope' })).statusCode).toBe(400);
      expect((await send('POST', '/api/listings/999999/mine', {})).statusCode).toBe(404);
    });

    it('the fix list has one row per field that does not match, with our value and the directory’s', async () => {
      const res = await send('GET', '/api/listings/fix-list');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/csv/);
      const lines = res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      expect(lines[0]).toBe('Location,Directory,Listing URL,Field,Our value,Directory value,Status,Last checked');
      const phoneRows = lines.filter((l) => l.includes(',Phone,'));
      expect(phoneRows.length).toBeGreaterThanOrEqual(3);
      expect(phoneRows[0]).toMatch(/\+1303555\d{4},\(303\) 555-\d{4}/);
      expect(lines.some((l) => l.includes(',Name,'))).toBe(false);
      const audit = await ctx.database.db.select().from(systemLogs).where(eq(systemLogs.action, 'listing.fix_list'));
      expect(audit).toHaveLength(1);
      // The kit's export of the list, under the screen's headers.
      const csv = await send('GET', '/api/listings/export?directory=google');
      expect(csv.body).toMatch(/Location,Directory,Status,Score %,Name match,.*,Mismatched fields,Listing URL,Last checked/);
      expect(csv.body).toMatch(/Google Business Profile/);
    });
  });
}
