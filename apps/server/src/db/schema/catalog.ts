import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';

/** Products and services per client (docs/screens.md, Product), e.g. "AC repair"; feeds map `product_code`. */
export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    code: text('code').notNull(),
    category: text('category'),
    description: text('description'),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('products_client_code_uq').on(t.clientId, sql`lower(${t.code})`),
    index('products_client_name_idx').on(t.clientId, sql`lower(${t.name})`, t.id),
  ],
);

/** How customers found the business (docs/screens.md, Referral Source); `client_id` null = a global default. */
export const referralSources = pgTable(
  'referral_sources',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id').references(() => clients.id),
    name: text('name').notNull(),
    code: text('code').notNull(),
    type: text('type').notNull(),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Codes are unique per client, and among the global sources.
    uniqueIndex('referral_sources_client_code_uq').on(sql`coalesce(${t.clientId}, 0)`, sql`lower(${t.code})`),
    index('referral_sources_client_name_idx').on(t.clientId, sql`lower(${t.name})`, t.id),
  ],
);
