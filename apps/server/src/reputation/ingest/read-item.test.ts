import { readReviewItem, recommendValue, starValue } from '@admin/shared';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../config.ts';
import { pullEnabled } from './google-pull.ts';

/** The shared rules every door reads a review item by (packages/shared/src/resources/reviews.ts). */
const now = new Date('2026-06-01T12:00:00Z');
const item = (extra: Record<string, unknown> = {}) => ({
  reviewId: 'r1',
  locationId: 'a'.repeat(24),
  reviewer: { displayName: ' Dana W. ' },
  starRating: 'FOUR',
  comment: 'Nice',
  createTime: '2026-05-30T10:00:00.123456789Z',
  ...extra,
});

describe('readReviewItem', () => {
  it('reads the Google shape: ONE…FIVE, nanosecond times, a reply dated by its own updateTime', () => {
    const r = readReviewItem(item({ reviewReply: { comment: 'Thanks', updateTime: '2026-05-31T08:00:00Z' } }), now);
    expect(r).toMatchObject({
      ok: true,
      review: {
        site: 'google',
        rating: 4,
        recommend: null,
        authorName: 'Dana W.',
        replyText: 'Thanks',
        repliedAt: new Date('2026-05-31T08:00:00Z'),
      },
    });
  });

  it('refuses, naming the field: a rating of 6, a time in the future beyond the skew, a time without zone, a missing id', () => {
    expect(readReviewItem(item({ starRating: 6 }), now)).toMatchObject({
      ok: false,
      errors: { starRating: [expect.stringMatching(/^The Star rating field/)] },
    });
    expect(readReviewItem(item({ createTime: '2026-06-01T12:06:00Z' }), now)).toMatchObject({
      ok: false,
      errors: { createTime: ['The Created field cannot be in the future'] },
    });
    expect(readReviewItem(item({ createTime: '2026-06-01T12:04:00Z' }), now).ok).toBe(true);
    expect(readReviewItem(item({ createTime: '2026-05-30 10:00' }), now)).toMatchObject({
      ok: false,
      errors: { createTime: [expect.any(String)] },
    });
    expect(readReviewItem(item({ reviewId: '' }), now)).toMatchObject({
      ok: false,
      errors: { reviewId: ['The Review ID field is required'] },
    });
    expect(readReviewItem([], now)).toMatchObject({ ok: false, errors: { review: [expect.any(String)] } });
  });

  it('refuses a text a pulled review may hold but PostgreSQL cannot store: a NUL or a lone surrogate; a whole pair is fine', () => {
    expect(readReviewItem(item({ comment: 'Nice\u0000place' }), now)).toMatchObject({
      ok: false,
      errors: { comment: [expect.stringContaining('cannot be stored')] },
    });
    expect(readReviewItem(item({ reviewer: { displayName: 'Dana \uD83D' } }), now)).toMatchObject({
      ok: false,
      errors: { reviewer: [expect.stringContaining('cannot be stored')] },
    });
    expect(readReviewItem(item({ comment: 'Lone \uDE00 low' }), now).ok).toBe(false);
    expect(readReviewItem(item({ comment: 'Great \uD83D\uDE00' }), now).ok).toBe(true);
  });

  it('fits the rating kind to the site: Facebook recommends, the others take stars', () => {
    expect(readReviewItem(item({ site: 'facebook', starRating: undefined, recommend: 'no' }), now)).toMatchObject({
      ok: true,
      review: { rating: null, recommend: false },
    });
    expect(readReviewItem(item({ site: 'facebook' }), now).ok).toBe(false);
    expect(readReviewItem(item({ site: 'yelp', recommend: true }), now).ok).toBe(false);
    expect(readReviewItem(item({ site: 'yelp', starRating: undefined }), now)).toMatchObject({
      ok: false,
      errors: { starRating: ['The Star rating field is required for Yelp reviews'] },
    });
  });

  it('reads stars and recommendations as people write them', () => {
    expect([starValue('FIVE'), starValue('five'), starValue('3'), starValue(2), starValue('STAR_RATING_UNSPECIFIED')]).toEqual([
      5,
      5,
      3,
      2,
      null,
    ]);
    expect([starValue('6'), starValue(0), starValue(4.5), starValue('x')]).toEqual([undefined, undefined, undefined, undefined]);
    expect([recommendValue('Recommended'), recommendValue('not recommended'), recommendValue(''), recommendValue('maybe')]).toEqual([
      true,
      false,
      null,
      undefined,
    ]);
  });
});

describe('pullEnabled', () => {
  it('is off without an OAuth client id and secret', () => {
    const { providers } = testConfig();
    expect(pullEnabled({ ...providers, googleBusiness: { ...providers.googleBusiness, clientId: null, clientSecret: null } })).toBe(false);
    expect(pullEnabled({ ...providers, googleBusiness: { ...providers.googleBusiness, clientId: 'id', clientSecret: 'secret' } })).toBe(
      true,
    );
  });
});
