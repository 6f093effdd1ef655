import { MAX_EXTRA_EMAILS, MAX_EXTRA_PHONES, MAX_KEYWORDS, surveyAlertRuleResource } from './survey-alert-rules.ts';

/** A rule's values as it will be saved: the body over the stored rule. */
export type AlertRuleValues = {
  trigger?: string | null | undefined;
  score_min?: number | null | undefined;
  score_max?: number | null | undefined;
  keywords?: readonly string[] | undefined;
  no_response_days?: number | null | undefined;
  recipient_user_ids?: readonly number[] | undefined;
  extra_emails?: readonly string[] | undefined;
  extra_phones?: readonly string[] | undefined;
  notify_assigned_personnel?: boolean | null | undefined;
  notify_location_manager?: boolean | null | undefined;
  frequency?: string | null | undefined;
  digest_hour?: number | null | undefined;
  escalate_after_hours?: number | null | undefined;
  escalation_emails?: readonly string[] | undefined;
};

/** The triggers that read the lowest score, and the highest. */
export const usesScoreMin = (trigger: string | null | undefined) => trigger === 'score_between';
export const usesScoreMax = (trigger: string | null | undefined) => trigger === 'score_at_or_below' || trigger === 'score_between';

/** The one message of "at least one recipient", on the Recipient users field. */
export const NO_RECIPIENT_MESSAGE =
  'The Recipient users field needs at least one recipient: a user, an extra email, an extra phone, assigned personnel or the location manager';

const isSet = (v: number | null | undefined) => typeof v === 'number';
const filled = (list: readonly string[] | undefined) => (list ?? []).filter((v) => v.trim() !== '');

/**
 * The rules of a survey alert rule that read more than one field or count a list (domain.md §7),
 * run by the form and the server on the rule as it will be saved: what the trigger makes required,
 * Highest score at least Lowest score, list lengths, the digest hour of a daily digest, escalation
 * e-mails when escalation is set, and at least one recipient. Field → messages, each naming the
 * field as the form labels it.
 */
export function alertRuleProblems(v: AlertRuleValues): Record<string, string[]> {
  const L = surveyAlertRuleResource.labels;
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  if (usesScoreMin(v.trigger) && !isSet(v.score_min)) add('score_min', `The ${L.score_min} field is required`);
  if (usesScoreMax(v.trigger) && !isSet(v.score_max)) add('score_max', `The ${L.score_max} field is required`);
  if (usesScoreMin(v.trigger) && isSet(v.score_min) && isSet(v.score_max) && Number(v.score_max) < Number(v.score_min)) {
    add('score_max', `The ${L.score_max} field must be ${v.score_min} or more (the ${L.score_min})`);
  }
  const keywords = filled(v.keywords);
  if (v.trigger === 'keyword' && keywords.length === 0) add('keywords', `The ${L.keywords} field is required`);
  if ((v.keywords ?? []).length > MAX_KEYWORDS) add('keywords', `The ${L.keywords} field may have at most ${MAX_KEYWORDS} keywords`);
  if (v.trigger === 'no_response_days' && !isSet(v.no_response_days)) {
    add('no_response_days', `The ${L.no_response_days} field is required`);
  }
  if ((v.extra_emails ?? []).length > MAX_EXTRA_EMAILS) {
    add('extra_emails', `The ${L.extra_emails} field may have at most ${MAX_EXTRA_EMAILS} addresses`);
  }
  if ((v.extra_phones ?? []).length > MAX_EXTRA_PHONES) {
    add('extra_phones', `The ${L.extra_phones} field may have at most ${MAX_EXTRA_PHONES} numbers`);
  }
  if (v.frequency === 'daily_digest' && !isSet(v.digest_hour)) add('digest_hour', `The ${L.digest_hour} field is required`);
  if (isSet(v.escalate_after_hours) && filled(v.escalation_emails).length === 0) {
    add('escalation_emails', `The ${L.escalation_emails} field is required when escalation is set`);
  }
  const anyone =
    (v.recipient_user_ids ?? []).length > 0 ||
    filled(v.extra_emails).length > 0 ||
    filled(v.extra_phones).length > 0 ||
    v.notify_assigned_personnel === true ||
    v.notify_location_manager === true;
  if (!anyone) add('recipient_user_ids', NO_RECIPIENT_MESSAGE);
  return errors;
}
