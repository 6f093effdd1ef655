import { reviewSiteLabel } from '@admin/shared';
import { withUnsubscribe } from '../alerts/unsubscribe.ts';
import type { OutboundMessage } from '../messaging/send.ts';

/** What a review alert says about its review (null fields: a Send test with no review to show). */
export type ReviewFactsForMessage = {
  clientId: number;
  clientName: string;
  ruleName: string;
  locationId: string | null;
  locationName: string | null;
  site: string | null;
  rating: number | null;
  recommend: boolean | null;
  authorName: string | null;
  text: string | null;
  reviewUrl: string | null;
  reviewId: number | null;
};

export type ReviewLinks = { review: string | null; reply: string | null };

/** The longest excerpt a message quotes. */
const EXCERPT = 280;

/** "★★☆☆☆ (2/5)", "Recommended", "Not recommended", or "—". */
export function ratingWords(rating: number | null, recommend: boolean | null): string {
  if (rating !== null) return `${'★'.repeat(rating)}${'☆'.repeat(Math.max(0, 5 - rating))} (${rating}/5)`;
  if (recommend !== null) return recommend ? 'Recommended' : 'Not recommended';
  return '—';
}

export function excerptOf(text: string | null): string {
  const clean = (text ?? '').replace(/\s+/g, ' ').trim();
  if (clean === '') return '(no text)';
  return clean.length > EXCERPT ? `${clean.slice(0, EXCERPT - 1)}…` : clean;
}

/** Short words for the rating, for a subject or an SMS: "2★", "not recommended". */
const shortRating = (f: ReviewFactsForMessage) =>
  f.rating !== null ? `${f.rating}★` : f.recommend !== null ? (f.recommend ? 'recommended' : 'not recommended') : 'new';

/**
 * One review alert as a person reads it (domain.md §11): the site, the rating in stars or
 * Facebook's recommendation, the author, an excerpt, the location, a link to the review and, when
 * the rule asks, a reply link. Plain text: it reads the same in a mail client and an SMS. A Send
 * test says "[Test]" first.
 */
export function reviewAlertMessage(
  f: ReviewFactsForMessage,
  channel: 'email' | 'sms',
  to: string,
  links: ReviewLinks,
  options: { test: boolean; deliveryId: number; unsubscribe: string },
): OutboundMessage {
  const tag = options.test ? '[Test] ' : '';
  const site = f.site ? reviewSiteLabel(f.site) : 'a review site';
  const place = f.locationName ?? 'all locations';
  const common = {
    type: 'review_alert' as const,
    to,
    clientId: f.clientId,
    locationId: f.locationId,
    related: f.reviewId !== null ? { type: 'review', id: f.reviewId } : { type: 'review_alert_delivery', id: options.deliveryId },
  };
  if (channel === 'sms') {
    const text =
      `${tag}${f.clientName}, ${place}: ${shortRating(f)} ${site} review by ${f.authorName ?? '—'}. ${links.review ?? ''}`.trim();
    return { ...common, channel: 'sms', template: 'Review alert', text };
  }
  const subject = `${tag}Review alert: ${shortRating(f)} ${site} review at ${f.clientName}, ${place}`;
  const lines = [
    ...(options.test ? ['This is a test of the rule; no new review arrived.', ''] : []),
    `Rule: ${f.ruleName}`,
    `Site: ${site}`,
    `Rating: ${ratingWords(f.rating, f.recommend)}`,
    `Author: ${f.authorName ?? '—'}`,
    `Location: ${place}`,
    `Review: ${f.reviewId === null ? '—' : excerptOf(f.text)}`,
    '',
    ...(links.review ? [`Open the review: ${links.review}`] : []),
    ...(links.reply ? [`Reply to it: ${links.reply}`] : []),
  ];
  return { ...common, channel: 'email', subject, ...withUnsubscribe(lines, options.unsubscribe) };
}

/** One line of a digest. */
export type DigestLine = ReviewFactsForMessage & { link: string | null };

/** A daily or weekly digest: every review the rule caught in the period, one line each, newest last. */
export function reviewDigestMessage(
  rule: { clientId: number; clientName: string; ruleName: string; frequency: string },
  channel: 'email' | 'sms',
  to: string,
  lines: DigestLine[],
  digest: { id: number; unsubscribe: string },
): OutboundMessage {
  const kind = rule.frequency === 'weekly' ? 'Weekly' : 'Daily';
  const count = `${lines.length} ${lines.length === 1 ? 'review' : 'reviews'}`;
  const subject = `${kind} review alerts digest: ${count} at ${rule.clientName}`;
  const common = { type: 'review_alert' as const, to, clientId: rule.clientId, related: { type: 'review_alert_digest', id: digest.id } };
  if (channel === 'sms') {
    return {
      ...common,
      channel: 'sms',
      template: 'Review alert digest',
      text: `${subject} (${rule.ruleName}). Details in the admin console.`,
    };
  }
  const body = lines.map(
    (l) =>
      `- ${l.locationName ?? '—'} · ${l.site ? reviewSiteLabel(l.site) : '—'} · ${ratingWords(l.rating, l.recommend)} · ${l.authorName ?? '—'}: “${excerptOf(l.text)}”${l.link ? ` ${l.link}` : ''}`,
  );
  return { ...common, channel: 'email', subject, ...withUnsubscribe([`Rule: ${rule.ruleName}`, '', ...body], digest.unsubscribe) };
}
