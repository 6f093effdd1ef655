import { REVIEW_INVITE_MODE_LABELS, surveyResource } from '@admin/shared/resources/surveys';
import { Alert } from '@mantine/core';

/** The Review sites hint: who the thank-you page offers them to, in the chosen mode. */
export const reviewSitesHint = (mode: unknown) =>
  mode === 'threshold'
    ? `Offered only to respondents scoring at or above the ${surveyResource.labels.review_invite_threshold}; at most 4`
    : 'Offered to every respondent; at most 4';

/**
 * Shown while "Respondents at or above a score" is chosen: asking only satisfied customers for
 * reviews is review gating, which Google's review policy forbids, so the mode stays available but
 * never unmarked (docs/decisions/037-test-responses-and-review-gating.md).
 */
export function ReviewGatingWarning() {
  return (
    <Alert color="orange" variant="light" title="Review gating is against Google’s policy">
      Google forbids asking only satisfied customers for reviews (“selectively soliciting positive reviews”). Reviews gathered this way may
      be removed and the listing penalised. Choose “{REVIEW_INVITE_MODE_LABELS.all_respondents}” unless you are sure.
    </Alert>
  );
}
