import { npsBand, type PerformanceFigures, type PerformanceReport, type PerformanceRow } from '@admin/shared';

/**
 * Figures for the unit tests, made by the contract's definitions from a few counts
 * (packages/shared/src/reports/performance.ts), so each test states only what it is about.
 */
export function figures(counts: Partial<PerformanceFigures> = {}): PerformanceFigures {
  const sent = counts.sent ?? 100;
  const delivered = counts.delivered ?? 90;
  const promoters = counts.promoters ?? 20;
  const passives = counts.passives ?? 10;
  const detractors = counts.detractors ?? 5;
  const npsAnswers = promoters + passives + detractors;
  const responses = counts.responses ?? npsAnswers;
  const nps = counts.nps !== undefined ? counts.nps : npsAnswers === 0 ? null : Math.round((100 * (promoters - detractors)) / npsAnswers);
  const rate = (a: number, b: number) => (b === 0 ? null : Math.round((1000 * a) / b) / 10);
  const invites = counts.invites ?? 12;
  const reviewsPosted = counts.reviewsPosted ?? 3;
  return {
    sent,
    delivered,
    deliveredRate: rate(delivered, sent),
    opened: counts.opened ?? 60,
    responses,
    responseRate: rate(responses, delivered),
    promoters,
    passives,
    detractors,
    npsAnswers,
    nps,
    npsBand: npsBand(nps),
    avgScore: counts.avgScore !== undefined ? counts.avgScore : 8.25,
    csat: counts.csat !== undefined ? counts.csat : null,
    alertsFired: counts.alertsFired ?? 4,
    alertsUnsent: counts.alertsUnsent ?? 1,
    invites,
    reviewsPosted,
    conversion: rate(reviewsPosted, invites),
    newReviews: counts.newReviews ?? 7,
    newReviewsBySite: counts.newReviewsBySite ?? { google: 5, yelp: 2 },
    avgReviewRating: counts.avgReviewRating !== undefined ? counts.avgReviewRating : 4.5,
  };
}

export const row = (key: string, label: string, counts: Partial<PerformanceFigures> = {}): PerformanceRow => ({
  key,
  label,
  figures: figures(counts),
});

export function report(rows: PerformanceRow[], overrides: Partial<PerformanceReport> = {}): PerformanceReport {
  return {
    query: {
      clients: [],
      locations: [],
      surveys: [],
      personnel: [],
      from: '2026-10-01',
      to: '2026-10-31',
      groupBy: 'location',
      channel: 'all',
    },
    previous: { from: '2026-08-31', to: '2026-09-30' },
    cards: { current: figures({ sent: 200, promoters: 40 }), previous: figures({ sent: 160, promoters: 20 }) },
    rows,
    series: {
      bucket: 'day',
      current: [
        { bucket: '2026-10-01', responses: 3, promoters: 2, passives: 1, detractors: 0, nps: 67 },
        { bucket: '2026-10-02', responses: 0, promoters: 0, passives: 0, detractors: 0, nps: null },
      ],
    },
    ...overrides,
  };
}
