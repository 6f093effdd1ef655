import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { locations } from './locations.ts';

/**
 * Listings Tool (domain.md §12, pipeline.md "Listings"): what one directory holds for one location,
 * compared field by field with the location's own record. Found values are kept at most 30 days
 * (`found_at`); the directory's id (a Google place id) is kept indefinitely.
 */
export const listings = pgTable(
  'listings',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.id),
    /** A directory code (LISTING_DIRECTORIES in @admin/shared). */
    directory: text('directory').notNull(),
    listingUrl: text('listing_url'),
    externalId: text('external_id'),
    foundName: text('found_name'),
    foundAddress: text('found_address'),
    foundPhone: text('found_phone'),
    foundWebsite: text('found_website'),
    foundHours: jsonb('found_hours').$type<Record<string, { open: string; close: string } | null>>(),
    /** When the found values were read; they are cleared 30 days later. */
    foundAt: timestamp('found_at', { withTimezone: true }),
    nameMatch: boolean('name_match'),
    addressMatch: boolean('address_match'),
    phoneMatch: boolean('phone_match'),
    websiteMatch: boolean('website_match'),
    hoursMatch: boolean('hours_match'),
    score: integer('score'),
    /** accurate, needs_update, not_found, duplicate, unclaimed, pending_update, suppressed. */
    status: text('status').notNull(),
    /** Mark as mine / Not mine; null until someone says. */
    isMine: boolean('is_mine'),
    /** The listing this one duplicates (Flag duplicate). */
    duplicateOfId: integer('duplicate_of_id'),
    note: text('note'),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('listings_location_directory_external_uq')
      .on(t.locationId, t.directory, t.externalId)
      .where(sql`${t.externalId} is not null`),
    // A directory that holds nothing for a location: one not_found row, rewritten by each scan.
    uniqueIndex('listings_location_directory_missing_uq').on(t.locationId, t.directory).where(sql`${t.externalId} is null`),
    index('listings_client_idx').on(t.clientId, t.locationId, t.directory, t.id),
    index('listings_found_at_idx').on(t.foundAt).where(sql`${t.foundAt} is not null`),
  ],
);

/** One scan (Scan now, or the weekly schedule): one location, or every location of a client, with its progress. */
export const listingScans = pgTable(
  'listing_scans',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** null: every active location of the client. */
    locationId: text('location_id').references(() => locations.id),
    /** queued, running, succeeded, partial, failed. */
    status: text('status').notNull().default('queued'),
    /** scheduled or the user who asked. */
    requestedBy: integer('requested_by'),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('listing_scans_client_idx').on(t.clientId, t.createdAt)],
);
