import { REVIEW_EXCERPT_MAX } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import type { Amp } from './one.ts';
import { scoreMatch } from './score.ts';

/** Reviews "Match review manually" offers at most. */
export const CANDIDATE_LIMIT = 50;

const dateOf = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const textOr = (v: unknown): string | null => (typeof v === 'string' ? v : null);

const excerptOf = (text: string | null): string | null =>
  text === null ? null : text.length <= REVIEW_EXCERPT_MAX ? text : `${text.slice(0, REVIEW_EXCERPT_MAX - 1).trimEnd()}…`;

/**
 * The location's reviews on the invitation's site that no invitation holds, newest first (on
 * reviews_location_site_created_idx; at most CANDIDATE_LIMIT), each with the score this invitation
 * would give it (score.ts), for a person to choose from.
 */
export async function candidatesOf(db: Db, amp: Amp) {
  const rows = rowsOf(
    await db.execute(sql`
      select rv.id, rv.author_name, rv.rating, rv.recommend, rv.text, rv.url, rv.review_created_at
        from reviews rv
       where rv.location_id = ${amp.locationId} and rv.site = ${amp.site}
         and not exists (select 1 from amplifications m where m.review_id = rv.id)
       order by rv.review_created_at desc, rv.id desc
       limit ${CANDIDATE_LIMIT}`),
  );
  const facts = { customerName: amp.customerName, invitedAt: amp.invitedAt, clickedAt: amp.clickedAt, comment: amp.comment };
  return rows.map((r) => {
    const createdAt = dateOf(r.review_created_at);
    const text = textOr(r.text);
    return {
      id: Number(r.id),
      authorName: String(r.author_name),
      rating: r.rating === null ? null : Number(r.rating),
      recommend: typeof r.recommend === 'boolean' ? r.recommend : null,
      excerpt: excerptOf(text),
      url: textOr(r.url),
      reviewCreatedAt: createdAt.toISOString(),
      score: scoreMatch(facts, { authorName: String(r.author_name), createdAt, text }).score,
    };
  });
}
