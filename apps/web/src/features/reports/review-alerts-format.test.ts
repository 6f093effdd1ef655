import { deliveryRecipientText, deliveryStatusText, type ReviewAlertReportCards, reviewAlertReasonText } from '@admin/shared';
import { describe, expect, it } from 'vitest';
import { cardsQuery, REVIEW_ALERT_CARDS, ratingText, reviewHref, rowTitle } from './review-alerts-format.ts';

const cards: ReviewAlertReportCards = {
  reviews_alerted: 1234,
  negative_alerted: 3,
  delivery_failures: 2,
  negative_replied_48h_pct: 33.3,
  median_hours_to_reply: 42,
};

describe('Review Alerts Report formatting', () => {
  it('writes statuses, reasons and recipients in words, never as keys', () => {
    expect(deliveryStatusText({ delivery_status: 'failed', reason: 'no_recipients' })).toBe('Failed · No recipients');
    expect(deliveryStatusText({ delivery_status: 'sent', reason: null })).toBe('Sent');
    expect(reviewAlertReasonText('some_new_reason')).toBe('Some new reason');
    expect(deliveryRecipientText({ recipient: '', channel: 'sms' })).toBe('No recipients');
    expect(deliveryRecipientText({ recipient: '+15555550100', channel: 'sms' })).toBe('+15555550100 (SMS)');
  });

  it('shows the five cards of §27 in order, with their values as read', () => {
    expect(REVIEW_ALERT_CARDS.map((c) => [c.label, c.value(cards)])).toEqual([
      ['Reviews alerted', '1,234'],
      ['Negative (≤ 2★) alerted', '3'],
      ['Delivery failures', '2'],
      ['% negative replied within 48 h', '33.3%'],
      ['Median time to reply', '42.0 h'],
    ]);
  });

  it('shows a dash where nothing is measured', () => {
    const none = { ...cards, negative_replied_48h_pct: null, median_hours_to_reply: null };
    expect(REVIEW_ALERT_CARDS.slice(3).map((c) => c.value(none))).toEqual(['—', '—']);
  });

  it('asks the cards for the list filters only', () => {
    expect(cardsQuery({ client: '3', startDate: '2024-01-01', columns: ['status'], sort: 'created_at', cursor: 'x', perPage: 50 })).toEqual(
      {
        client: '3',
        startDate: '2024-01-01',
      },
    );
  });

  it('links only web addresses, and names rows by reviewer and recipient', () => {
    expect(reviewHref('https://g.example/r/1')).toBe('https://g.example/r/1');
    expect(reviewHref('javascript:alert(1)')).toBeNull();
    expect(reviewHref(null)).toBeNull();
    expect(rowTitle({ reviewer: 'Ann', recipient: 'a@b.example' })).toBe('alert for Ann to a@b.example');
    expect(rowTitle({ reviewer: 'Ann', recipient: '' })).toBe('alert for Ann to no recipient');
    expect(ratingText(2)).toBe('2★');
    expect(ratingText(null)).toBe('—');
  });
});
