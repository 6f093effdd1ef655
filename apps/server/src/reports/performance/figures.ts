import { type NpsBand, npsBand, type PerformanceFigures, type PerformancePoint } from '@admin/shared';

/**
 * The additive counts every figure of the contract (packages/shared/src/reports/performance.ts) is
 * made from: a group's, a period's or a day's counts are sums of these, so cards, rows and chart
 * points are summed from one set of per-key counts, and the rollups keep the same measures.
 */
export type Counts = {
  sent: number;
  delivered: number;
  opened: number;
  responses: number;
  promoters: number;
  passives: number;
  detractors: number;
  scoreSum: number;
  scoreCount: number;
  csatPositive: number;
  csatAnswers: number;
  alertsFired: number;
  alertsUnsent: number;
  invites: number;
  posted: number;
  reviews: number;
  ratingSum: number;
  rated: number;
  bySite: Record<string, number>;
};

export const COUNT_KEYS = [
  'sent',
  'delivered',
  'opened',
  'responses',
  'promoters',
  'passives',
  'detractors',
  'scoreSum',
  'scoreCount',
  'csatPositive',
  'csatAnswers',
  'alertsFired',
  'alertsUnsent',
  'invites',
  'posted',
  'reviews',
  'ratingSum',
  'rated',
] as const satisfies readonly Exclude<keyof Counts, 'bySite'>[];

export function zeroCounts(): Counts {
  const counts = { bySite: {} } as Counts;
  for (const key of COUNT_KEYS) counts[key] = 0;
  return counts;
}

/** Adds `more` into `into` (in place) and answers `into`. */
export function addCounts(into: Counts, more: Counts): Counts {
  for (const key of COUNT_KEYS) into[key] += more[key];
  for (const [site, n] of Object.entries(more.bySite)) into.bySite[site] = (into.bySite[site] ?? 0) + n;
  return into;
}

/** A percentage rounded to one decimal, null over nothing. */
export const rate = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 1000) / 10);
/** A mean rounded to two decimals, null over nothing. */
const mean = (sum: number, n: number): number | null => (n === 0 ? null : Math.round((sum / n) * 100) / 100);
/** NPS: round(100 · (promoters − detractors) / answers), null without answers. */
export function npsOf(promoters: number, passives: number, detractors: number): number | null {
  const answers = promoters + passives + detractors;
  // `+ 0` turns Math.round's −0 (e.g. −0.4) into 0.
  return answers === 0 ? null : Math.round((100 * (promoters - detractors)) / answers) + 0;
}

/** The contract's figures from counts, each as packages/shared/src/reports/performance.ts defines it. */
export function figuresOf(c: Counts): PerformanceFigures {
  const nps = npsOf(c.promoters, c.passives, c.detractors);
  const band: NpsBand | null = npsBand(nps);
  return {
    sent: c.sent,
    delivered: c.delivered,
    deliveredRate: rate(c.delivered, c.sent),
    opened: c.opened,
    responses: c.responses,
    responseRate: rate(c.responses, c.delivered),
    promoters: c.promoters,
    passives: c.passives,
    detractors: c.detractors,
    npsAnswers: c.promoters + c.passives + c.detractors,
    nps,
    npsBand: band,
    avgScore: mean(c.scoreSum, c.scoreCount),
    csat: rate(c.csatPositive, c.csatAnswers),
    alertsFired: c.alertsFired,
    alertsUnsent: c.alertsUnsent,
    invites: c.invites,
    reviewsPosted: c.posted,
    conversion: rate(c.posted, c.invites),
    newReviews: c.reviews,
    newReviewsBySite: { ...c.bySite },
    avgReviewRating: mean(c.ratingSum, c.rated),
  };
}

/** A chart point from a bucket's counts. */
export function pointOf(bucket: string, c: Counts): PerformancePoint {
  return {
    bucket,
    responses: c.responses,
    promoters: c.promoters,
    passives: c.passives,
    detractors: c.detractors,
    nps: npsOf(c.promoters, c.passives, c.detractors),
  };
}
