import {
  type AcClientRow,
  type AcFigures,
  type AcRisk,
  type AcRow,
  AT_RISK_NPS_DROP,
  AT_RISK_QUIET_DAYS,
  NO_COORDINATOR_LABEL,
  type PerformanceFigures,
  STATUS_LABELS,
} from '@admin/shared';
import type { ClientFacts } from './facts.ts';

const DAY_MS = 86_400_000;
const statusLabel = (s: string): string => (s === 'active' || s === 'paused' || s === 'inactive' ? STATUS_LABELS[s] : s);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The client's flags: paused, no feed data for AT_RISK_QUIET_DAYS days, NPS fallen by more than AT_RISK_NPS_DROP. */
export function risksOf(
  facts: Pick<ClientFacts, 'status' | 'lastFeedAt'>,
  nps: number | null,
  previousNps: number | null,
  now: Date,
): AcRisk[] {
  const risks: AcRisk[] = [];
  if (facts.status === 'paused') risks.push({ kind: 'paused', reason: 'Paused' });
  if (facts.lastFeedAt === null) risks.push({ kind: 'no_feed_data', reason: 'No feed data ever received' });
  else {
    const quiet = Math.floor((now.getTime() - facts.lastFeedAt.getTime()) / DAY_MS);
    if (quiet >= AT_RISK_QUIET_DAYS) risks.push({ kind: 'no_feed_data', reason: `No feed data for ${plural(quiet, 'day')}` });
  }
  if (nps !== null && previousNps !== null && previousNps - nps > AT_RISK_NPS_DROP)
    risks.push({ kind: 'nps_drop', reason: `NPS fell by ${previousNps - nps} points (from ${previousNps} to ${nps})` });
  return risks;
}

/** The summable parts of a client's figures (PerformanceFigures counts; the rating as sum and count). */
type Sums = {
  sent: number;
  delivered: number;
  responses: number;
  promoters: number;
  passives: number;
  detractors: number;
  invites: number;
  reviewsPosted: number;
  newReviews: number;
  ratingSum: number;
  alertsUnsent: number;
};
const SUM_KEYS = [
  'sent',
  'delivered',
  'responses',
  'promoters',
  'passives',
  'detractors',
  'invites',
  'reviewsPosted',
  'newReviews',
  'ratingSum',
  'alertsUnsent',
] as const;

type Book = {
  current: Sums;
  previous: Sums;
  clients: number;
  activeLocations: number;
  reviewAlertsUndelivered: number;
  listingsAccurate: number;
  listingsChecked: number;
  pausedOrAtRisk: number;
};

const zeroSums = (): Sums => ({
  sent: 0,
  delivered: 0,
  responses: 0,
  promoters: 0,
  passives: 0,
  detractors: 0,
  invites: 0,
  reviewsPosted: 0,
  newReviews: 0,
  ratingSum: 0,
  alertsUnsent: 0,
});

/**
 * A client's figures as sums. The rating is carried as mean × new reviews so a book's mean weighs
 * each client by its reviews (PerformanceFigures gives the mean, rounded to 2 decimals, not its sum).
 */
export function sumsOf(f: PerformanceFigures | undefined): Sums {
  if (!f) return zeroSums();
  return {
    sent: f.sent,
    delivered: f.delivered,
    responses: f.responses,
    promoters: f.promoters,
    passives: f.passives,
    detractors: f.detractors,
    invites: f.invites,
    reviewsPosted: f.reviewsPosted,
    newReviews: f.newReviews,
    ratingSum: (f.avgReviewRating ?? 0) * f.newReviews,
    alertsUnsent: f.alertsUnsent,
  };
}

/** A percentage rounded to one decimal, null over nothing (as packages/shared/src/reports/performance.ts rounds rates). */
export const rate = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 1000) / 10);
/** NPS as packages/shared/src/reports/performance.ts defines it; null without answers. */
export function npsOf(s: Pick<Sums, 'promoters' | 'passives' | 'detractors'>): number | null {
  const answers = s.promoters + s.passives + s.detractors;
  // `+ 0` turns Math.round's −0 into 0.
  return answers === 0 ? null : Math.round((100 * (s.promoters - s.detractors)) / answers) + 0;
}

