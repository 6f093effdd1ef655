import { createHash } from 'node:crypto';
import { LISTING_DIRECTORIES, type ListingDirectory } from '@admin/shared';
import type { Found } from './compare.ts';
import { ALL_FIELDS, type ListingSource, type ScanTarget } from './sources.ts';

/**
 * The built-in demo directory (pipeline.md "Listings"): offline and deterministic, it answers for
 * every directory what a real one might hold for a location, derived from the location's own
 * record with a seeded hash — mostly right but written differently ("St" for "Street", "and" for
 * "&", a national phone format), and sometimes wrong the ways listings go wrong: an old phone, an
 * old address, missing hours, another website, a duplicate, unclaimed, or nothing at all. Used by
 * the demo data, and for a directory without an adapter or without its key only when configuration
 * says so (`LISTINGS_DEMO_DIRECTORY`, as `DEMO_DATA` by default): it is invented data.
 */

const HOSTS: Record<ListingDirectory, string> = {
  google: 'maps.google.com/?cid=',
  bing: 'www.bing.com/maps?ss=ypid.',
  apple: 'maps.apple.com/place?id=',
  facebook: 'www.facebook.com/',
  yelp: 'www.yelp.com/biz/',
  yellow_pages: 'www.yellowpages.com/mip/',
  bbb: 'www.bbb.org/profile/',
  foursquare: 'foursquare.com/v/',
  data_axle: 'www.data-axle.com/listing/',
  neustar: 'www.neustarlocaleze.biz/listing/',
};

export type DemoScenario =
  | 'accurate'
  | 'old_phone'
  | 'missing_hours'
  | 'other_website'
  | 'duplicate'
  | 'not_found'
  | 'unclaimed'
  | 'old_address';

/** A number 0–2³²−1 from the text: the same location and directory always give the same answer. */
export const seeded = (text: string): number => createHash('sha256').update(text).digest().readUInt32BE(0);

/**
 * The scenario of one location on one directory. Every location has one directory with an old
 * phone (the one its hash picks), so each shows the commonest mismatch; the others draw from a
 * spread where most listings are right.
 */
export function scenarioOf(locationId: string, directory: ListingDirectory): DemoScenario {
  const index = LISTING_DIRECTORIES.findIndex((d) => d.value === directory);
  if (seeded(locationId) % LISTING_DIRECTORIES.length === index) return 'old_phone';
  const n = seeded(`${locationId}:${directory}`) % 100;
  if (n < 45) return 'accurate';
  if (n < 53) return 'old_phone';
  if (n < 62) return 'missing_hours';
  if (n < 69) return 'other_website';
  if (n < 76) return 'duplicate';
  if (n < 84) return 'not_found';
  if (n < 92) return 'unclaimed';
  return 'old_address';
}

/** USPS-style abbreviations a directory writes for what the location spells out, and back. */
const ABBREVIATIONS: [RegExp, string][] = [
  [/\bStreet\b/g, 'St'],
  [/\bAvenue\b/g, 'Ave'],
  [/\bBoulevard\b/g, 'Blvd'],
  [/\bRoad\b/g, 'Rd'],
  [/\bDrive\b/g, 'Dr'],
  [/\bSuite\b/g, 'Ste'],
  [/\bNorth\b/g, 'N'],
  [/\bSouth\b/g, 'S'],
];
const abbreviated = (address: string) => ABBREVIATIONS.reduce((a, [from, to]) => a.replace(from, to), address);

/** The same number with other last four digits: the line the business had before. */
function oldPhone(phone: string, seed: number): string {
  const digits = phone.replace(/\D/g, '');
  const last = Number(digits.slice(-4));
  const other = String((last + 1 + (seed % 8998)) % 10000).padStart(4, '0');
  return `${phone.slice(0, phone.length - 4)}${other}`;
}

/** `+13035550142` → `(303) 555-0142`, as US directories print it. */
const national = (phone: string) => {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(phone);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : phone;
};

/** `44 Oak Avenue, …` → `1044 Oak Avenue, …`: the address before a move. */
const movedAddress = (address: string, seed: number) => address.replace(/^(\d+)/, (n) => String(Number(n) + 10 + (seed % 90)));

export function demoListing(target: ScanTarget, directory: ListingDirectory): Found[] {
  const scenario = scenarioOf(target.locationId, directory);
  if (scenario === 'not_found') return [];
  const seed = seeded(`${target.locationId}:${directory}:id`);
  const { canonical } = target;
  const slug = `${canonical.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${seed.toString(36)}`;
  const base: Found = {
    externalId: `demo-${directory}-${seed.toString(36)}`,
    url: `https://${HOSTS[directory]}${slug}`,
    name: seed % 2 === 0 ? canonical.name.replace(/&/g, 'and') : canonical.name,
    address: seed % 3 === 0 ? canonical.address : abbreviated(canonical.address),
    phone: national(canonical.phone),
    website: canonical.website,
    hours: canonical.hours,
    claimed: true,
  };
  switch (scenario) {
    case 'accurate':
      return [base];
    case 'old_phone':
      return [{ ...base, phone: national(oldPhone(canonical.phone, seed)) }];
    case 'missing_hours':
      return [{ ...base, hours: null }];
    case 'other_website':
      return [{ ...base, website: `https://www.${slug}.example.net` }];
    case 'unclaimed':
      return [{ ...base, claimed: false }];
    case 'old_address':
      return [{ ...base, address: movedAddress(canonical.address, seed) }];
    case 'duplicate':
      // A second listing of the same business at its old address: same name and phone.
      return [
        base,
        {
          ...base,
          externalId: `${base.externalId}-2`,
          url: `${base.url}-2`,
          address: movedAddress(canonical.address, seed),
          claimed: false,
        },
      ];
  }
}

/** The demo directory as an adapter of one directory. */
export const demoSource = (directory: ListingDirectory): ListingSource => ({
  directory,
  connected: true,
  provides: ALL_FIELDS,
  lookup: async (target) => demoListing(target, directory),
});
