import { type SQL, sql } from 'drizzle-orm';
import { surveyResponses } from '../db/schema/index.ts';

/**
 * The responses a figure counts: neither excluded from reports by a person (Survey Manager's
 * Exclude) nor answers to a Send test invitation. Every figure read from `survey_responses` (the
 * Surveys list's score, reports, alert triggers) filters with this one condition
 * (docs/decisions/037-test-responses.md).
 */
export const countedResponse: SQL = sql`not ${surveyResponses.excluded} and not ${surveyResponses.test}`;

/**
 * A survey's score over its counted responses of the last 30 days, as one correlated aggregate for
 * the survey row `surveyId`/`surveyType` of the enclosing query: NPS (% promoters − % detractors,
 * a whole number from −100 to 100) for an NPS survey, else the average key score to one decimal;
 * null without a scored response. It reads only that survey's window of
 * `survey_responses_survey_submitted_idx`, never every response.
 */
export function score30d(surveyId: SQL, surveyType: SQL): SQL<number | null> {
  return sql<number | null>`(
    select (case when ${surveyType} = 'nps'
      then round(100.0 * (count(*) filter (where ${surveyResponses.npsClass} = 'promoter')
        - count(*) filter (where ${surveyResponses.npsClass} = 'detractor')) / nullif(count(*), 0))
      else round(avg(${surveyResponses.keyScore}), 1) end)::float8
    from ${surveyResponses}
    where ${surveyResponses.surveyId} = ${surveyId}
      and ${surveyResponses.submittedAt} >= now() - interval '30 days'
      and ${surveyResponses.keyScore} is not null
      and ${countedResponse}
  )`;
}
