import { sql } from 'drizzle-orm';
import { type AnyPgColumn, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { users } from './identity.ts';
import { locations } from './locations.ts';

/** Client staff credited in surveys and reviews (docs/screens.md, Personnel). */
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
    // The duplicate finder's match keys, kept by the database on every write whoever writes
    // (docs/decisions/074-merge-match-keys.md); each is its personnel_client_norm_*_idx expression.
    nameKey: text('name_key').generatedAlwaysAs(sql`regexp_replace(lower(first_name || last_name), '[^a-z]', '', 'g')`),
    emailKey: text('email_key').generatedAlwaysAs(sql`lower(email)`),
    phoneKey: text('phone_key').generatedAlwaysAs(sql`right(regexp_replace(phone, '[^0-9]', '', 'g'), 10)`),
    codeKey: text('code_key').generatedAlwaysAs(sql`regexp_replace(lower(employee_code), '[^a-z0-9]', '', 'g')`),
  },
  (t) => [
    ...(['nameKey', 'emailKey', 'phoneKey', 'codeKey'] as const).map((k) =>
      index(`personnel_client_${t[k].name}_idx`).on(t.clientId, t[k]).where(sql`${t.mergedIntoId} is null and ${t[k]} <> ''`),
    ),
    index('personnel_client_name_idx').on(t.clientId, sql`lower(${t.lastName} || ' ' || ${t.firstName})`, t.id),
    uniqueIndex('personnel_client_code_uq').on(t.clientId, sql`lower(${t.employeeCode})`).where(sql`${t.employeeCode} is not null`),
    // The duplicate finder's match keys (see NORMALISED in modules/personnel-merge), indexed so
    // suggestions and the "possible duplicates" filter stay index lookups on large clients.
    index('personnel_client_norm_name_idx').on(t.clientId, sql`regexp_replace(lower(${t.firstName} || ${t.lastName}), '[^a-z]', '', 'g')`),
    index('personnel_client_norm_email_idx').on(t.clientId, sql`lower(${t.email})`).where(sql`${t.email} is not null`),
    index('personnel_client_norm_code_idx')
      .on(t.clientId, sql`regexp_replace(lower(${t.employeeCode}), '[^a-z0-9]', '', 'g')`)
      .where(sql`${t.employeeCode} is not null`),
    index('personnel_client_norm_phone_idx')
      .on(t.clientId, sql`right(regexp_replace(${t.phone}, '[^0-9]', '', 'g'), 10)`)
      .where(sql`${t.phone} is not null`),
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

/** One performed merge (docs/screens.md, Merge Personnel Data): irreversible, so it keeps what it did. */
export const personnelMerges = pgTable(
  'personnel_merges',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    survivorId: integer('survivor_id')
      .notNull()
      .references(() => personnel.id),
    mergedIds: integer('merged_ids').array().notNull(),
    /** Reference kind → rows moved to the survivor, e.g. `{ "location_links": 2 }`. */
    movedCounts: jsonb('moved_counts').$type<Record<string, number>>().notNull(),
    /** Filled fields, listed conflicts, aliases added and the duplicates as they were. */
    fieldResolution: jsonb('field_resolution').$type<Record<string, unknown>>().notNull(),
    performedBy: integer('performed_by')
      .notNull()
      .references(() => users.id),
    performedAt: timestamp('performed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('personnel_merges_client_idx').on(t.clientId, t.performedAt, t.id)],
);

/** A suggested group someone marked "not duplicates": the same set of people is not suggested again. */
export const personnelMergeDismissals = pgTable(
  'personnel_merge_dismissals',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    /** Sorted ascending, so a set has one spelling. */
    personnelIds: integer('personnel_ids').array().notNull(),
    dismissedBy: integer('dismissed_by')
      .notNull()
      .references(() => users.id),
    dismissedAt: timestamp('dismissed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('personnel_merge_dismissals_uq').on(t.clientId, t.personnelIds)],
);
