import { renderSurveyEmail, SURVEY_SETTINGS_DEFAULTS, type SurveySettings } from '@admin/shared';
import { type ClientSettings, effectiveSurveySettings } from '@admin/shared/surveys/effective-settings';
import { brandColorOf, escapeHtml, readableOnWhite } from '../public/html.ts';

/**
 * One invitation rendered for its respondent: Send test and Preview (sample values), the demo data,
 * the send engine and Resend (the processing item's own) all use these, so what a preview shows is
 * what goes out.
 */
export type InvitationValues = {
  firstName: string;
  /** The location's name; "Your location" when the invitation has none. */
  locationName: string | null;
  /** The person served; "our team" when the invitation names no one. */
  personnelName: string | null;
  /** The client's name, said in an SMS and in the e-mail's footer. */
  businessName: string;
  surveyLink: string;
  unsubscribeLink: string;
};

/** What a client's Survey Admin settings give each of its e-mails: the sender, the look and the footer. */
export type SurveyAdminSettings = ClientSettings & Pick<SurveySettings, 'logo_url' | 'brand_color' | 'unsubscribe_footer'>;

/**
 * The platform defaults under the client's name: the settings of a client with no Survey Admin row
 * (what `app.surveySettings.of` answers for one too).
 */
export function defaultSettingsOf(businessName: string): SurveyAdminSettings {
  return {
    ...SURVEY_SETTINGS_DEFAULTS,
    send_days: [...SURVEY_SETTINGS_DEFAULTS.send_days],
    from_name: businessName,
    domain_verified: false,
  };
}

/** An e-mail's sender as the messenger takes it: a null address is the platform's (messaging/send.ts `fromOf`). */
export type Sender = { name: string; address: string | null };

/** A rendered e-mail with the sender and reply-to it goes out with. */
export type RenderedEmail = { subject: string; text: string; html: string; sender: Sender; replyTo: string | null };

const LINK = /https?:\/\/[^\s<>"']*[^\s<>"'.,;:!?)]/g;
const FONT = "system-ui,-apple-system,'Segoe UI',Roboto,sans-serif";
/** Links stay this dark blue when the brand colour is too light to read as text on white. */
const DEFAULT_LINK = '#0b4fbf';
/** Long words and links wrap inside the reader's window instead of widening it (issue 19, item 17). */
const WRAP = 'overflow-wrap:anywhere;word-break:break-word';

/**
 * Plain text as simple HTML paragraphs: blank lines start paragraphs, line breaks stay, and web
 * addresses become links. Everything is escaped first, so the text can add no markup.
 */
function paragraphsOf(text: string, linkColor: string, style: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .filter((p) => p.trim() !== '')
    .map((p) => {
      const escaped = escapeHtml(p).replace(LINK, (url) => `<a href="${url}" style="color:${linkColor};${WRAP}">${url}</a>`);
      return `<p style="margin:0 0 1em;${style}">${escaped.replaceAll('\n', '<br>')}</p>`;
    })
    .join('');
}

/** The client's look from Survey Admin: its logo (a web address only) and colour, else its name and the platform's blue. */
function headerOf(settings: SurveyAdminSettings, businessName: string, color: string): string {
  const logo = settings.logo_url && /^https:\/\//i.test(settings.logo_url) ? settings.logo_url : null;
  const mark = logo
    ? `<img src="${escapeHtml(logo)}" alt="${escapeHtml(businessName)}" style="max-height:48px;max-width:200px;border:0">`
    : `<strong style="font-size:18px">${escapeHtml(businessName)}</strong>`;
  return `<div style="border-top:4px solid ${color};padding:16px 0 8px">${mark}</div>`;
}

/**
 * An e-mail of a client as it goes out (its invitations, Survey Admin's test): the text, then the
 * client's Survey Admin footer with its `{business_name}` and `{unsubscribe_link}` (and the
 * invitation's tokens) filled; as HTML under the client's logo and brand colour, every value escaped.
 */
export function brandedEmail(
  text: string,
  settings: SurveyAdminSettings,
  fill: (text: string) => string,
  businessName: string,
): { text: string; html: string } {
  const footer = fill(settings.unsubscribe_footer.replaceAll('{business_name}', businessName)).trim();
  const color = brandColorOf(settings.brand_color);
  const linkColor = readableOnWhite(color) ? color : DEFAULT_LINK;
  const body = paragraphsOf(text, linkColor, '');
  const small = paragraphsOf(footer, linkColor, 'font-size:13px;color:#555');
  const html = [
    `<div style="font-family:${FONT};font-size:16px;line-height:1.5;color:#1a1a1a;max-width:600px;${WRAP}">`,
    headerOf(settings, businessName, color),
    body,
    `<div style="margin-top:24px;padding-top:12px;border-top:1px solid #ddd">${small}</div>`,
    '</div>',
  ].join('');
  return { text: footer === '' ? text.trim() : `${text.trim()}\n\n${footer}`, html };
}

/**
 * An invitation e-mail as it is sent: subject and body with their tokens filled, the client's
 * Survey Admin footer, logo and colour, and the sender and reply-to the survey's own values or
 * else its client's give (`effectiveSurveySettings`). `settings` null: the platform defaults.
 */
export function invitationEmail(
  survey: { emailSubject: string | null; emailBody: string | null; senderName: string; replyTo: string | null },
  v: InvitationValues,
  settings: SurveyAdminSettings | null,
): RenderedEmail {
  const values = {
    firstName: v.firstName,
    locationName: v.locationName ?? 'Your location',
    personnelName: v.personnelName ?? 'our team',
    surveyLink: v.surveyLink,
    unsubscribeLink: v.unsubscribeLink,
  };
  const client = settings ?? defaultSettingsOf(v.businessName);
  const fill = (text: string) => renderSurveyEmail(text, values);
  const sending = effectiveSurveySettings({ sender_name: survey.senderName, reply_to: survey.replyTo, over_survey_days: null }, client);
  return {
    subject: fill(survey.emailSubject ?? ''),
    ...brandedEmail(fill(survey.emailBody ?? ''), client, fill, v.businessName),
    sender: { name: sending.senderName, address: sending.senderAddress },
    replyTo: sending.replyTo,
  };
}

/** An invitation SMS: the template's `{first_name}`, `{business_name}` and `{link}` filled. */
export function invitationSms(body: string, v: InvitationValues): string {
  return body.replaceAll('{first_name}', v.firstName).replaceAll('{business_name}', v.businessName).replaceAll('{link}', v.surveyLink);
}

/**
 * Survey Admin's Send test email: the client's sender, reply-to, logo, colour and footer as its
 * invitations get them, around a line saying what it is. Its footer's unsubscribe link is the
 * sample one a preview uses (a test e-mail belongs to no invitation).
 */
export function settingsTestEmail(
  settings: SurveyAdminSettings & Pick<SurveySettings, 'client_name'>,
  sampleUnsubscribeLink: string,
): RenderedEmail {
  const name = settings.client_name;
  const text = [
    `This is a test e-mail of ${name}'s survey settings: its survey invitations go out from this sender, with this logo, colour and footer.`,
    ...(settings.reply_to ? ['', `Replies go to ${settings.reply_to}.`] : []),
  ].join('\n');
  const sending = effectiveSurveySettings({ sender_name: '', reply_to: null, over_survey_days: null }, settings);
  return {
    subject: `Test e-mail from ${sending.senderName}`,
    ...brandedEmail(text, settings, (t) => t.replaceAll('{unsubscribe_link}', sampleUnsubscribeLink), name),
    sender: { name: sending.senderName, address: sending.senderAddress },
    replyTo: sending.replyTo,
  };
}
