import { AMPLIFICATION_WINDOW_DAYS, MATCH_THRESHOLDS } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { type MatchScore, memoized, type ReviewFacts, scoreMatch, WEIGHTS } from './score.ts';

/** Candidates read per review at most: the newest invitations of its location and site in its window. */
const CANDIDATES_PER_REVIEW = 500;

/** A review to match, as scoring and the lanes (match.ts) need it. */
export type ReviewToMatch = ReviewFacts & { id: number; locationId: string; site: string };

export type Pair = { reviewId: number; ampId: number; clicked: boolean; invitedAt: number; match: MatchScore };

const textOr = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The reviews given that no invitation holds yet (a matched one is skipped: the job may run twice). */
export async function reviewsToMatch(db: Db, reviewIds: readonly number[]): Promise<ReviewToMatch[]> {
  if (reviewIds.length === 0) return [];
  const rows = rowsOf(
    await db.execute(sql`
      select rv.id, rv.location_id, rv.site, rv.author_name, rv.text, floor(extract(epoch from rv.review_created_at) * 1000)::bigint as created_ms
        from reviews rv
       where rv.id = any(${sql.param(reviewIds)}::bigint[])
         and not exists (select 1 from amplifications m where m.review_id = rv.id)`),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    locationId: String(r.location_id),
    site: String(r.site),
    authorName: String(r.author_name),
    createdAt: new Date(Number(r.created_ms)),
    text: textOr(r.text),
  }));
}

/**
 * Every scored (review, invitation) pair of the reviews given that reaches a suggestion.
 * Candidates, one lateral read per review: invitations of the review's location and site invited
 * before the review and at most AMPLIFICATION_WINDOW_DAYS earlier, clicked or with the reviewer's
 * first initial — without either, a pair scores under MATCH_THRESHOLDS.suggest whatever else it has
 * (score.ts WEIGHTS), so it is not read at all. Open ones (invited, clicked) come from
 * amplifications_open_idx; `not_posted` ones from amplifications_not_posted_idx, for a review
 * written inside their window but stored after it closed (a lagging pull, docs/decisions/049
 * "Late reviews"). For a review written now that second range holds only the invitations closed
 * since, so it costs next to nothing.
 */
export async function scoredPairs(db: Db, reviews: readonly ReviewToMatch[]): Promise<Pair[]> {
  if (reviews.length === 0) return [];
  const facts = new Map(reviews.map((r) => [r.id, r]));
  const window = sql`a.location_id = rv.location_id and a.site = rv.site
             and a.invited_at <= rv.review_created_at
             and a.invited_at >= rv.review_created_at - make_interval(days => ${AMPLIFICATION_WINDOW_DAYS})
             and (a.clicked_at is not null or lower(left(a.customer_name, 1)) = lower(left(ltrim(rv.author_name), 1)))`;
  // Times as epoch milliseconds in bigints: far cheaper for the driver than timestamps, on every candidate row.
  const rows = rowsOf(
    await db.execute(sql`
      select rv.id as review_id, c.id as amp_id, c.customer_name, c.response_id,
             floor(extract(epoch from c.invited_at) * 1000)::bigint as invited_ms, floor(extract(epoch from c.clicked_at) * 1000)::bigint as clicked_ms
        from reviews rv
        cross join lateral (
          select u.* from (
            (select a.id, a.customer_name, a.invited_at, a.clicked_at, a.response_id from amplifications a
              where a.status in ('invited', 'clicked') and ${window}
              order by a.invited_at desc limit ${CANDIDATES_PER_REVIEW})
            union all
            (select a.id, a.customer_name, a.invited_at, a.clicked_at, a.response_id from amplifications a
              where a.status = 'not_posted' and ${window}
              order by a.invited_at desc limit ${CANDIDATES_PER_REVIEW})) u
          order by u.invited_at desc
          limit ${CANDIDATES_PER_REVIEW}) c
       where rv.id = any(${sql.param([...facts.keys()])}::bigint[])`),
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
      where comment is not null and id = any(${sql.param(responseIds)}::int[])`),
  );
  return new Map(rows.map((r) => [Number(r.id), String(r.comment)]));
}
