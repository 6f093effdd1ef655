import { renderSurveyEmail } from '@admin/shared';
import { escapeHtml } from '../../public/html.ts';

export type InvitationValues = Parameters<typeof renderSurveyEmail>[1];

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

/**
 * An invitation e-mail as it is sent: subject and body with their tokens filled, and the HTML
 * version of the body. Send test and Preview both use it, so the preview is what goes out.
 */
export function invitationEmail(
  survey: { emailSubject: string | null; emailBody: string | null },
  values: InvitationValues,
): { subject: string; text: string; html: string } {
  const text = renderSurveyEmail(survey.emailBody ?? '', values);
  return { subject: renderSurveyEmail(survey.emailSubject ?? '', values), text, html: textToHtml(text) };
}
