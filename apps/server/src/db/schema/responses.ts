import type { Answers, NpsClass, SurveyQuestion } from '@admin/shared/surveys/questions';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { locations } from './locations.ts';
import { personnel } from './personnel.ts';
import { surveyProcessingItems, surveys } from './surveys.ts';

/**
 * A respondent's answer to one invitation (docs/screens.md, Survey Manager): at most one per
 * processing item (the unique index is what refuses a second submit). The answers are one `jsonb`
 * object by question id, with the questions as the respondent read them (decision 024); the key
 * score, NPS class and comment are columns, since lists, filters and reports read those.
 */
export const surveyResponses = pgTable(
  'survey_responses',
  {
    id: serial('id').primaryKey(),
    processingItemId: integer('processing_item_id')
      .notNull()
      .references(() => surveyProcessingItems.id),
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    locationId: text('location_id').references(() => locations.id),
    personnelId: integer('personnel_id').references(() => personnel.id),
    keyScore: integer('key_score'),
    npsClass: text('nps_class').$type<NpsClass>(),
    comment: text('comment'),
    answers: jsonb('answers').$type<Answers>().notNull(),
    questions: jsonb('questions').$type<SurveyQuestion[]>().notNull(),
    testimonialConsent: boolean('testimonial_consent').notNull().default(false),
    excluded: boolean('excluded').notNull().default(false),
    excludedReason: text('excluded_reason'),
    /**
     * The answer to a Send test invitation (its item's source is `manual_test`): listed and marked
     * as a test, never counted in a figure (docs/decisions/037-test-responses.md). Kept on the
     * response so figures need not join the invitations to leave tests out.
     */
    test: boolean('test').notNull().default(false),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('survey_responses_item_uq').on(t.processingItemId),
    index('survey_responses_submitted_idx').on(t.submittedAt, t.id),
    index('survey_responses_client_submitted_idx').on(t.clientId, t.submittedAt, t.id),
    // A survey's responses newest first (Survey Manager's Surveys filter), and a survey's last 30 days
    // (Surveys' "NPS or avg 30d", one correlated aggregate per listed survey).
    index('survey_responses_survey_submitted_idx').on(t.surveyId, t.submittedAt, t.id),
    index('survey_responses_location_idx').on(t.locationId),
    index('survey_responses_score_idx').on(t.keyScore, t.submittedAt, t.id).where(sql`${t.keyScore} is not null`),
  ],
);
