import { LISTING_DIRECTORIES } from '@admin/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingScans, listings, locations } from '../src/db/schema/index.ts';
import { demoListing, scenarioOf } from '../src/listings/demo-directory.ts';
import { startTestApp, type TestContext } from './helpers.ts';

/** The demo data's listings: scanned from the demo directory by the product's scan, with realistic mismatches. */
describe('Listings demo data', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp('pglite');
  });
  afterAll(() => ctx.close());

  it('the demo directory is deterministic and every location has one directory with an old phone', () => {
    const id = 'a1b2c3d4e5f6a1b2c3d4e5f6';
    const scenarios = LISTING_DIRECTORIES.map((d) => scenarioOf(id, d.value));
    expect(scenarios).toEqual(LISTING_DIRECTORIES.map((d) => scenarioOf(id, d.value)));
    expect(scenarios).toContain('old_phone');
    const target = {
      locationId: id,
      canonical: {
        name: 'A & B',
        address: '12 Oak Street, Denver, CO 80202',
        phone: '+13035550142',
        website: null,
        hours: null,
        country: 'US',
      },
      parts: { address1: '12 Oak Street', city: 'Denver', state: 'CO', postalCode: '80202', country: 'US' },
      googlePlaceId: null,
      knownIds: [],
    };
    expect(demoListing(target, 'google')).toEqual(demoListing(target, 'google'));
  });

  it('every active client has a finished scan and every one of its locations a listing per directory', async () => {
    const db = ctx.database.db;
    const scans = await db.select().from(listingScans);
    expect(scans.length).toBeGreaterThan(5);
    expect(scans.every((s) => s.status === 'succeeded' && s.done === s.total && s.requestedBy === null)).toBe(true);
    const active = await db.select({ id: locations.id }).from(locations).where(eq(locations.status, 'active'));
    const rows = await db.select().from(listings);
    for (const { id } of active.slice(0, 10)) {
      const mine = rows.filter((r) => r.locationId === id);
      expect(new Set(mine.map((r) => r.directory)).size).toBe(LISTING_DIRECTORIES.length);
      expect(mine.some((r) => r.phoneMatch === false)).toBe(true);
    }
    // The realistic spread: every status a scan gives, and the kinds of mismatch.
    const statuses = new Set(rows.map((r) => r.status));
    for (const s of ['accurate', 'needs_update', 'not_found', 'duplicate', 'unclaimed']) expect(statuses).toContain(s);
    expect(rows.some((r) => r.hoursMatch === false || r.websiteMatch === false)).toBe(true);
    expect(rows.some((r) => r.addressMatch === false)).toBe(true);
  });
});
