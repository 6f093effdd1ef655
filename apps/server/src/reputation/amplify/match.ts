import { MATCH_THRESHOLDS } from '@admin/shared';
import type { Db } from '../../db/client.ts';
import { type Pair, type ReviewToMatch, reviewsToMatch, scoredPairs } from './pairs.ts';
import { clearSuggestionsOf, writeMatches, writeSuggestions } from './writes.ts';

export { clearSuggestionsOf, isUniqueViolation } from './writes.ts';

/** Rounds a review may retry after another worker took the invitation it chose. */
const ROUNDS = 3;
/**
 * Parts of one batch matched side by side (two: the worker's JavaScript scores one part while the
 * database reads or writes the other; bench/README.md "Review matching").
 */
export const MATCH_LANES = 2;

/** Best first: one review to one invitation and back, the higher score winning; ties go to a click, then to the later invitation. */
export function assign<P extends Pick<Pair, 'reviewId' | 'ampId' | 'clicked' | 'invitedAt'> & { match: { score: number } }>(
  pairs: readonly P[],
): P[] {
  const sorted = [...pairs].sort(
    (a, b) => b.match.score - a.match.score || Number(b.clicked) - Number(a.clicked) || b.invitedAt - a.invitedAt || a.ampId - b.ampId,
  );
  const reviews = new Set<number>();
  const amps = new Set<number>();
  const chosen: P[] = [];
  for (const p of sorted) {
    if (reviews.has(p.reviewId) || amps.has(p.ampId)) continue;
    reviews.add(p.reviewId);
    amps.add(p.ampId);
    chosen.push(p);
  }
  return chosen;
}

/** Which lane a location and site's reviews go to: the same always, so lanes never share an invitation. */
export function laneOf(locationId: string, site: string, lanes: number): number {
  let h = 0;
  for (const ch of `${locationId}\u0000${site}`) h = (Math.imul(h, 31) + (ch.codePointAt(0) ?? 0)) | 0;
  return Math.abs(h) % lanes;
}

/** One lane: its reviews matched in rounds (a review whose invitation another worker took meanwhile tries its next best). */
async function matchLane(db: Db, first: readonly ReviewToMatch[], now: Date): Promise<number> {
  let reviews = first;
  let matched = 0;
  for (let round = 0; round < ROUNDS && reviews.length > 0; round++) {
    const chosen = assign(await scoredPairs(db, reviews));
    const auto = chosen.filter((p) => p.match.score >= MATCH_THRESHOLDS.auto);
    const written = await writeMatches(db, auto, now);
    matched += written.size;
    await clearSuggestionsOf(db, [...written], now);
    await writeSuggestions(
      db,
      chosen.filter((p) => p.match.score < MATCH_THRESHOLDS.auto),
      now,
    );
    const lost = auto.filter((p) => !written.has(p.ampId)).map((p) => p.reviewId);
    reviews = lost.length === 0 ? [] : await reviewsToMatch(db, lost);
  }
  return matched;
}

/**
 * The `match-review` job for a batch of reviews (pipeline.md "Reviews"): each review's best
 * invitation at or above MATCH_THRESHOLDS.auto becomes `posted` (matched_by auto, the score and its
 * parts kept); from MATCH_THRESHOLDS.suggest it is suggested; below, nothing. The batch is split by
 * location and site into MATCH_LANES lanes run at once: reviews of one location and site always
 * share a lane, and only they compete for an invitation, so the outcome is the one a single lane
 * gives. Safe to run twice and on several workers at once. Answers how many reviews were matched.
 */
export async function matchReviews(db: Db, reviewIds: readonly number[], now: Date, lanes = MATCH_LANES): Promise<number> {
  const reviews = await reviewsToMatch(db, [...new Set(reviewIds)]);
  const parts: ReviewToMatch[][] = Array.from({ length: lanes }, () => []);
  for (const r of reviews) parts[laneOf(r.locationId, r.site, lanes)]?.push(r);
  const counts = await Promise.all(parts.filter((p) => p.length > 0).map((p) => matchLane(db, p, now)));
  return counts.reduce((a, b) => a + b, 0);
}
