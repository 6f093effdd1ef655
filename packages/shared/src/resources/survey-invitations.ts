import { z } from 'zod';
import { PROCESSING_ITEM_CHANNELS, PROCESSING_ITEM_STATUSES } from './survey-choices.ts';

/**
 * A survey's invitation e-mail (its tokens and how they are filled) and Send test's body and answer
 * (surveys.ts exports these too).
 */

/** The tokens an invitation e-mail's body must hold: the survey link and the unsubscribe link. */
export const REQUIRED_EMAIL_TOKENS = ['{survey_link}', '{unsubscribe_link}'] as const;
/** Every token an invitation e-mail may use, filled per invitation. */
export const EMAIL_TOKENS = ['{first_name}', '{location_name}', '{personnel_name}', ...REQUIRED_EMAIL_TOKENS] as const;

const E164 = /^\+[1-9]\d{6,14}$/;
/** Send test's one field as its dialog labels it; the server's 422s name it so. */
export const SURVEY_TEST_LABELS = { to: 'Send to' } as const satisfies Record<string, string>;
/** `POST /api/surveys/:id/send-test`: an e-mail address or an E.164 phone. */
export const surveyTestSchema = z.strictObject({
  to: z
    .string()
    .trim()
    .min(1, `The ${SURVEY_TEST_LABELS.to} field is required`)
    .max(254)
    .refine(
      (v) => E164.test(v) || z.email().safeParse(v).success,
      `The ${SURVEY_TEST_LABELS.to} field must be an email or a phone in international format, e.g. +13035550142`,
    ),
});
/** What a test send made: the invitation (its link opens the public survey page) and the message's row in Tracking Logs. */
export const surveyTestResultSchema = z.object({
  item_id: z.number().int(),
  channel: z.enum(PROCESSING_ITEM_CHANNELS),
  status: z.enum(PROCESSING_ITEM_STATUSES),
  link: z.string(),
  expires_at: z.string(),
  notification_id: z.number().int(),
  notification_status: z.string(),
  error: z.string().nullable(),
});
export type SurveyTestResult = z.infer<typeof surveyTestResultSchema>;

/** The sample values a test invitation is rendered with. */
export const SAMPLE_FIRST_NAME = 'Alex';

/** An invitation e-mail's text (subject or body) with its tokens filled. */
export function renderSurveyEmail(
  text: string,
  values: { firstName: string; locationName: string; personnelName: string; surveyLink: string; unsubscribeLink: string },
): string {
  return text
    .replaceAll('{first_name}', values.firstName)
    .replaceAll('{location_name}', values.locationName)
    .replaceAll('{personnel_name}', values.personnelName)
    .replaceAll('{survey_link}', values.surveyLink)
    .replaceAll('{unsubscribe_link}', values.unsubscribeLink);
}
