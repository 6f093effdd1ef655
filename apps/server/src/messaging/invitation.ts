import { renderSurveyEmail } from '@admin/shared';
import { escapeHtml } from '../public/html.ts';

/**
 * One invitation rendered for its respondent: Send test and Preview (sample values), the demo data
 * and Resend (the processing item's own) all use these, so what a preview shows is what goes out.
 */
export type InvitationValues = {
  firstName: string;
  /** The location's name; "Your location" when the invitation has none. */
  locationName: string | null;
  /** The person served; "our team" when the invitation names no one. */
  personnelName: string | null;
  /** The client's name, said in an SMS. */
  businessName: string;
  surveyLink: string;
  unsubscribeLink: string;
};

const LINK = /https?:\/\/[^\s<>"']*[^\s<>"'.,;:!?)]/g;

/**
 * An e-mail's plain text as simple HTML: blank lines start paragraphs, line breaks stay, and web
 * addresses become links. Everything is escaped first, so the survey's text can add no markup.
 */
export function textToHtml(text: string): string {
  const paragraphs = text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => {
      const escaped = escapeHtml(p).replace(LINK, (url) => `<a href="${url}">${url}</a>`);
      return `<p>${escaped.replaceAll('\n', '<br>')}</p>`;
    });
  return `<div style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:16px;line-height:1.5;color:#1a1a1a">${paragraphs.join('')}</div>`;
}

/** An invitation e-mail as it is sent: subject and body with their tokens filled, and the body as HTML. */
export function invitationEmail(
  survey: { emailSubject: string | null; emailBody: string | null },
  v: InvitationValues,
): { subject: string; text: string; html: string } {
  const values = {
    firstName: v.firstName,
    locationName: v.locationName ?? 'Your location',
    personnelName: v.personnelName ?? 'our team',
    surveyLink: v.surveyLink,
    unsubscribeLink: v.unsubscribeLink,
  };
  const text = renderSurveyEmail(survey.emailBody ?? '', values);
  return { subject: renderSurveyEmail(survey.emailSubject ?? '', values), text, html: textToHtml(text) };
}

/** An invitation SMS: the template's `{first_name}`, `{business_name}` and `{link}` filled. */
export function invitationSms(body: string, v: InvitationValues): string {
  return body.replaceAll('{first_name}', v.firstName).replaceAll('{business_name}', v.businessName).replaceAll('{link}', v.surveyLink);
}
