import { renderSurveyEmail } from '@admin/shared';
import type { EmailMessage, SmsMessage } from '../../messaging/send.ts';

/**
 * An invitation rendered for its own respondent (Resend). The surveys module renders its Send test
 * inline with sample values and exports no render function, so this small one fills the same
 * tokens (`renderSurveyEmail` for e-mail; the SMS template's `{first_name}`, `{business_name}`,
 * `{link}`) with the processing item's real values.
 */
export type InvitationValues = {
  firstName: string;
  locationName: string | null;
  personnelName: string | null;
  businessName: string;
  surveyLink: string;
  unsubscribeLink: string;
};

export function renderInvitationEmail(
  template: { subject: string; body: string },
  v: InvitationValues,
): Pick<EmailMessage, 'subject' | 'text'> {
  const values = {
    firstName: v.firstName,
    locationName: v.locationName ?? 'Your location',
    personnelName: v.personnelName ?? 'our team',
    surveyLink: v.surveyLink,
    unsubscribeLink: v.unsubscribeLink,
  };
  return { subject: renderSurveyEmail(template.subject, values), text: renderSurveyEmail(template.body, values) };
}

export function renderInvitationSms(body: string, v: InvitationValues): SmsMessage['text'] {
  return body.replaceAll('{first_name}', v.firstName).replaceAll('{business_name}', v.businessName).replaceAll('{link}', v.surveyLink);
}