/** The report's figures from a book's (or one client's) sums and facts. */
export function figuresOfBook(b: Book): AcFigures {
  const c = b.current;
  const nps = npsOf(c);
  const previousNps = npsOf(b.previous);
  return {
    clients: b.clients,
    activeLocations: b.activeLocations,
    sent: c.sent,
    delivered: c.delivered,
    responses: c.responses,
    responseRate: rate(c.responses, c.delivered),
    nps,
    previousNps,
    npsChange: nps === null || previousNps === null ? null : nps - previousNps,
    invites: c.invites,
    reviewsPosted: c.reviewsPosted,
    newReviews: c.newReviews,
    avgReviewRating: c.newReviews === 0 ? null : Math.round((c.ratingSum / c.newReviews) * 100) / 100,
    alertsUnsent: c.alertsUnsent,
    reviewAlertsUndelivered: b.reviewAlertsUndelivered,
    listingsAccurate: b.listingsAccurate,
    listingsChecked: b.listingsChecked,
    listingsAccuracy: rate(b.listingsAccurate, b.listingsChecked),
    pausedOrAtRisk: b.pausedOrAtRisk,
  };
}

const emptyBook = (): Book => ({
  current: zeroSums(),
  previous: zeroSums(),
  clients: 0,
  activeLocations: 0,
  reviewAlertsUndelivered: 0,
  listingsAccurate: 0,
  listingsChecked: 0,
  pausedOrAtRisk: 0,
});

function addBook(into: Book, more: Book): void {
  for (const k of SUM_KEYS) {
    into.current[k] += more.current[k];
    into.previous[k] += more.previous[k];
  }
  into.clients += more.clients;
  into.activeLocations += more.activeLocations;
  into.reviewAlertsUndelivered += more.reviewAlertsUndelivered;
  into.listingsAccurate += more.listingsAccurate;
  into.listingsChecked += more.listingsChecked;
  into.pausedOrAtRisk += more.pausedOrAtRisk;
}

/**
 * One row per coordinator (by name; "No coordinator" last), each holding its clients: a book's
 * figures are computed from the sums of its clients' figures (figuresByClient), so its rates are the book's own, never
 * a mean of rates. A client absent from a period's figures had nothing in it.
 */
export function acRows(
  facts: ClientFacts[],
  current: Map<number, PerformanceFigures>,
  previous: Map<number, PerformanceFigures>,
  now: Date,
): AcRow[] {
  const books = new Map<number | null, { label: string; book: Book; clients: AcClientRow[] }>();
  for (const c of facts) {
    const cur = sumsOf(current.get(c.id));
    const prev = sumsOf(previous.get(c.id));
    const risks = risksOf(c, npsOf(cur), npsOf(prev), now);
    const book: Book = {
      current: cur,
      previous: prev,
      clients: 1,
      activeLocations: c.activeLocations,
      reviewAlertsUndelivered: c.reviewAlertsUndelivered,
      listingsAccurate: c.listingsAccurate,
      listingsChecked: c.listingsChecked,
      pausedOrAtRisk: risks.length > 0 ? 1 : 0,
    };
    const key = c.coordinatorId;
    const entry = books.get(key) ?? { label: c.coordinatorName ?? NO_COORDINATOR_LABEL, book: emptyBook(), clients: [] };
    entry.clients.push({
      id: c.id,
      name: c.name,
      status: statusLabel(c.status),
      lastFeedAt: c.lastFeedAt?.toISOString() ?? null,
      timezone: c.timezone,
      risks,
      figures: figuresOfBook(book),
    });
    addBook(entry.book, book);
    books.set(key, entry);
  }
  return [...books.entries()]
    .map(([coordinatorId, e]) => ({ coordinatorId, label: e.label, figures: figuresOfBook(e.book), clients: e.clients }))
    .sort((a, b) => Number(a.coordinatorId === null) - Number(b.coordinatorId === null) || a.label.localeCompare(b.label));
}
