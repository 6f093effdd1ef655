/**
 * The AC Performance Report's contract (issue 23; domain §28, reference A9: AC = Account
 * Coordinator, clients.account_coordinator_id → users): what `GET /api/reports/ac-performance`
 * takes and answers, shared by the server (apps/server/src/modules/ac-performance-report/) and the
 * screen (apps/web/src/features/reports/ac-performance-*). Survey and review figures are the
 * Performance Report's (packages/shared/src/reports/performance.ts), summed over a book of clients.
 */

/** The query as the server reads it after validation. Empty lists mean "Selected All". */
export type AcPerformanceQuery = {
  /** AC users (users.id); none = every coordinator, and the clients without one. */
  coordinators: number[];
  clients: number[];
  /** Calendar days, both included, read in each client's zone; compared with the previous equal period. */
  from: string;
  to: string;
};

/** The query's fields as the report's filters label them: every 422 names a field by these. */
export const AC_PERFORMANCE_LABELS = {
  coordinators: 'AC users',
  clients: 'Clients',
  from: 'Date from',
  to: 'Date to',
} as const;

/** A client with no feed data for this many days (or more) is at risk. */
export const AT_RISK_QUIET_DAYS = 7;
/** A client whose NPS fell by more than this against the previous period is at risk. */
export const AT_RISK_NPS_DROP = 10;

/** Why a client is flagged: paused, or one of the two at-risk rules; `reason` is in words. */
export type AcRiskKind = 'paused' | 'no_feed_data' | 'nps_drop';
export type AcRisk = { kind: AcRiskKind; reason: string };

/**
 * One set of the report's figures, for a client or a coordinator's book (the sum of its clients).
 * - clients: clients in the book (1 for a client row); activeLocations: its locations now active.
 * - sent, delivered, responses, responseRate (= responses / delivered), nps, invites,
 *   reviewsPosted, newReviews, avgReviewRating, alertsUnsent: as the Performance Report defines
 *   them, for the period; previousNps: NPS of the previous equal period; npsChange = nps − previousNps.
 * - reviewAlertsUndelivered: review alert deliveries (not test) created in the period that are
 *   still pending or failed.
 * - listingsAccurate / listingsChecked / listingsAccuracy: the clients' listings as last scanned
 *   (not those marked Not mine) found accurate, of those found on their directory, as a percentage.
 * - pausedOrAtRisk: clients paused or at risk.
 */
export type AcFigures = {
  clients: number;
  activeLocations: number;
  sent: number;
  delivered: number;
  responses: number;
  responseRate: number | null;
  nps: number | null;
  previousNps: number | null;
  npsChange: number | null;
  invites: number;
  reviewsPosted: number;
  newReviews: number;
  avgReviewRating: number | null;
  alertsUnsent: number;
  reviewAlertsUndelivered: number;
  listingsAccurate: number;
  listingsChecked: number;
  listingsAccuracy: number | null;
  pausedOrAtRisk: number;
};

/** One client of a book: its figures and what flags it. */
export type AcClientRow = {
  id: number;
  name: string;
  /** The client's status label (Active, Paused). */
  status: string;
  /** When its last feed data arrived (a feed run or a Survey Processing item), ISO; null if never. */
  lastFeedAt: string | null;
  timezone: string;
  risks: AcRisk[];
  figures: AcFigures;
};

/** One coordinator's book; `coordinatorId` null is the row of clients without a coordinator. */
export type AcRow = { coordinatorId: number | null; label: string; figures: AcFigures; clients: AcClientRow[] };

export type AcPerformanceReport = {
  query: AcPerformanceQuery;
  previous: { from: string; to: string };
  /** The moment the at-risk rules were read against (ISO). */
  asOf: string;
  rows: AcRow[];
};

/** The label of the row of clients without a coordinator. */
export const NO_COORDINATOR_LABEL = 'No coordinator';
