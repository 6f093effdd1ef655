import { AMPLIFICATION_WINDOW_DAYS, MATCH_THRESHOLDS } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { type MatchScore, memoized, scoreMatch, WEIGHTS } from './score.ts';

/** Candidates read per review at most: the newest open invitations of its location and site. */
const CANDIDATES_PER_REVIEW = 500;
/** Rounds a review may retry after another worker took the invitation it chose. */
const ROUNDS = 3;

type Pair = { reviewId: number; ampId: number; clicked: boolean; invitedAt: number; match: MatchScore };

const textOr = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * Every scored (review, open invitation) pair of the reviews given that reaches a suggestion.
 * Candidates (one lateral read per review on amplifications_open_idx): open invitations of the
 * review's location and site, invited before the review and at most AMPLIFICATION_WINDOW_DAYS
 * earlier, clicked or with the reviewer's first initial — without either, a pair scores under
 * MATCH_THRESHOLDS.suggest whatever else it has (score.ts WEIGHTS), so it is not read at all.
 * Reviews already matched are skipped.
 */
async function scoredPairs(db: Db, reviewIds: readonly number[]): Promise<Pair[]> {
  const ids = JSON.stringify(reviewIds);
  const reviewRows = rowsOf(
    await db.execute(sql`
      select rv.id, rv.author_name, rv.text, extract(epoch from rv.review_created_at) * 1000 as created_ms
        from reviews rv
       where rv.id in (select jsonb_array_elements_text(${ids}::jsonb)::bigint)
         and not exists (select 1 from amplifications m where m.review_id = rv.id)`),
  );
  if (reviewRows.length === 0) return [];
  const facts = new Map(
    reviewRows.map((r) => [
      Number(r.id),
      { authorName: String(r.author_name), createdAt: new Date(Number(r.created_ms)), text: textOr(r.text) },
    ]),
  );
  // Times as epoch milliseconds: far cheaper for the driver than timestamps, on every candidate row.
  const rows = rowsOf(
    await db.execute(sql`
      select rv.id as review_id, c.id as amp_id, c.customer_name, c.response_id,
             extract(epoch from c.invited_at) * 1000 as invited_ms, extract(epoch from c.clicked_at) * 1000 as clicked_ms
        from reviews rv
        cross join lateral (
          select a.id, a.customer_name, a.invited_at, a.clicked_at, a.response_id
            from amplifications a
           where a.location_id = rv.location_id and a.site = rv.site
             and a.status in ('invited', 'clicked')
             and a.invited_at <= rv.review_created_at
             and a.invited_at >= rv.review_created_at - make_interval(days => ${AMPLIFICATION_WINDOW_DAYS})
             and (a.clicked_at is not null or lower(left(a.customer_name, 1)) = lower(left(ltrim(rv.author_name), 1)))
           order by a.invited_at desc
           limit ${CANDIDATES_PER_REVIEW}) c
       where rv.id in (${sql.join(
         [...facts.keys()].map((id) => sql`${id}`),
         sql`, `,
       )})`),
  );
  const derive = memoized();
  const scored = rows.map((r) => {
    const clickedAt = r.clicked_ms === null ? null : new Date(Number(r.clicked_ms));
    const candidate = { customerName: String(r.customer_name), invitedAt: new Date(Number(r.invited_ms)), clickedAt, comment: null };
    return { r, candidate, review: facts.get(Number(r.review_id)), match: null as MatchScore | null };
  });
  // The survey comment is read only for pairs its points (at most WEIGHTS.comment) could lift to a
  // suggestion or that are one already (there it sets the order and is kept among the parts).
  const near = (score: number) => score + WEIGHTS.comment >= MATCH_THRESHOLDS.suggest;
  const needComment = new Set<number>();
  for (const s of scored) {
    if (!s.review) continue;
    s.match = scoreMatch(s.candidate, s.review, derive);
    if (s.review.text && near(s.match.score)) needComment.add(Number(s.r.response_id));
  }
  const comments = await commentsOf(db, [...needComment]);
  const pairs: Pair[] = [];
  for (const s of scored) {
    if (!s.review || !s.match) continue;
    const comment = comments.get(Number(s.r.response_id));
    const match = comment ? scoreMatch({ ...s.candidate, comment }, s.review, derive) : s.match;
    if (match.score < MATCH_THRESHOLDS.suggest) continue;
    pairs.push({
      reviewId: Number(s.r.review_id),
      ampId: Number(s.r.amp_id),
      clicked: s.candidate.clickedAt !== null,
      invitedAt: s.candidate.invitedAt.getTime(),
      match,
    });
  }
  return pairs;
}

/** The survey comments of the responses given (those without one are absent). */
async function commentsOf(db: Db, responseIds: readonly number[]): Promise<Map<number, string>> {
  if (responseIds.length === 0) return new Map();
  const rows = rowsOf(
    await db.execute(sql`select id, comment from survey_responses
      where comment is not null and id in (select jsonb_array_elements_text(${JSON.stringify(responseIds)}::jsonb)::int)`),
  );
  return new Map(rows.map((r) => [Number(r.id), String(r.comment)]));
}

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

