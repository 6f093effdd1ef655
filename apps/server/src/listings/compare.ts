import type { ListingField, ListingStatus } from '@admin/shared';
import type { Canonical } from '../modules/listings/canonical.ts';
import { type Hours, normaliseAddress, normaliseName, normalisePhone, normaliseWebsite, sameHours } from './normalise.ts';

/**
 * One listing compared with its location (pipeline.md "Listings"): a verdict per field (true,
 * false, or null when not compared), a score 0–100 and a status. Weights and rules:
 * docs/decisions/052-listings-scan-and-score.md.
 */

export type { Canonical };

/** What a directory holds for a location, as an adapter reads it. */
export type Found = {
  externalId: string | null;
  url: string | null;
  name: string | null;
  address: string | null;
  phone: string | null;
  website: string | null;
  hours: Hours | null;
  /** false when the directory says nobody has claimed the listing; null when it does not say. */
  claimed: boolean | null;
};

/** Name, address and phone carry most of the score; website and hours the rest (Uberall's "required" vs "bonus"). */
export const FIELD_WEIGHTS: Record<ListingField, number> = { name: 30, address: 30, phone: 25, website: 10, hours: 5 };
export const CRITICAL_FIELDS: readonly ListingField[] = ['name', 'address', 'phone'];

export type Verdicts = Record<ListingField, boolean | null>;

/**
 * Each field's verdict. A field the location does not have, or the directory does not carry
 * (`provides`), is not compared (null); one the directory could carry but leaves empty is a
 * mismatch (an incomplete listing).
 */
export function compareFields(canonical: Canonical, found: Found, provides: readonly ListingField[]): Verdicts {
  const verdict = <T>(field: ListingField, ours: T | null, theirs: T | null, same: (a: T, b: T) => boolean): boolean | null => {
    if (ours === null || !provides.includes(field)) return null;
    if (theirs === null) return false;
    return same(ours, theirs);
  };
  const eq = (a: string | null, b: string | null) => a !== null && a === b;
  return {
    name: verdict('name', canonical.name, found.name, (a, b) => normaliseName(a) === normaliseName(b)),
    address: verdict('address', canonical.address, found.address, (a, b) => normaliseAddress(a) === normaliseAddress(b)),
    phone: verdict('phone', canonical.phone, found.phone, (a, b) =>
      eq(normalisePhone(a, canonical.country), normalisePhone(b, canonical.country)),
    ),
    website: verdict('website', canonical.website, found.website, (a, b) => eq(normaliseWebsite(a), normaliseWebsite(b))),
    hours: verdict('hours', canonical.hours, found.hours, sameHours),
  };
}

/** The weighted share of compared fields that match, 0–100; null when nothing was compared. */
export function scoreOf(v: Verdicts): number | null {
  let total = 0;
  let matched = 0;
  for (const [field, match] of Object.entries(v) as [ListingField, boolean | null][]) {
    if (match === null) continue;
    total += FIELD_WEIGHTS[field];
    if (match) matched += FIELD_WEIGHTS[field];
  }
  return total === 0 ? null : Math.round((matched / total) * 100);
}

/** How many of name, address and phone match: two of three is the same business (Yext's duplicate rule). */
export const napMatches = (v: Verdicts): number => CRITICAL_FIELDS.filter((f) => v[f] === true).length;

/**
 * The status a scan gives: what a person said stays (Not mine → suppressed, a flagged duplicate,
 * Mark updated → pending_update until the directory shows every field right); otherwise accurate
 * when every compared field matches, unclaimed when the directory says nobody claimed it, else
 * needs_update.
 */
export function statusOf(
  v: Verdicts,
  found: Pick<Found, 'claimed'>,
  kept: { isMine: boolean | null; duplicateOfId: number | null; status: ListingStatus | null },
): ListingStatus {
  if (kept.isMine === false) return 'suppressed';
  if (kept.duplicateOfId !== null) return 'duplicate';
  const accurate = Object.values(v).every((m) => m !== false);
  if (kept.status === 'pending_update' && !accurate) return 'pending_update';
  if (found.claimed === false) return 'unclaimed';
  return accurate ? 'accurate' : 'needs_update';
}
