import type { Messenger } from '../messaging/send.ts';
import type { ReviewFactsForMessage, ReviewLinks } from './message.ts';

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

/**
 * The columns the delivery and digest queries select about a review, its rule, client and
 * location (`r.*` review columns aliased as below), read into what a message says.
 */
export const FACT_COLUMNS = `rv.id as review_id, rv.site, rv.rating, rv.recommend, rv.author_name, rv.text, rv.url,
  rv.location_id, l.locationname as location_name, r.name as rule_name, r.include_reply_link, c.name as client_name`;

export function factsOf(row: Record<string, unknown>, clientId: number): ReviewFactsForMessage & { includeReplyLink: boolean } {
  return {
    clientId,
    clientName: String(row.client_name ?? ''),
    ruleName: String(row.rule_name ?? ''),
    locationId: str(row.location_id),
    locationName: str(row.location_name),
    site: str(row.site),
    rating: row.rating === null || row.rating === undefined ? null : Number(row.rating),
    recommend: typeof row.recommend === 'boolean' ? row.recommend : null,
    authorName: str(row.author_name),
    text: str(row.text),
    reviewUrl: str(row.url),
    reviewId: row.review_id === null || row.review_id === undefined ? null : Number(row.review_id),
    includeReplyLink: row.include_reply_link === true,
  };
}

/**
 * The review's own page on its site when the site gave one, else the Reputation Panel on its site;
 * the reply link (when the rule asks) is the panel, where the client's people answer reviews.
 */
export function linksOf(messenger: Messenger, f: ReturnType<typeof factsOf>): ReviewLinks {
  const panel = f.site ? messenger.link(`/admin/reputation-panel?site=${encodeURIComponent(f.site)}`) : null;
  const review = f.reviewId === null ? null : (f.reviewUrl ?? panel);
  return { review, reply: f.includeReplyLink && f.reviewId !== null ? panel : null };
}