export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; typeof e === 'object' && e !== null && depth < 3; depth++) {
    if ('code' in e && e.code === '23505') return true;
    e = 'cause' in e ? e.cause : null;
  }
  return false;
}

const asRecords = (pairs: readonly Pair[]) =>
  JSON.stringify(pairs.map((p) => ({ amp_id: p.ampId, review_id: p.reviewId, score: p.match.score, reasons: p.match.reasons })));

/**
 * Marks invitations posted with their review, in one statement. Conditional: an invitation still
 * open and unmatched, a review matched nowhere — another worker may have taken either since they
 * were read; the unique index amplifications_review_uq settles two workers matching one review at
 * once (the loser's statement fails, and then each pair is tried alone). Answers the pairs written.
 */
async function writeMatches(db: Db, pairs: readonly Pair[], now: Date): Promise<Set<number>> {
  const statement = (records: string) => sql`
    update amplifications a
       set status = 'posted', review_id = v.review_id, match_confidence = v.score, match_reasons = v.reasons,
           matched_by = 'auto', matched_by_user_id = null, suggested_review_id = null, suggested_confidence = null,
           updated_at = ${now.toISOString()}::timestamptz
      from jsonb_to_recordset(${records}::jsonb) as v(amp_id bigint, review_id bigint, score int, reasons jsonb)
     where a.id = v.amp_id and a.status in ('invited', 'clicked') and a.review_id is null
       and not exists (select 1 from amplifications m where m.review_id = v.review_id)
    returning a.id`;
  const written = new Set<number>();
  if (pairs.length === 0) return written;
  try {
    for (const r of rowsOf(await db.execute(statement(asRecords(pairs))))) written.add(Number(r.id));
    return written;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  for (const pair of pairs) {
    try {
      for (const r of rowsOf(await db.execute(statement(asRecords([pair]))))) written.add(Number(r.id));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return written;
}

/**
 * Once a review is matched, other open invitations of its location and site that suggested it no
 * longer do (a person would be offered a review taken already). Read on amplifications_open_idx:
 * the location's open invitations on that site, not the whole table.
 */
export async function clearSuggestionsOf(db: Db, matchedAmpIds: readonly number[], now: Date): Promise<void> {
  if (matchedAmpIds.length === 0) return;
  // The lateral keeps the planner on the index, one location and site at a time (a join over the
  // table scanned every open invitation: ~50 ms a batch at 1,000,000, bench/reputation/match.ts).
  await db.execute(sql`
    update amplifications
       set suggested_review_id = null, suggested_confidence = null, updated_at = ${now.toISOString()}::timestamptz
     where id in (
       select x.id
         from amplifications m
         cross join lateral (
           select s.id from amplifications s
            where s.location_id = m.location_id and s.site = m.site and s.status in ('invited', 'clicked')
              and s.suggested_review_id = m.review_id) x
        where m.id in (select jsonb_array_elements_text(${JSON.stringify(matchedAmpIds)}::jsonb)::bigint)
          and m.review_id is not null)`);
}

/** A 40–69 candidate for a person to confirm, kept on the invitation unless it holds a better one. */
async function writeSuggestions(db: Db, pairs: readonly Pair[], now: Date): Promise<void> {
  if (pairs.length === 0) return;
  await db.execute(sql`
    update amplifications a
       set suggested_review_id = v.review_id, suggested_confidence = v.score, updated_at = ${now.toISOString()}::timestamptz
      from jsonb_to_recordset(${asRecords(pairs)}::jsonb) as v(amp_id bigint, review_id bigint, score int, reasons jsonb)
     where a.id = v.amp_id and a.status in ('invited', 'clicked') and a.review_id is null
       and (a.suggested_confidence is null or a.suggested_confidence <= v.score)`);
}

/**
 * The `match-review` job for a batch of reviews (pipeline.md "Reviews"): each review's best open
 * invitation at or above MATCH_THRESHOLDS.auto becomes `posted` (matched_by auto, the score and its
 * parts kept); from MATCH_THRESHOLDS.suggest it is suggested; below, nothing. Safe to run twice and
 * on several workers at once. Answers how many reviews were matched.
 */
export async function matchReviews(db: Db, reviewIds: readonly number[], now: Date): Promise<number> {
  let pending = [...new Set(reviewIds)];
  let matched = 0;
  for (let round = 0; round < ROUNDS && pending.length > 0; round++) {
    const chosen = assign(await scoredPairs(db, pending));
    const auto = chosen.filter((p) => p.match.score >= MATCH_THRESHOLDS.auto);
    const written = await writeMatches(db, auto, now);
    matched += written.size;
    await clearSuggestionsOf(db, [...written], now);
    await writeSuggestions(
      db,
      chosen.filter((p) => p.match.score < MATCH_THRESHOLDS.auto),
      now,
    );
    // A review whose invitation another worker took meanwhile tries its next best.
    pending = auto.filter((p) => !written.has(p.ampId)).map((p) => p.reviewId);
  }
  return matched;
}
