import { z } from 'zod';
import type { NotificationStatus, NotificationType } from '../resources/notification-logs.ts';

// The SMS counter, for the preview's server and page (the package exports no `sms/*` path).
export { countSms, SMS_ENCODING_LABELS } from '../sms/segments.ts';

/**
 * `GET /api/surveys/:id/preview`: what a respondent would get, rendered with sample values and
 * nothing recorded — the invitation e-mail as sent (subject, text, HTML), the SMS with its counter,
 * and the public survey page as `/s/{token}` renders it. A channel the survey cannot send yet
 * (no subject or body, no SMS template) is null with the reason.
 */
export const surveyPreviewSchema = z.object({
  sample: z.object({ first_name: z.string(), location_name: z.string(), link: z.string() }),
  /**
   * With the From and reply-to it goes out with (`effectiveSurveySettings`): the client's own
   * address, or the platform's (the server's EMAIL_FROM) when its sending domain is not verified.
   */
  email: z
    .object({
      subject: z.string(),
      text: z.string(),
      html: z.string(),
      from_name: z.string(),
      from_address: z.string(),
      reply_to: z.string().nullable(),
    })
    .nullable(),
  email_missing: z.string().nullable(),
  sms: z
    .object({
      template_name: z.string(),
      text: z.string(),
      characters: z.number().int(),
      encoding: z.enum(['gsm7', 'ucs2']),
      segments: z.number().int(),
    })
    .nullable(),
  sms_missing: z.string().nullable(),
  landing_html: z.string(),
});
export type SurveyPreview = z.infer<typeof surveyPreviewSchema>;

/** Tracking Logs' Resend: only survey invitations and reminders that did not reach the recipient. */
export const RESENDABLE_TYPES: readonly NotificationType[] = ['survey_invite', 'survey_reminder'];
export const RESENDABLE_STATUSES: readonly NotificationStatus[] = ['failed', 'undelivered'];
/** The invitation a message belongs to (messaging/send.ts's `related`). */
export const PROCESSING_ITEM_RELATION = 'survey_processing_item';

/** Why a message cannot be resent, or null when it can (the server answers 409 with this). */
export function resendRefusal(log: {
  type: NotificationType;
  delivery_status: NotificationStatus;
  related_type: string | null;
  related_id: string | null;
}): string | null {
  if (!RESENDABLE_TYPES.includes(log.type)) return 'Only survey invitations and reminders can be resent.';
  if (!RESENDABLE_STATUSES.includes(log.delivery_status))
    return `Only a failed or undelivered message can be resent; this one is ${log.delivery_status}.`;
  if (log.related_type !== PROCESSING_ITEM_RELATION || log.related_id === null)
    return 'This message belongs to no survey invitation, so it cannot be resent.';
  return null;
}
