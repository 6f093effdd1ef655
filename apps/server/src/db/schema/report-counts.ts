import { sql } from 'drizzle-orm';
import { bigserial, boolean, date, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/** The counts a rollup row holds (both grains). */
const countColumns = () => ({
  sent: integer('sent').notNull().default(0),
  delivered: integer('delivered').notNull().default(0),
  opened: integer('opened').notNull().default(0),
  responses: integer('responses').notNull().default(0),
  promoters: integer('promoters').notNull().default(0),
  passives: integer('passives').notNull().default(0),
  detractors: integer('detractors').notNull().default(0),
  scoreSum: integer('score_sum').notNull().default(0),
  scoreCount: integer('score_count').notNull().default(0),
  csatPositive: integer('csat_positive').notNull().default(0),
  csatAnswers: integer('csat_answers').notNull().default(0),
  alertsFired: integer('alerts_fired').notNull().default(0),
  alertsUnsent: integer('alerts_unsent').notNull().default(0),
  invites: integer('invites').notNull().default(0),
  posted: integer('posted').notNull().default(0),
  reviews: integer('reviews').notNull().default(0),
  ratingSum: integer('rating_sum').notNull().default(0),
  rated: integer('rated').notNull().default(0),
});

/**
 * The reports' daily rollup (docs/decisions/065-report-rollups.md, issue 23): what the Performance
 * Report counts, per client, the client's own calendar day of each event, location ('' = none),
 * personnel, survey, product and referral source (0 = none), the invitation's channel ('' = none,
 * a review) and a review's site ('' for every other event). Kept as decision 053 keeps the KPI
 * summary: triggers (migration 0039_report_counts_triggers) append delta rows (`folded = false`) in the writing
 * transaction, a worker loop folds a key's deltas into its one folded row
 * (apps/server/src/reports/rollups/compaction.ts); a key's counts are the sum of all its rows.
 * Each measure counts on its own event's day: an invitation's on the day it was sent, a
 * response's on the day submitted, and so on (apps/server/src/reports/performance/raw.ts).
 */
export const reportDayCounts = pgTable(
  'report_day_counts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clientId: integer('client_id').notNull(),
    day: date('day').notNull(),
    locationId: text('location_id').notNull(),
    personnelId: integer('personnel_id').notNull(),
    surveyId: integer('survey_id').notNull(),
    channel: text('channel').notNull(),
    productId: integer('product_id').notNull(),
    referralSourceId: integer('referral_source_id').notNull(),
    site: text('site').notNull(),
    ...countColumns(),
    folded: boolean('folded').notNull().default(false),
  },
  (t) => [
    // A report reads a range of days, of some clients or all.
    index('report_day_counts_day_client_idx').on(t.day, t.clientId),
    index('report_day_counts_client_day_idx').on(t.clientId, t.day),
    uniqueIndex('report_day_counts_folded_uq')
      .on(t.clientId, t.day, t.locationId, t.personnelId, t.surveyId, t.channel, t.productId, t.referralSourceId, t.site)
      .where(sql`${t.folded}`),
    index('report_day_counts_unfolded_idx').on(t.id).where(sql`not ${t.folded}`),
  ],
);

/**
 * The daily rollup's folded rows summed per calendar month (docs/decisions/071-report-month-rollup.md):
 * a month's row for a key is the sum of that key's folded day rows in the month, kept by the fold
 * (compaction.ts) and by report_counts_rebuild, both under the rollup's lock. A long range reads
 * its whole months here (one row per key a month instead of one a day) and only its partial months
 * and the not-yet-folded deltas from report_day_counts (rollups/read.ts).
 */
export const reportMonthCounts = pgTable(
  'report_month_counts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clientId: integer('client_id').notNull(),
    /** The month's first day. */
    month: date('month').notNull(),
    locationId: text('location_id').notNull(),
    personnelId: integer('personnel_id').notNull(),
    surveyId: integer('survey_id').notNull(),
    channel: text('channel').notNull(),
    productId: integer('product_id').notNull(),
    referralSourceId: integer('referral_source_id').notNull(),
    site: text('site').notNull(),
    ...countColumns(),
  },
  (t) => [
    uniqueIndex('report_month_counts_key_uq').on(
      t.clientId,
      t.month,
      t.locationId,
      t.personnelId,
      t.surveyId,
      t.channel,
      t.productId,
      t.referralSourceId,
      t.site,
    ),
    index('report_month_counts_month_client_idx').on(t.month, t.clientId),
  ],
);

/**
 * report_month_counts without the personnel, survey, product and referral source columns: per
 * client, month, location, channel and review site (docs/decisions/071-report-month-rollup.md).
 * A report that neither groups nor filters by those reads a few rows a location a month here
 * instead of one per person and survey. Kept with report_month_counts, by the fold and the rebuild.
 */
export const reportMonthLocationCounts = pgTable(
  'report_month_location_counts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clientId: integer('client_id').notNull(),
    month: date('month').notNull(),
    locationId: text('location_id').notNull(),
    channel: text('channel').notNull(),
    site: text('site').notNull(),
    ...countColumns(),
  },
  (t) => [
    uniqueIndex('report_month_location_counts_key_uq').on(t.clientId, t.month, t.locationId, t.channel, t.site),
    index('report_month_location_counts_month_client_idx').on(t.month, t.clientId),
  ],
);
