import { describe, expect, it } from 'vitest';
import { addCounts, figuresOf, npsOf, rate, zeroCounts } from './figures.ts';
import { daysIn, parsePerformanceQuery, previousPeriod } from './query.ts';
import { bucketsOf } from './report.ts';

describe('Performance figures', () => {
  it('rates to one decimal, null over nothing; NPS rounded, no −0', () => {
    expect(rate(1, 3)).toBe(33.3);
    expect(rate(2, 3)).toBe(66.7);
    expect(rate(0, 0)).toBeNull();
    expect(npsOf(0, 0, 0)).toBeNull();
    expect(npsOf(5, 3, 2)).toBe(30);
    expect(Object.is(npsOf(1, 498, 2), 0)).toBe(true);
    expect(npsOf(0, 0, 3)).toBe(-100);
  });

  it('figures from counts as the contract defines them', () => {
    const c = { ...zeroCounts(), sent: 10, delivered: 8, opened: 4, responses: 4, promoters: 2, passives: 1, detractors: 1 };
    Object.assign(c, {
      scoreSum: 31,
      scoreCount: 4,
      csatPositive: 3,
      csatAnswers: 4,
      invites: 4,
      posted: 1,
      reviews: 3,
      ratingSum: 14,
      rated: 3,
    });
    c.bySite = { google: 2, yelp: 1 };
    const f = figuresOf(c);
    expect(f).toMatchObject({ deliveredRate: 80, responseRate: 50, npsAnswers: 4, nps: 25, npsBand: 'Average', avgScore: 7.75, csat: 75 });
    expect(f).toMatchObject({ conversion: 25, newReviews: 3, newReviewsBySite: { google: 2, yelp: 1 }, avgReviewRating: 4.67 });
  });

  it('adds counts and sites', () => {
    const a = { ...zeroCounts(), sent: 1, bySite: { google: 1 } };
    const b = { ...zeroCounts(), sent: 2, bySite: { google: 2, yelp: 1 } };
    expect(addCounts(a, b)).toMatchObject({ sent: 3, bySite: { google: 3, yelp: 1 } });
  });
});

describe('Performance query and periods', () => {
  it('the previous period has as many days and ends the day before', () => {
    expect(previousPeriod('2026-03-01', '2026-03-31')).toEqual({ from: '2026-01-29', to: '2026-02-28' });
    expect(previousPeriod('2024-03-01', '2024-03-01')).toEqual({ from: '2024-02-29', to: '2024-02-29' });
    expect(daysIn('2025-01-01', '2026-01-01')).toBe(366);
  });

  it('charts by day up to 92 days, else by month', () => {
    expect(bucketsOf('2026-01-01', '2026-04-02')).toMatchObject({ bucket: 'day' });
    expect(bucketsOf('2026-01-01', '2026-04-02').keys).toHaveLength(92);
    expect(bucketsOf('2026-01-01', '2026-04-03')).toEqual({ bucket: 'month', keys: ['2026-01', '2026-02', '2026-03', '2026-04'] });
  });

  it('reads repeated and comma ids, defaults, and refuses by label', () => {
    const q = parsePerformanceQuery({ clients: ['3', '5', '3'], surveys: '7,9', from: '2026-01-01', to: '2026-01-31' });
    expect(q).toMatchObject({ clients: [3, 5], surveys: [7, 9], locations: [], groupBy: 'location', channel: 'all' });
    expect(() => parsePerformanceQuery({ from: '2026-01-01', to: '2026-01-31', from2: 'x' })).not.toThrow();
    expect(() => parsePerformanceQuery({ from: ['2026-01-01', '2026-01-02'], to: '2026-01-31' })).toThrow(/Date from/);
    expect(() => parsePerformanceQuery({})).toThrow(/Date from, Date to/);
  });
});
