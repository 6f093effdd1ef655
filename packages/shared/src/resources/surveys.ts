/**
 * Surveys (docs/screens.md, Surveys): the survey definition, and the records and enums of the
 * invitations it sends (`survey_processing_items`), shared by the builder, the public survey page
 * and Survey Manager.
 */

export const SURVEY_CHANNELS = ['email', 'sms', 'email_then_sms', 'sms_then_email'] as const;
export type SurveyChannel = (typeof SURVEY_CHANNELS)[number];
export const SURVEY_CHANNEL_LABELS: Record<SurveyChannel, string> = {
  email: 'Email',
  sms: 'SMS',
  email_then_sms: 'Email → SMS fallback',
  sms_then_email: 'SMS → Email fallback',
};
/** Whether a survey's channel sends e-mail / SMS at all (a fallback counts). */
export const channelUsesEmail = (channel: SurveyChannel | string | null | undefined): boolean =>
  channel === 'email' || channel === 'email_then_sms' || channel === 'sms_then_email';
export const channelUsesSms = (channel: SurveyChannel | string | null | undefined): boolean =>
  channel === 'sms' || channel === 'email_then_sms' || channel === 'sms_then_email';

export const SURVEY_LANGUAGES = ['en', 'es', 'fr'] as const;
export type SurveyLanguage = (typeof SURVEY_LANGUAGES)[number];

export const REVIEW_INVITE_MODES = ['all_respondents', 'threshold'] as const;
export type ReviewInviteMode = (typeof REVIEW_INVITE_MODES)[number];

/** The channel one invitation goes by (a survey's fallback channel resolves to one of these). */
export const PROCESSING_ITEM_CHANNELS = ['email', 'sms'] as const;
export type ProcessingItemChannel = (typeof PROCESSING_ITEM_CHANNELS)[number];

/** Where an invitation came from; feeds and the API come later. */
export const PROCESSING_ITEM_SOURCES = ['manual_test'] as const;
export type ProcessingItemSource = (typeof PROCESSING_ITEM_SOURCES)[number];

/** An invitation's life (Survey Processing). */
export const PROCESSING_ITEM_STATUSES = [
  'queued',
  'scheduled',
  'sent',
  'delivered',
  'opened',
  'responded',
  'reminded',
  'expired',
  'skipped_duplicate',
  'skipped_over_survey',
  'skipped_opt_out',
  'skipped_suppressed',
  'skipped_paused',
  'skipped_manual',
  'invalid_contact',
  'failed',
] as const;
export type ProcessingItemStatus = (typeof PROCESSING_ITEM_STATUSES)[number];
