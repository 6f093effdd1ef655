import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';

/** The shape `newReviewToken` makes (and a little room): anything else is not looked up at all. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * Records a click on a `/r/{token}` review link and answers where it leads: the location's stored
 * link for the invitation's site, read now (never anything from the request), or null for an unknown
 * token or a site whose link has since gone (then nothing is recorded). One statement: the first
 * click sets `clicked_at` and moves `invited` to `clicked`; every click counts; any other status
 * (posted, not_posted, opted_out) stays as it is.
 */
export async function recordClick(db: Db, token: string, at: Date): Promise<string | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const result = await db.execute(sql`
    update amplifications a
       set click_count = a.click_count + 1,
           clicked_at = coalesce(a.clicked_at, ${at.toISOString()}::timestamptz),
           status = case when a.status = 'invited' then 'clicked' else a.status end,
           updated_at = ${at.toISOString()}::timestamptz
      from locations l
     where a.token = ${token}
       and l._id = a.location_id
       and (l.review_links ->> a.site) ~* '^https?://'
    returning l.review_links ->> a.site as url`);
  const url = rowsOf(result)[0]?.url;
  return typeof url === 'string' ? url : null;
}
