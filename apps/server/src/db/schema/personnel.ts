import { sql } from 'drizzle-orm';
import { type AnyPgColumn, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { locations } from './locations.ts';

/** Client staff credited in surveys and reviews (domain.md §14). */
export const personnel = pgTable(
  'personnel',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    displayName: text('display_name'),
    title: text('title'),
    employeeCode: text('employee_code'),
    /** Name variants used to match reviews and feed rows to this person. */
    aliases: text('aliases').array().notNull().default(sql`'{}'::text[]`),
    email: text('email'),
    phone: text('phone'),
    photoUrl: text('photo_url'),
    status: text('status').notNull().default('active'),
    mergedIntoId: integer('merged_into_id').references((): AnyPgColumn => personnel.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('personnel_client_name_idx').on(t.clientId, sql`lower(${t.lastName} || ' ' || ${t.firstName})`, t.id),
    uniqueIndex('personnel_client_code_uq').on(t.clientId, sql`lower(${t.employeeCode})`).where(sql`${t.employeeCode} is not null`),
  ],
);

export const personnelLocations = pgTable(
  'personnel_locations',
  {
    personnelId: integer('personnel_id')
      .notNull()
      .references(() => personnel.id),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.id),
  },
  (t) => [primaryKey({ columns: [t.personnelId, t.locationId] }), index('personnel_locations_location_idx').on(t.locationId)],
);
