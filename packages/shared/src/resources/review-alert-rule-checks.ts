import { reviewAlertRuleResource } from './review-alert-rules.ts';
import { MAX_EXTRA_EMAILS, MAX_EXTRA_PHONES, MAX_KEYWORDS } from './survey-alert-rules.ts';

/** A review rule's values as it will be saved: the body over the stored rule. */
export type ReviewAlertRuleValues = {
  rating_min?: number | null | undefined;
  rating_max?: number | null | undefined;
  keywords?: readonly string[] | undefined;
  recipient_user_ids?: readonly number[] | undefined;
  extra_emails?: readonly string[] | undefined;
  extra_phones?: readonly string[] | undefined;
  frequency?: string | null | undefined;
  send_time?: string | null | undefined;
  weekly_day?: string | null | undefined;
};

/** The one message of "at least one recipient", on the Recipient users field. */
export const NO_REVIEW_RECIPIENT_MESSAGE =
  'The Recipient users field needs at least one recipient: a user, an extra email or an extra phone';

const isSet = (v: number | null | undefined) => typeof v === 'number';
const filled = (list: readonly string[] | undefined) => (list ?? []).filter((v) => v.trim() !== '');
const blank = (v: string | null | undefined) => v === null || v === undefined || v.trim() === '';

/**
 * The rules of a review alert rule that read more than one field or count a list (domain.md §11),
 * run by the form and the server alike: Highest rating at least Lowest rating, list lengths, the
 * send time of a digest and the day of a weekly one, and at least one recipient. Field → messages,
 * each naming the field as the form labels it.
 */
export function reviewAlertRuleProblems(v: ReviewAlertRuleValues): Record<string, string[]> {
  const L = reviewAlertRuleResource.labels;
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  if (isSet(v.rating_min) && isSet(v.rating_max) && Number(v.rating_max) < Number(v.rating_min)) {
    add('rating_max', `The ${L.rating_max} field must be ${v.rating_min} or more (the ${L.rating_min})`);
  }
  if ((v.keywords ?? []).length > MAX_KEYWORDS) add('keywords', `The ${L.keywords} field may have at most ${MAX_KEYWORDS} keywords`);
  if ((v.extra_emails ?? []).length > MAX_EXTRA_EMAILS) {
    add('extra_emails', `The ${L.extra_emails} field may have at most ${MAX_EXTRA_EMAILS} addresses`);
  }
  if ((v.extra_phones ?? []).length > MAX_EXTRA_PHONES) {
    add('extra_phones', `The ${L.extra_phones} field may have at most ${MAX_EXTRA_PHONES} numbers`);
  }
  const digest = v.frequency === 'daily' || v.frequency === 'weekly';
  if (digest && blank(v.send_time)) add('send_time', `The ${L.send_time} field is required for a digest`);
  if (v.frequency === 'weekly' && blank(v.weekly_day)) add('weekly_day', `The ${L.weekly_day} field is required for a weekly digest`);
  const anyone = (v.recipient_user_ids ?? []).length > 0 || filled(v.extra_emails).length > 0 || filled(v.extra_phones).length > 0;
  if (!anyone) add('recipient_user_ids', NO_REVIEW_RECIPIENT_MESSAGE);
  return errors;
}
