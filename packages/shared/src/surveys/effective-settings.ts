import type { SendDay, SurveySettings } from '../resources/survey-settings.ts';
import type { Survey } from '../resources/surveys.ts';

/**
 * How a survey inherits its client's Survey Admin settings (docs/decisions/027-surveys-inherit-survey-admin.md):
 * a survey's blank (null) reply-to and over-survey days mean "the client's"; its sender name is
 * its own (the create form starts it at the client's from name). The schedule (quiet hours, send
 * days, daily cap) is the client's only. Send test and Preview use these values, and the send
 * engine will.
 */
export type EffectiveSurveySettings = {
  senderName: string;
  /** The client's own From address, or null for the platform's (see `ownSenderAddress`). */
  senderAddress: string | null;
  replyTo: string | null;
  overSurveyDays: number;
  quietHoursStart: string;
  quietHoursEnd: string;
  sendDays: SendDay[];
  dailyCap: number;
};

/** What a client's Survey Admin settings give its surveys' sending (the rest of each e-mail's look is the messenger's). */
export type ClientSettings = Pick<
  SurveySettings,
  | 'from_name'
  | 'from_email'
  | 'sending_domain'
  | 'domain_verified'
  | 'reply_to'
  | 'over_survey_days'
  | 'quiet_hours_start'
  | 'quiet_hours_end'
  | 'send_days'
  | 'daily_cap_per_location'
>;

const blank = (v: string | null | undefined) => (v ?? '').trim() === '';

/** Whether an address is at a domain or one of its subdomains (`a@mail.acme.com` for `acme.com`). */
function atDomain(address: string, domain: string): boolean {
  const at = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  const d = domain.toLowerCase();
  return at === d || at.endsWith(`.${d}`);
}

/**
 * The client's own From address, only when it is at the client's verified sending domain (the
 * provider refuses others); null means the platform's address.
 */
export function ownSenderAddress(settings: Pick<SurveySettings, 'from_email' | 'sending_domain' | 'domain_verified'>): string | null {
  const { from_email: email, sending_domain: domain } = settings;
  return settings.domain_verified && email && domain && atDomain(email, domain) ? email : null;
}

/** The values a survey is sent with: its own where it sets them, else its client's Survey Admin settings. */
export function effectiveSurveySettings(
  survey: Pick<Survey, 'sender_name' | 'reply_to' | 'over_survey_days'>,
  settings: ClientSettings,
): EffectiveSurveySettings {
  return {
    senderName: blank(survey.sender_name) ? settings.from_name : survey.sender_name.trim(),
    senderAddress: ownSenderAddress(settings),
    replyTo: blank(survey.reply_to) ? settings.reply_to : (survey.reply_to?.trim() ?? null),
    overSurveyDays: survey.over_survey_days ?? settings.over_survey_days,
    quietHoursStart: settings.quiet_hours_start,
    quietHoursEnd: settings.quiet_hours_end,
    sendDays: [...settings.send_days],
    dailyCap: settings.daily_cap_per_location,
  };
}
