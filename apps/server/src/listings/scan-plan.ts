import type { ListingStatus } from '@admin/shared';
import type { listings } from '../db/schema/index.ts';
import { type Found, statusOf, type Verdicts } from './compare.ts';

export type ListingRow = typeof listings.$inferSelect;
type Insert = typeof listings.$inferInsert;

/** A candidate compared: what it holds and how it fares. */
export type Judged = { found: Found; verdicts: Verdicts; score: number | null };

type Key = { clientId: number; locationId: string; directory: string };

/**
 * A location's writes, gathered before any is made (./scan-write.ts makes them set-based: one
 * statement per kind), planned from the location's listings as read and locked in the writing
 * transaction. An update is the row's whole new state: what a scan does not change is the locked
 * row's own value, so nothing a person did is written back over.
 */
export type Plan = {
  inserts: Insert[];
  /** New duplicates, and the listing each duplicates: an existing id, or a new listing's external id. */
  duplicates: { row: Insert; of: number | string }[];
  updates: ListingRow[];
  deletes: number[];
};

export const emptyPlan = (): Plan => ({ inserts: [], duplicates: [], updates: [], deletes: [] });

/** The verdicts and found values of a listing as columns. */
const valuesOf = (j: Judged, now: Date) => ({
  foundName: j.found.name,
  foundAddress: j.found.address,
  foundPhone: j.found.phone,
  foundWebsite: j.found.website,
  foundHours: j.found.hours,
  foundAt: now,
  nameMatch: j.verdicts.name,
  addressMatch: j.verdicts.address,
  phoneMatch: j.verdicts.phone,
  websiteMatch: j.verdicts.website,
  hoursMatch: j.verdicts.hours,
  score: j.score,
  lastCheckedAt: now,
  updatedAt: now,
});

/** One directory's answer for the location: its listing, duplicates, or the not-found row. */
export function planDirectory(plan: Plan, key: Key, found: Judged[], known: ListingRow[], now: Date): void {
  const [primary, ...duplicates] = found;
  const missingRow = known.find((k) => k.externalId === null);
  if (!primary) {
    // Nothing there: the listings it had are gone, or the one not-found row (rewritten by each scan).
    const gone = known.filter((k) => k.externalId !== null && k.isMine !== false && k.duplicateOfId === null);
    const notFound = { status: 'not_found', score: 0, lastCheckedAt: now, updatedAt: now } as const;
    for (const g of gone) plan.updates.push({ ...g, ...notFound });
    if (gone.length > 0) return;
    if (missingRow) plan.updates.push({ ...missingRow, ...notFound });
    else plan.inserts.push({ ...key, externalId: null, ...notFound });
    return;
  }
  if (missingRow) plan.deletes.push(missingRow.id);
  const primaryOf = planListing(plan, key, primary, known, null, now);
  for (const dup of duplicates) planListing(plan, key, dup, known, primaryOf, now);
}

const NOTHING_COMPARED = {
  nameMatch: null,
  addressMatch: null,
  phoneMatch: null,
  websiteMatch: null,
  hoursMatch: null,
  score: null,
} as const;

/**
 * A directory the server has no connection to: each of its listings is not checked, without
 * verdicts or score (so it neither helps nor hurts), or one not-checked row when it has none.
 * What a person said stays: Not mine, a flagged duplicate, Mark updated (until a real check).
 * Found values and place ids stay too (found values are cleared 30 days after they were read).
 */
export function planNotChecked(plan: Plan, key: Key, known: ListingRow[], now: Date): void {
  const said = (k: ListingRow): ListingStatus | null =>
    k.isMine === false ? 'suppressed' : k.duplicateOfId !== null ? 'duplicate' : k.status === 'pending_update' ? 'pending_update' : null;
  for (const k of known)
    plan.updates.push({ ...k, ...NOTHING_COMPARED, status: said(k) ?? 'not_checked', lastCheckedAt: now, updatedAt: now });
  if (known.length === 0) plan.inserts.push({ ...key, externalId: null, status: 'not_checked', lastCheckedAt: now, updatedAt: now });
}

/**
 * One found listing's write, keeping what people said of it (mine, duplicate, URL, pending
 * update); answers how a duplicate of it names it (its id, or its external id until inserted).
 */
function planListing(
  plan: Plan,
  key: Key,
  j: Judged,
  known: ListingRow[],
  duplicateOf: number | string | null,
  now: Date,
): number | string {
  const before = known.find((k) => k.externalId === j.found.externalId);
  const flagged = before?.duplicateOfId ?? null;
  // A duplicate's status is duplicate whatever its fields say; which listing it duplicates is set below.
  const kept = {
    isMine: before?.isMine ?? null,
    duplicateOfId: flagged ?? (duplicateOf === null ? null : 0),
    status: (before?.status ?? null) as ListingStatus | null,
  };
  const values = { ...valuesOf(j, now), status: statusOf(j.verdicts, j.found, kept), listingUrl: before?.listingUrl ?? j.found.url };
  if (before) {
    const of = flagged ?? (typeof duplicateOf === 'number' ? duplicateOf : null);
    plan.updates.push({ ...before, ...values, duplicateOfId: of });
    return before.id;
  }
  const row = { ...key, externalId: j.found.externalId, ...values };
  if (duplicateOf === null) plan.inserts.push(row);
  else plan.duplicates.push({ row, of: duplicateOf });
  return j.found.externalId ?? '';
}
