import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients, teams } from './clients.ts';
import { users } from './identity.ts';

/**
 * Client business locations, which are also the API endpoints (`GET /api/endpoints` returns
 * `{ _id, locationname }`). `_id` keeps the 24-hex shape the original's ids had.
 */
export const locations = pgTable(
  'locations',
  {
    id: text('_id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    teamId: integer('team_id').references(() => teams.id),
    locationname: text('locationname').notNull(),
    externalCode: text('external_code'),
    address1: text('address1').notNull(),
    address2: text('address2'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    postalCode: text('postal_code').notNull(),
    country: text('country').notNull().default('US'),
    phone: text('phone').notNull(),
    website: text('website'),
    timezone: text('timezone').notNull(),
    googlePlaceId: text('google_place_id'),
    managerUserId: integer('manager_user_id').references(() => users.id),
    /** Opening hours by weekday: `{ mon: { open: "08:00", close: "17:00" }, sun: null, … }`. */
    hours: jsonb('hours').$type<Record<string, { open: string; close: string } | null>>(),
    /**
     * Review profile URL per site (`{ google: "https://…" }`). A JSON column rather than a link
     * table: links are always read and written with their location, never on their own.
     */
    reviewLinks: jsonb('review_links').$type<Record<string, string>>().notNull().default({}),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('locations_client_name_idx').on(t.clientId, sql`lower(${t.locationname})`, t.id),
    uniqueIndex('locations_client_external_code_uq')
      .on(t.clientId, sql`lower(${t.externalCode})`)
      .where(sql`${t.externalCode} is not null`),
  ],
);
