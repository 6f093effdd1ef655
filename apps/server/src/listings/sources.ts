import type { ListingDirectory, ListingField } from '@admin/shared';
import type { Canonical, Found } from './compare.ts';

/** What a scan knows of a location besides its canonical values: its id and the directory ids kept. */
export type ScanTarget = {
  locationId: string;
  canonical: Canonical;
  /** address parts, for providers that search by them (Yelp). */
  parts: { address1: string; city: string; state: string; postalCode: string; country: string };
  /** The Google place id on the location record, if any. */
  googlePlaceId: string | null;
  /** External ids this directory gave before (a place id is kept for good). */
  knownIds: string[];
};

/**
 * A directory's adapter: what it holds for a location, best candidate first (none = not found).
 * `provides` is what the directory can carry at all; the rest is not compared. A directory the
 * server has no connection to (`connected: false`: no adapter, or no key, and the demo directory
 * off) is not read: its listings are written as not checked, outside the score.
 */
export type ListingSource = {
  directory: ListingDirectory;
  connected: boolean;
  provides: readonly ListingField[];
  lookup(target: ScanTarget): Promise<Found[]>;
};

/** A directory without a connection: never read (docs/decisions/052-listings-scan-and-score.md). */
export const notConnected = (directory: ListingDirectory): ListingSource => ({
  directory,
  connected: false,
  provides: [],
  lookup: async () => [],
});

export const ALL_FIELDS: readonly ListingField[] = ['name', 'address', 'phone', 'website', 'hours'];
