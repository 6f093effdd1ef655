import { describe, expect, it } from 'vitest';
import { isRecent, type ReviewFacts, type ReviewFilter, reviewMatches, ruleIndex } from './matching.ts';

const rule: ReviewFilter = {
  locationIds: [],
  sites: ['google', 'facebook'],
  ratingMin: 1,
  ratingMax: 2,
  recommendFilter: ['not_recommended'],
  textFilter: 'any',
  keywords: [],
};
const review: ReviewFacts = { locationId: 'L1', site: 'google', rating: 1, recommend: null, text: 'Terrible' };

describe('review alert filters', () => {
  it('rating range is inclusive at both ends, open where unset', () => {
    expect(reviewMatches(rule, { ...review, rating: 2 })).toBe(true);
    expect(reviewMatches(rule, { ...review, rating: 3 })).toBe(false);
    expect(reviewMatches({ ...rule, ratingMin: null, ratingMax: null }, { ...review, rating: 5 })).toBe(true);
  });
  it('Facebook recommends follow the recommend filter, not the stars', () => {
    const fb = { ...review, site: 'facebook', rating: null };
    expect(reviewMatches(rule, { ...fb, recommend: false })).toBe(true);
    expect(reviewMatches(rule, { ...fb, recommend: true })).toBe(false);
    expect(reviewMatches({ ...rule, recommendFilter: [] }, { ...fb, recommend: true })).toBe(true);
  });
  it('sites and locations', () => {
    expect(reviewMatches(rule, { ...review, site: 'yelp' })).toBe(false);
    expect(reviewMatches({ ...rule, locationIds: ['L2'] }, review)).toBe(false);
    expect(reviewMatches({ ...rule, locationIds: ['L1'] }, review)).toBe(true);
  });
  it('text filter', () => {
    expect(reviewMatches({ ...rule, textFilter: 'with_text' }, { ...review, text: '  ' })).toBe(false);
    expect(reviewMatches({ ...rule, textFilter: 'without_text' }, { ...review, text: null })).toBe(true);
    expect(reviewMatches({ ...rule, textFilter: 'without_text' }, review)).toBe(false);
  });
  it('keywords are whole words, case and accent insensitive', () => {
    const k = { ...rule, keywords: ['rude', 'cafe froid'] };
    expect(reviewMatches(k, { ...review, text: 'The staff were RUDE.' })).toBe(true);
    expect(reviewMatches(k, { ...review, text: 'Un Café froid' })).toBe(true);
    expect(reviewMatches(k, { ...review, text: 'A prudent choice' })).toBe(false);
    expect(reviewMatches(k, { ...review, text: null })).toBe(false);
  });
  it('recent means written at most 7 days before', () => {
    const now = new Date('2026-03-10T00:00:00Z');
    expect(isRecent(new Date('2026-03-03T00:00:00Z'), now)).toBe(true);
    expect(isRecent(new Date('2026-03-02T23:59:59Z'), now)).toBe(false);
  });
});

describe('ruleIndex', () => {
  it('finds keyword rules by the review words and tests every other rule, in the rules order', () => {
    const rules = [
      { ...rule, keywords: ['rude'], name: 'a' },
      { ...rule, keywords: [], name: 'b' },
      { ...rule, keywords: ['cafe froid'], name: 'c' },
      { ...rule, keywords: ['slow'], name: 'd' },
    ];
    const passed = ruleIndex(rules);
    expect(passed({ ...review, text: 'Rude, and a café froid' }).map((r) => r.name)).toEqual(['a', 'b', 'c']);
    expect(passed({ ...review, text: 'Fine' }).map((r) => r.name)).toEqual(['b']);
    expect(passed({ ...review, rating: 5, text: 'Rude' }).map((r) => r.name)).toEqual([]);
  });
});
