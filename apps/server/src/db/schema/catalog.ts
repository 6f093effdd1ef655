import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';

/** Products and services per client (domain.md §15), e.g. "AC repair"; feeds map `product_code`. */
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
