import type { AcFigures, AcPerformanceReport } from '@admin/shared';

/** A report of two books for the screen's unit tests: Ada Admin's two clients (one at risk) and No coordinator. */
export const acFigures = (over: Partial<AcFigures> = {}): AcFigures => ({
  clients: 1,
  activeLocations: 2,
  sent: 10,
  delivered: 9,
  responses: 3,
  responseRate: 33.3,
  nps: 40,
  previousNps: 55,
  npsChange: -15,
  invites: 4,
  reviewsPosted: 1,
  newReviews: 5,
  avgReviewRating: 4.2,
  alertsUnsent: 0,
  reviewAlertsUndelivered: 1,
  listingsAccurate: 3,
  listingsChecked: 4,
  listingsAccuracy: 75,
  pausedOrAtRisk: 1,
  ...over,
});

export const acReport: AcPerformanceReport = {
  query: { coordinators: [], clients: [], from: '2026-11-01', to: '2026-11-30' },
  previous: { from: '2026-10-02', to: '2026-10-31' },
  asOf: '2026-11-30T12:00:00Z',
  rows: [
    {
      coordinatorId: 7,
      label: 'Ada Admin',
      figures: acFigures({ clients: 2 }),
      clients: [
        {
          id: 3,
          name: 'Bright Smile, Dental',
          status: 'Active',
          lastFeedAt: null,
          timezone: 'America/Chicago',
          risks: [{ kind: 'nps_drop', reason: 'NPS fell by 15 points (from 55 to 40)' }],
          figures: acFigures(),
        },
        {
          id: 9,
          name: 'Maple',
          status: 'Active',
          lastFeedAt: null,
          timezone: 'America/New_York',
          risks: [],
          figures: acFigures({ pausedOrAtRisk: 0 }),
        },
      ],
    },
    { coordinatorId: null, label: 'No coordinator', figures: acFigures({ nps: null, npsChange: null }), clients: [] },
  ],
};
