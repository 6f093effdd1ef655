import { sql } from 'drizzle-orm';
import { bigserial, boolean, date, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The Reputation Panel's KPI summary (docs/decisions/053): amplifications counted per client,
 * site, UTC day of `invited_at`, location, personnel (0 = none) and status. Never written by the
 * application: triggers on `amplifications` and on `reviews.rating` (migration 0031) append a
 * delta row (`folded = false`) in the writing transaction, so every write path keeps it exact; a
 * worker loop folds a key's deltas into its one folded row (reputation/kpi-compaction.ts). A key's
 * counts are the sum of all its rows, folded or not.
 */
export const amplificationDayCounts = pgTable(
  'amplification_day_counts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clientId: integer('client_id').notNull(),
    site: text('site').notNull(),
    /** The UTC day of the invitations' `invited_at`. */
    day: date('day').notNull(),
    locationId: text('location_id').notNull(),
    /** 0 when the invitations name no personnel (0 is no personnel's id), so the key has no null. */
    personnelId: integer('personnel_id').notNull(),
    status: text('status').notNull(),
    invited: integer('invited').notNull(),
    clicked: integer('clicked').notNull(),
    posted: integer('posted').notNull(),
    /** The posted invitations' reviews' ratings, summed, and how many of them have one. */
    ratingSum: integer('rating_sum').notNull(),
    rated: integer('rated').notNull(),
    folded: boolean('folded').notNull().default(false),
  },
  (t) => [
    index('amplification_day_counts_client_site_day_idx').on(t.clientId, t.site, t.day),
    uniqueIndex('amplification_day_counts_folded_uq')
      .on(t.clientId, t.site, t.day, t.locationId, t.personnelId, t.status)
      .where(sql`${t.folded}`),
    index('amplification_day_counts_unfolded_idx').on(t.id).where(sql`not ${t.folded}`),
  ],
);

/**
 * The New reviews card's summary (docs/decisions/053): reviews counted per client, site, UTC day
 * of `review_created_at` and location, kept as `amplification_day_counts` is (a trigger on
 * `reviews` appends deltas, migration 0033; the same worker loop folds them).
 */
export const reviewDayCounts = pgTable(
  'review_day_counts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clientId: integer('client_id').notNull(),
    site: text('site').notNull(),
    /** The UTC day of the reviews' `review_created_at`. */
    day: date('day').notNull(),
    locationId: text('location_id').notNull(),
    reviews: integer('reviews').notNull(),
    folded: boolean('folded').notNull().default(false),
  },
  (t) => [
    index('review_day_counts_client_site_day_idx').on(t.clientId, t.site, t.day),
    uniqueIndex('review_day_counts_folded_uq').on(t.clientId, t.site, t.day, t.locationId).where(sql`${t.folded}`),
    index('review_day_counts_unfolded_idx').on(t.id).where(sql`not ${t.folded}`),
  ],
);
