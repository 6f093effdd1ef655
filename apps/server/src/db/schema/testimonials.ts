import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { locations } from './locations.ts';
import { personnel } from './personnel.ts';
import { surveyResponses } from './responses.ts';
import { surveys } from './surveys.ts';

/**
 * Testimonials Tool (domain.md §9, pipeline.md "Testimonials"): a response's comment, given with
 * consent, made a testimonial. pending → approved → published; rejected is kept and restorable.
 * The display text may be edited; the original is kept beside it.
 */
export const testimonials = pgTable(
  'testimonials',
  {
    id: serial('id').primaryKey(),
    responseId: integer('response_id')
      .notNull()
      .references(() => surveyResponses.id),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    locationId: text('location_id').references(() => locations.id),
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id),
    personnelId: integer('personnel_id').references(() => personnel.id),
    /** "Maria G.": the only personal data a widget shows. */
    displayName: text('display_name').notNull(),
    originalText: text('original_text').notNull(),
    displayText: text('display_text').notNull(),
    /** The response's key score (0–10 NPS, 1–5 stars…), as given. */
    rating: integer('rating'),
    consent: boolean('consent').notNull().default(false),
    /** pending, approved, published, rejected. */
    status: text('status').notNull().default('pending'),
    featured: boolean('featured').notNull().default(false),
    approvedBy: integer('approved_by'),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('testimonials_response_uq').on(t.responseId),
    index('testimonials_client_submitted_idx').on(t.clientId, t.submittedAt, t.id),
    // The widget's feed: a client's (or location's) published ones, featured first, newest first.
    index('testimonials_published_idx').on(t.clientId, t.featured, t.publishedAt, t.id).where(sql`${t.status} = 'published'`),
    index('testimonials_location_idx').on(t.locationId, t.submittedAt),
  ],
);
