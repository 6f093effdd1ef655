import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';

/**
 * SMS templates (docs/screens.md, SMS Text); `client_id` null = a global default. `encoding`,
 * `segments` and `has_opt_out` are computed from `body` on every write (packages/shared/src/sms),
 * stored so the list can filter and sort on them.
 */
export const smsTemplates = pgTable(
  'sms_templates',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id').references(() => clients.id),
    name: text('name').notNull(),
    purpose: text('purpose').notNull(),
    language: text('language').notNull(),
    body: text('body').notNull(),
    encoding: text('encoding').notNull(),
    segments: integer('segments').notNull(),
    hasOptOut: boolean('has_opt_out').notNull(),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sms_templates_client_name_idx').on(t.clientId, sql`lower(${t.name})`, t.id)],
);

/**
 * Phones that answered STOP (or were opted out by hand); the sender skips them (`skipped_opt_out`).
 * One row per phone in E.164; `client_id` null = opted out of every client. START deletes the row.
 */
export const smsOptOuts = pgTable(
  'sms_opt_outs',
  {
    phone: text('phone').primaryKey(),
    clientId: integer('client_id').references(() => clients.id),
    keyword: text('keyword').notNull(),
    source: text('source').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // SMS Text's opt-out list pages newest first by (created_at, phone) (modules/sms-opt-outs).
  (t) => [index('sms_opt_outs_client_idx').on(t.clientId), index('sms_opt_outs_created_idx').on(t.createdAt, t.phone)],
);
