import type { ReviewAlertReportCards, ReviewAlertReportRow } from '@admin/shared';

/** A query string as the API client takes it (lib/http.ts). */
export type ApiQuery = Record<string, string | number | readonly string[] | null | undefined>;

const count = new Intl.NumberFormat('en-US');

/** The §27 cards in their order, each as a person reads it ("—" where there is nothing to measure). */
export const REVIEW_ALERT_CARDS: { label: string; value(c: ReviewAlertReportCards): string; hint?: string }[] = [
  { label: 'Reviews alerted', value: (c) => count.format(c.reviews_alerted) },
  { label: 'Negative (≤ 2★) alerted', value: (c) => count.format(c.negative_alerted) },
  { label: 'Delivery failures', value: (c) => count.format(c.delivery_failures) },
  {
    label: '% negative replied within 48 h',
    value: (c) => (c.negative_replied_48h_pct === null ? '—' : `${c.negative_replied_48h_pct.toFixed(1)}%`),
    hint: 'Of the negative reviews alerted',
  },
  {
    label: 'Median time to reply',
    value: (c) => (c.median_hours_to_reply === null ? '—' : `${c.median_hours_to_reply.toFixed(1)} h`),
    hint: 'From the review to its reply',
  },
];

/** The cards' query: the list's filters without its columns, sort or cursor. */
export function cardsQuery(exportQuery: ApiQuery): ApiQuery {
  const { columns: _columns, sort: _sort, order: _order, cursor: _cursor, perPage: _perPage, ...filters } = exportQuery;
  return filters;
}

/** How a row names itself on buttons and in the confirmation: the reviewer and the recipient. */
export const rowTitle = (r: Pick<ReviewAlertReportRow, 'reviewer' | 'recipient'>): string =>
  `alert for ${r.reviewer ?? 'a review'} to ${r.recipient === '' ? 'no recipient' : r.recipient}`;

/** A review link is offered only when it is a web address (a site's id is no link). */
export const reviewHref = (url: string | null): string | null => (url !== null && /^https?:\/\//i.test(url) ? url : null);

/** A star rating as the table shows it; a recommend site (Facebook) has none. */
export const ratingText = (rating: number | null): string => (rating === null ? '—' : `${rating}★`);
