import { AMPLIFICATION_WINDOW_DAYS } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import type { Pair } from './pairs.ts';

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
 * unmatched and open — or `not_posted`, for a late review (pairs.ts reads those only inside their
 * window) — and a review matched nowhere: another worker may have taken either since they were
 * read; the unique index amplifications_review_uq settles two workers matching one review at once
 * (the loser's statement fails, and then each pair is tried alone). Answers the invitations written.
 */
export async function writeMatches(db: Db, pairs: readonly Pair[], now: Date): Promise<Set<number>> {
  const statement = (records: string) => sql`
    update amplifications a
       set status = 'posted', review_id = v.review_id, match_confidence = v.score, match_reasons = v.reasons,
           matched_by = 'auto', matched_by_user_id = null, suggested_review_id = null, suggested_confidence = null,
           updated_at = ${now.toISOString()}::timestamptz
      from jsonb_to_recordset(${records}::jsonb) as v(amp_id bigint, review_id bigint, score int, reasons jsonb)
     where a.id = v.amp_id and a.status in ('invited', 'clicked', 'not_posted') and a.review_id is null
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
 * Once a review is matched, other unmatched invitations of its location and site that suggested it
 * no longer do (a person would be offered a review taken already). The matched invitations are
 * read first by their ids (a materialised step: left to itself the planner walked every matched
 * invitation, ~80 ms a batch once 10,000 were matched, bench/reputation/match.ts), then each
 * location and site's open invitations on amplifications_open_idx and its `not_posted` ones inside
 * the review's window (the only ones a suggestion can sit on) on amplifications_not_posted_idx.
 */
export async function clearSuggestionsOf(db: Db, matchedAmpIds: readonly number[], now: Date): Promise<void> {
  if (matchedAmpIds.length === 0) return;
  await db.execute(sql`
    with m as materialized (
      select a.location_id, a.site, a.review_id, rv.review_created_at as written
        from amplifications a
        join reviews rv on rv.id = a.review_id
       where a.id = any(${sql.param(matchedAmpIds)}::bigint[]))
    update amplifications s
       set suggested_review_id = null, suggested_confidence = null, updated_at = ${now.toISOString()}::timestamptz
      from (
        select x.id
          from m
          cross join lateral (
            select o.id from amplifications o
             where o.location_id = m.location_id and o.site = m.site and o.status in ('invited', 'clicked')
               and o.suggested_review_id = m.review_id
            union all
            select c.id from amplifications c
             where c.location_id = m.location_id and c.site = m.site and c.status = 'not_posted'
               and c.invited_at <= m.written and c.invited_at >= m.written - make_interval(days => ${AMPLIFICATION_WINDOW_DAYS})
               and c.suggested_review_id = m.review_id) x) t
     where s.id = t.id`);
}

/** A 40–69 candidate for a person to confirm, kept on the invitation unless it holds a better one. */
export async function writeSuggestions(db: Db, pairs: readonly Pair[], now: Date): Promise<void> {
  if (pairs.length === 0) return;
  await db.execute(sql`
    update amplifications a
       set suggested_review_id = v.review_id, suggested_confidence = v.score, updated_at = ${now.toISOString()}::timestamptz
      from jsonb_to_recordset(${asRecords(pairs)}::jsonb) as v(amp_id bigint, review_id bigint, score int, reasons jsonb)
     where a.id = v.amp_id and a.status in ('invited', 'clicked', 'not_posted') and a.review_id is null
       and (a.suggested_confidence is null or a.suggested_confidence <= v.score)`);
}
