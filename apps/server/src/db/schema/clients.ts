import { sql } from 'drizzle-orm';
import { type AnyPgColumn, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** The provider's customers (businesses, groups). */
export const clients = pgTable(
  'clients',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    industry: text('industry').notNull().default('other'),
    website: text('website'),
    phone: text('phone'),
    address1: text('address1'),
    city: text('city'),
    state: text('state'),
    postalCode: text('postal_code'),
    country: text('country').notNull().default('US'),
    timezone: text('timezone').notNull().default('America/New_York'),
    rootTeamId: integer('root_team_id').references((): AnyPgColumn => teams.id),
    accountCoordinatorId: integer('account_coordinator_id'),
    primaryContactName: text('primary_contact_name'),
    primaryContactEmail: text('primary_contact_email'),
    modules: text('modules').array().notNull().default(sql`'{}'::text[]`),
    defaultReviewSite: text('default_review_site').notNull().default('google'),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('clients_name_lower_uq').on(sql`lower(${t.name})`), index('clients_status_idx').on(t.status)],
);

/** Teams form a tree per client; the root team (parent null) is what the switcher lists. */
export const teams = pgTable(
  'teams',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references((): AnyPgColumn => clients.id),
    parentTeamId: integer('parent_team_id').references((): AnyPgColumn => teams.id),
    name: text('name').notNull(),
    status: text('status').notNull().default('active'),
  },
  (t) => [
    index('teams_client_idx').on(t.clientId),
    // One root team per client.
    uniqueIndex('teams_one_root_per_client_uq').on(t.clientId).where(sql`${t.parentTeamId} is null`),
  ],
);
