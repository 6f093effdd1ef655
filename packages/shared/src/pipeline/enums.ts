/**
 * The pipeline's shared vocabularies (docs/pipeline.md): feeds, their runs, API tokens and jobs.
 * The screens' definitions (Survey Platform, API Token Generation, API Managers, Survey
 * Processing, Survey Manager Logs) build their options and labels from these lists.
 */

/** How a feed's rows reach us. */
export const FEED_SOURCE_TYPES = ['csv_upload', 'sftp', 'api', 'webhook'] as const;
export type FeedSourceType = (typeof FEED_SOURCE_TYPES)[number];

/** The business event a feed's rows stand for. */
export const FEED_TRIGGER_EVENTS = [
  'invoice_paid',
  'job_completed',
  'appointment_completed',
  'ro_closed',
  'sale_delivered',
  'discharge',
] as const;
export type FeedTriggerEvent = (typeof FEED_TRIGGER_EVENTS)[number];

export const FEED_LOCATION_MODES = ['single', 'column'] as const;
export type FeedLocationMode = (typeof FEED_LOCATION_MODES)[number];

export const FEED_DELIMITERS = ['comma', 'pipe', 'tab'] as const;
export type FeedDelimiter = (typeof FEED_DELIMITERS)[number];
export const DELIMITER_CHARS: Record<FeedDelimiter, string> = { comma: ',', pipe: '|', tab: '\t' };

export const FEED_DATE_FORMATS = ['yyyy-MM-dd', 'MM/dd/yyyy', 'dd/MM/yyyy'] as const;
export type FeedDateFormat = (typeof FEED_DATE_FORMATS)[number];

/** The fields a feed row maps to (source column → field); API rows are named by them. */
export const FEED_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'transaction_id',
  'transaction_date',
  'location_code',
  'personnel_code',
  'product_code',
  'referral_source',
  'amount',
  'opt_in_sms',
] as const;
export type FeedField = (typeof FEED_FIELDS)[number];
/** A feed's mapping: for each field, the source column it is read from (absent = not supplied). */
export type FeedMapping = Partial<Record<FeedField, string>>;

export const FEED_RUN_STATUSES = ['running', 'succeeded', 'partial', 'failed'] as const;
export type FeedRunStatus = (typeof FEED_RUN_STATUSES)[number];

/** Where a run's rows came from. */
export const FEED_RUN_SOURCES = ['csv_upload', 'sftp', 'api', 'rerun'] as const;
export type FeedRunSource = (typeof FEED_RUN_SOURCES)[number];

/** What an API token may do (domain: API Token Generation). */
export const API_TOKEN_SCOPES = [
  'feeds:write',
  'surveys:read',
  'responses:read',
  'reviews:read',
  'reviews:write',
  'locations:read',
  'locations:write',
  'reports:read',
] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const PAYLOAD_FORMATS = ['json', 'csv'] as const;
export type PayloadFormat = (typeof PAYLOAD_FORMATS)[number];

export const JOB_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** What a survey change log row says happened (Survey Manager Logs, Changes). */
export const SURVEY_CHANGE_ACTIONS = [
  'created',
  'updated',
  'paused',
  'resumed',
  'archived',
  'restored',
  'duplicated',
  'question_added',
  'question_removed',
  'question_changed',
] as const;
export type SurveyChangeAction = (typeof SURVEY_CHANGE_ACTIONS)[number];
