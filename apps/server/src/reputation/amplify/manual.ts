import { reviewSiteLabel } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { conflict, fieldsRefused } from '../../lib/http-error.ts';
import { clearSuggestionsOf, isUniqueViolation } from './match.ts';
import type { Amp } from './one.ts';

/** Statuses a person may match by hand: open, or closed unmatched after the window (a late review). */
const MATCHABLE = ['invited', 'clicked', 'not_posted'];
export const MATCH_LABELS = { reviewId: 'Review' };

type Audit = (tx: Db) => Promise<void>;

/**
 * Match review manually: the chosen review must be one of the location's reviews on the invitation's
 * site and held by no other invitation (409 otherwise; the unique index amplifications_review_uq
 * decides a race). The invitation becomes `posted`, matched_by manual and the user; no score.
 */
export async function matchByHand(db: Db, amp: Amp, reviewId: number, userId: number | null, now: Date, audit: Audit): Promise<void> {
  if (amp.reviewId !== null) throw conflict('This invitation is matched to a review already; unmatch it first.');
  if (!MATCHABLE.includes(amp.status)) throw conflict(`An invitation that is ${amp.status.replace('_', ' ')} cannot be matched.`);
  const [review] = rowsOf(
    await db.execute(sql`
      select rv.id, (select m.id from amplifications m where m.review_id = rv.id) as held_by
        from reviews rv
       where rv.id = ${reviewId} and rv.location_id = ${amp.locationId} and rv.site = ${amp.site}`),
  );
  if (!review)
    throw fieldsRefused(
      { reviewId: [`The Review field must be a ${reviewSiteLabel(amp.site)} review of ${amp.locationName}`] },
      MATCH_LABELS,
    );
  if (review.held_by !== null) throw conflict('That review is matched to another invitation; unmatch it there first.');
  try {
    await db.transaction(async (tx) => {
      const done = rowsOf(
        await tx.execute(sql`
          update amplifications
             set status = 'posted', review_id = ${reviewId}, matched_by = 'manual', matched_by_user_id = ${userId},
                 match_confidence = null, match_reasons = null, suggested_review_id = null, suggested_confidence = null,
                 updated_at = ${now.toISOString()}::timestamptz
           where id = ${amp.id} and review_id is null and status in ('invited', 'clicked', 'not_posted')
          returning id`),
      );
      if (done.length === 0) throw conflict('This invitation changed meanwhile; reload and try again.');
      await clearSuggestionsOf(tx, [amp.id], now);
      await audit(tx);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('That review is matched to another invitation; unmatch it there first.');
    throw error;
  }
}

/** Unmatch: the review is freed and the invitation goes back to clicked (or invited, never clicked). */
export async function unmatch(db: Db, amp: Amp, now: Date, audit: Audit): Promise<void> {
  if (amp.reviewId === null) throw conflict('This invitation is not matched to a review.');
  await db.transaction(async (tx) => {
    const done = rowsOf(
      await tx.execute(sql`
        update amplifications
           set status = case when clicked_at is null then 'invited' else 'clicked' end, review_id = null, matched_by = null,
               matched_by_user_id = null, match_confidence = null, match_reasons = null, updated_at = ${now.toISOString()}::timestamptz
         where id = ${amp.id} and review_id = ${amp.reviewId}
        returning id`),
    );
    if (done.length === 0) throw conflict('This invitation changed meanwhile; reload and try again.');
    await audit(tx);
  });
}

/** Dismiss suggestion: a person says the suggested review is not this customer's. */
export async function dismissSuggestion(db: Db, amp: Amp, now: Date, audit: Audit): Promise<void> {
  if (amp.suggestedReviewId === null) throw conflict('This invitation has no suggested review.');
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      update amplifications set suggested_review_id = null, suggested_confidence = null, updated_at = ${now.toISOString()}::timestamptz
       where id = ${amp.id}`);
    await audit(tx);
  });
}
