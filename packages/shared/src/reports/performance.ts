/**
 * The Performance Report's contract (issue 23; domain §26): what `GET /api/reports/performance`
 * takes and answers, shared by the server (apps/server/src/reports/) and the screen
 * (apps/web/src/features/reports/). Every figure is defined once, here, in words.
 */

/** The group-by choices, in the order the screen offers them (`included:` rule of §26). */
export const PERFORMANCE_GROUP_BY = ['client', 'location', 'personnel', 'survey', 'product', 'referral_source', 'month'] as const;
export type PerformanceGroupBy = (typeof PERFORMANCE_GROUP_BY)[number];
export const PERFORMANCE_GROUP_BY_LABELS: Record<PerformanceGroupBy, string> = {
  client: 'Client',
  location: 'Location',
  personnel: 'Personnel',
  survey: 'Survey',
  product: 'Product',
  referral_source: 'Referral source',
  month: 'Month',
};

/** The channel filter: every channel, or one. */
export const PERFORMANCE_CHANNELS = ['all', 'email', 'sms'] as const;
export type PerformanceChannel = (typeof PERFORMANCE_CHANNELS)[number];
export const PERFORMANCE_CHANNEL_LABELS: Record<PerformanceChannel, string> = { all: 'All channels', email: 'Email', sms: 'SMS' };

/** A range longer than this is refused (422 naming `to`): a year and a leap day. */
export const MAX_REPORT_DAYS = 366;

/**
 * The query, as the server reads it after validation. Lists left empty mean "Selected All".
 * `from` and `to` are calendar days (YYYY-MM-DD), both included, read in each client's own time
 * zone; the previous period is the same number of days ending the day before `from`.
 */
export type PerformanceQuery = {
  clients: number[];
  locations: string[];
  surveys: number[];
  personnel: number[];
  from: string;
  to: string;
  groupBy: PerformanceGroupBy;
  channel: PerformanceChannel;
};

/** NPS bands of the report (reference A2): −100…−1 Poor, 0–29 Average, 30–69 Good, 70–100 Excellent. */
export const NPS_BANDS = ['Poor', 'Average', 'Good', 'Excellent'] as const;
export type NpsBand = (typeof NPS_BANDS)[number];
export function npsBand(nps: number | null): NpsBand | null {
  if (nps === null) return null;
  if (nps < 0) return 'Poor';
  if (nps < 30) return 'Average';
  if (nps < 70) return 'Good';
  return 'Excellent';
}

/**
 * One set of figures (a card set, or a group's row). Counts are whole numbers; rates are
 * percentages rounded to one decimal, null when their denominator is 0.
 * - sent: invitations sent (first send, not reminders), by the day they were sent.
 * - delivered / opened: of those, delivered and opened (e-mail events; an SMS counts delivered
 *   when its provider said so).
 * - responses: answers submitted, by the day submitted; excluded and test responses left out.
 * - responseRate = responses / delivered.
 * - promoters / passives / detractors: responses with an NPS answer of 9–10 / 7–8 / 0–6;
 *   npsAnswers is their sum; nps = round(100 · (promoters − detractors) / npsAnswers).
 * - avgScore: mean key score of responses that have one (2 decimals).
 * - csat: share of 4 and 5 answers among the 1–5 key scores (surveys scored 1–5).
 * - alertsFired / alertsUnsent: survey alert events raised, and of those not sent.
 * - invites / reviewsPosted / conversion: review invitations (amplifications) sent, of those
 *   posted as a public review, and posted / invites.
 * - newReviews / newReviewsBySite: public reviews written in the period, all sites and per site.
 * - avgReviewRating: mean star rating of those reviews (2 decimals).
 */
export type PerformanceFigures = {
  sent: number;
  delivered: number;
  deliveredRate: number | null;
  opened: number;
  responses: number;
  responseRate: number | null;
  promoters: number;
  passives: number;
  detractors: number;
  npsAnswers: number;
  nps: number | null;
  npsBand: NpsBand | null;
  avgScore: number | null;
  csat: number | null;
  alertsFired: number;
  alertsUnsent: number;
  invites: number;
  reviewsPosted: number;
  conversion: number | null;
  newReviews: number;
  newReviewsBySite: Record<string, number>;
  avgReviewRating: number | null;
};

/** One row of the grouped table: its key (an id, or YYYY-MM for month) and the label a person reads. */
export type PerformanceRow = { key: string; label: string; figures: PerformanceFigures };

/** One point of the charts: a day (YYYY-MM-DD) for ranges up to 92 days, else a month (YYYY-MM). */
export type PerformancePoint = {
  bucket: string;
  responses: number;
  promoters: number;
  passives: number;
  detractors: number;
  nps: number | null;
};

export type PerformanceReport = {
  query: PerformanceQuery;
  /** The previous equal period the cards compare with. */
  previous: { from: string; to: string };
  cards: { current: PerformanceFigures; previous: PerformanceFigures };
  rows: PerformanceRow[];
  series: { bucket: 'day' | 'month'; current: PerformancePoint[] };
};
