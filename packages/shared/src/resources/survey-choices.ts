import { labelOptions } from '../api/label-options.ts';
import { REVIEW_SITES } from '../constants.ts';
import type { SurveyType } from '../surveys/questions.ts';

/**
 * The closed lists of a survey and of the invitations it sends (`survey_processing_items`), with
 * the labels and options the builder, Survey Manager and Survey Processing show (surveys.ts
 * exports these too).
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

/**
 * Where an invitation came from: a Send test, the demo data (apps/server/src/seed/surveys.ts),
 * or a feed's row (a CSV upload, an SFTP pull, the ingest API).
 */
export const PROCESSING_ITEM_SOURCES = ['manual_test', 'demo', 'csv_upload', 'sftp', 'api'] as const;
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

export const SURVEY_TYPE_LABELS: Record<SurveyType, string> = {
  nps: 'NPS',
  csat: 'CSAT 1–5',
  star: 'Star 1–5',
  custom: 'Custom',
};
export const SURVEY_LANGUAGE_LABELS: Record<SurveyLanguage, string> = { en: 'English', es: 'Spanish', fr: 'French' };
export const REVIEW_INVITE_MODE_LABELS: Record<ReviewInviteMode, string> = {
  all_respondents: 'Every respondent',
  threshold: 'Respondents at or above a score',
};
export const SURVEY_TYPE_OPTIONS = labelOptions(SURVEY_TYPE_LABELS);
export const SURVEY_CHANNEL_OPTIONS = labelOptions(SURVEY_CHANNEL_LABELS);
export const SURVEY_LANGUAGE_OPTIONS = labelOptions(SURVEY_LANGUAGE_LABELS);
export const REVIEW_INVITE_MODE_OPTIONS = labelOptions(REVIEW_INVITE_MODE_LABELS);
export const SURVEY_REVIEW_SITE_OPTIONS = REVIEW_SITES.map((s) => ({ value: s.value, label: s.label }));
/** At most this many review sites are offered to a respondent. */
export const MAX_REVIEW_SITES = 4;
