import { z } from 'zod';
import { bodyId, idFilterItem } from '../api/ids.ts';
import { labelOptions } from '../api/label-options.ts';
import { defineResource, statusFilter, statusLabel } from '../api/resource.ts';
import { exportMoment } from '../api/zoned-time.ts';
import { STATUSES } from '../constants.ts';
import {
  FEED_DATE_FORMATS,
  FEED_DELIMITERS,
  FEED_FIELDS,
  FEED_LOCATION_MODES,
  FEED_RUN_STATUSES,
  FEED_SOURCE_TYPES,
  FEED_TRIGGER_EVENTS,
  type FeedField,
  type FeedMapping,
} from '../pipeline/enums.ts';
import {
  FEED_DATE_FORMAT_LABELS,
  FEED_DELIMITER_LABELS,
  FEED_FIELD_LABELS,
  FEED_LOCATION_MODE_LABELS,
  FEED_SOURCE_TYPE_LABELS,
  FEED_TRIGGER_EVENT_LABELS,
} from './data-feed-labels.ts';
import { locationResource } from './locations.ts';

export * from './data-feed-files.ts';
export * from './data-feed-labels.ts';

/**
 * Survey Platform (docs/screens.md, Survey Platform): a client's data feeds — where business-system
 * rows come from (CSV upload, SFTP pull, the ingest API), how their columns map to the fields of a
 * survey request, and which survey they trigger.
 */

/** Fields named by themselves: the API's rows, and a new feed's mapping (the sample template's headers). */
export const IDENTITY_MAPPING: FeedMapping = Object.fromEntries(FEED_FIELDS.map((f) => [f, f]));

const LOCATION_ID = /^[a-f0-9]{24}$/;
/** Five fields separated by single spaces (minute hour day-of-month month day-of-week). */
export const CRON_SHAPE = /^(\S+\s){4}\S+$/;

const lastRunSchema = z.object({
  id: z.number().int(),
  status: z.enum(FEED_RUN_STATUSES),
  started_at: z.string(),
  rows_read: z.number().int(),
  rows_accepted: z.number().int(),
  rows_skipped: z.number().int(),
  rows_invalid: z.number().int(),
});

/** A feed as the API answers it; the SFTP password is never answered, only whether one is set. */
export const dataFeedSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  client_name: z.string().nullable(),
  name: z.string(),
  source_type: z.enum(FEED_SOURCE_TYPES),
  vendor: z.string().nullable(),
  trigger_event: z.enum(FEED_TRIGGER_EVENTS),
  survey_id: z.number().int(),
  survey_name: z.string().nullable(),
  location_mode: z.enum(FEED_LOCATION_MODES),
  location_id: z.string().nullable(),
  location_name: z.string().nullable(),
  schedule_cron: z.string().nullable(),
  sftp_host: z.string().nullable(),
  sftp_port: z.number().int(),
  sftp_path: z.string().nullable(),
  sftp_username: z.string().nullable(),
  sftp_password_set: z.boolean(),
  file_name_pattern: z.string().nullable(),
  delimiter: z.enum(FEED_DELIMITERS),
  has_header: z.boolean(),
  date_format: z.enum(FEED_DATE_FORMATS),
  field_mapping: z.partialRecord(z.enum(FEED_FIELDS), z.string()),
  allowed_ips: z.array(z.string()),
  last_run_at: z.string().nullable(),
  /** The client's time zone (IANA): the last run's time is shown in it, named. */
  client_timezone: z.string().nullable(),
  last_received: z.string().nullable(),
  last_run: lastRunSchema.nullable(),
  /** Why the feed's last pull or run failed (an SFTP server that refused the password…); null once one succeeds. */
  last_error: z.string().nullable(),
  last_error_at: z.string().nullable(),
  status: z.enum(STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DataFeed = z.infer<typeof dataFeedSchema>;

const whole = z.number().int().nullable().optional();
const fieldMappingBody = z.partialRecord(z.enum(FEED_FIELDS), z.string().max(120)).optional();

export const dataFeedResource = defineResource({
  name: 'data_feed',
  noun: 'feed',
  path: '/api/data-feeds',
  screen: 'survey-platform',
  // As Surveys: the current client's by default, or the clients chosen in the filter; a write acts on the feed's own client.
  scope: 'filterable-clients',
  record: dataFeedSchema,
  fields: {
    name: { label: 'Feed name', rules: 'required|max:120', placeholder: 'e.g. ServiceTitan invoices' },
    source_type: {
      label: 'Source system',
      input: 'select',
      options: labelOptions(FEED_SOURCE_TYPE_LABELS),
      rules: { required: true, included: [...FEED_SOURCE_TYPES] },
      default: 'csv_upload',
    },
    vendor: { label: 'Vendor', rules: 'max:60', placeholder: 'e.g. ServiceTitan' },
    trigger_event: {
      label: 'Trigger event',
      input: 'select',
      options: labelOptions(FEED_TRIGGER_EVENT_LABELS),
      rules: { required: true, included: [...FEED_TRIGGER_EVENTS] },
      default: 'invoice_paid',
    },
    survey_id: { label: 'Survey', input: 'select', rules: 'required|integer', schema: bodyId.nullable().optional() },
    location_mode: {
      label: 'Location',
      input: 'select',
      options: labelOptions(FEED_LOCATION_MODE_LABELS),
      rules: { required: true, included: [...FEED_LOCATION_MODES] },
      default: 'single',
    },
    location_id: {
      label: 'Fixed location',
      input: 'select',
      rules: { regex: LOCATION_ID },
      schema: z.string().max(24).nullable().optional(),
    },
    schedule_cron: { label: 'Schedule (cron)', rules: { regex: CRON_SHAPE, max: 120 }, placeholder: 'e.g. 0 6 * * *' },
    sftp_host: { label: 'SFTP host', rules: 'ip_or_fqdn', placeholder: 'e.g. sftp.example.com' },
    sftp_port: { label: 'SFTP port', rules: 'integer|between:1,65535', schema: whole, default: '22' },
    sftp_path: { label: 'SFTP path', rules: 'max:255', placeholder: 'e.g. /outbound/invoices' },
    sftp_username: { label: 'SFTP username', rules: 'max:120' },
    /** Write-only: stored encrypted, never answered (docs/decisions/029-feed-ingest.md). Blank on edit keeps the stored one. */
    sftp_password: { label: 'SFTP password', rules: 'max:200' },
    file_name_pattern: { label: 'File name pattern', rules: 'max:120', placeholder: 'e.g. invoices_*.csv' },
    delimiter: {
      label: 'Delimiter',
      input: 'select',
      options: labelOptions(FEED_DELIMITER_LABELS),
      rules: { included: [...FEED_DELIMITERS] },
      default: 'comma',
    },
    has_header: { label: 'First row is a header', input: 'checkbox', schema: z.boolean().optional(), default: true },
    date_format: {
      label: 'Date format',
      input: 'select',
      options: labelOptions(FEED_DATE_FORMAT_LABELS),
      rules: { included: [...FEED_DATE_FORMATS] },
      default: 'yyyy-MM-dd',
    },
    field_mapping: { label: 'Field mapping', schema: fieldMappingBody },
    allowed_ips: {
      label: 'Allowed IPs',
      rules: 'ip_or_fqdn',
      schema: z.array(z.string().max(255)).max(50).optional(),
      default: [],
    },
  },
  columns: {
    name: { label: 'Feed name', sortable: true },
    client_name: { label: 'Client' },
    source_type: {
      label: 'Source system',
      sortable: true,
      format: (f) => `${FEED_SOURCE_TYPE_LABELS[f.source_type]}${f.vendor ? ` · ${f.vendor}` : ''}`,
    },
    trigger_event: { label: 'Trigger event', format: (f) => FEED_TRIGGER_EVENT_LABELS[f.trigger_event], defaultVisible: false },
    survey_name: { label: 'Survey' },
    locations: {
      label: 'Locations',
      format: (f) => (f.location_mode === 'column' ? 'By location code' : (f.location_name ?? '')),
      defaultVisible: false,
    },
    schedule_cron: { label: 'Schedule', format: (f) => f.schedule_cron ?? '', defaultVisible: false },
    last_received: {
      label: 'Last file or call received',
      sortable: true,
      format: (f) => (f.last_run_at ? `${f.last_received ?? ''} · ${exportMoment(f.last_run_at, f.client_timezone)}` : ''),
    },
    rows_last_run: {
      label: 'Rows last run (accepted/skipped/errors)',
      format: (f) => (f.last_run ? `${f.last_run.rows_accepted}/${f.last_run.rows_skipped}/${f.last_run.rows_invalid}` : ''),
      // Its label alone is wider than 1440 px leaves (docs/decisions/040): a choice in Columns.
      defaultVisible: false,
    },
    last_error: { label: 'Last error', format: (f) => f.last_error ?? '', defaultVisible: false },
    status: { label: 'Status', sortable: true, format: (f) => statusLabel(f.status) },
    updated_at: { label: 'Updated', sortable: true, defaultVisible: false },
  },
  filters: {
    client: locationResource.filters.client,
    source_type: { kind: 'multi', label: 'Source system', options: labelOptions(FEED_SOURCE_TYPE_LABELS) },
    survey: {
      kind: 'multi',
      label: 'Survey',
      item: idFilterItem,
      optionsPath: '/api/data-feeds/options/survey',
    },
    status: statusFilter,
    has_errors: { kind: 'choice', label: 'Errors', checkbox: true, options: [{ value: 'yes', label: 'Has errors in last run' }] },
  },
  defaultSort: { sort: 'name', order: 'asc' },
  search: 'Feed name or vendor',
  card: { facts: ['client_name', 'survey_name', 'last_received'] },
  statusEffects: {
    paused: 'The feed ingests nothing (uploads, SFTP pulls and API calls are refused) until it is resumed.',
    inactive: 'The feed is archived: it ingests nothing and is hidden by default. You can restore it later.',
  },
});

export type DataFeedBody = z.infer<typeof dataFeedResource.createSchema>;
export type DataFeedListQuery = z.infer<typeof dataFeedResource.listQuerySchema>;

/** The labels of the mapping's fields, for messages ("Map a column to First name"). */
export const feedFieldLabel = (field: FeedField): string => FEED_FIELD_LABELS[field];

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/**
 * The rules of a feed that look at more than one field (form and server both run them, on the feed
 * as it will be saved): the mapping's required fields (first name, email or phone, transaction
 * date, the location code column when locations come from a column), the fixed location of a
 * one-location feed, and the host, path, username and password of an SFTP feed. Field → messages.
 */
export function checkFeed(values: {
  source_type?: string | null | undefined;
  location_mode?: string | null | undefined;
  location_id?: string | null | undefined;
  sftp_host?: string | null | undefined;
  sftp_path?: string | null | undefined;
  sftp_username?: string | null | undefined;
  field_mapping?: FeedMapping | null | undefined;
  sftp_password?: string | null | undefined;
  /** Whether the stored feed already has a password (an edit may leave it blank). */
  password_set?: boolean;
}): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  const mapping = values.field_mapping ?? {};
  const need = (field: FeedField, why = '') => {
    if (blank(mapping[field])) add('field_mapping', `Map a column to ${FEED_FIELD_LABELS[field]}${why}`);
  };
  need('first_name');
  if (blank(mapping.email) && blank(mapping.phone)) add('field_mapping', 'Map a column to Email or Phone (at least one)');
  need('transaction_date');
  if (values.location_mode === 'column') need('location_code', ' when the location comes from a column');
  const labels = dataFeedResource.labels;
  if (values.location_mode === 'single' && blank(values.location_id)) {
    add('location_id', `The ${labels.location_id} field is required when the location is ${FEED_LOCATION_MODE_LABELS.single}`);
  }
  if (values.source_type === 'sftp') {
    for (const field of ['sftp_host', 'sftp_path', 'sftp_username'] as const) {
      if (blank(values[field])) add(field, `The ${labels[field]} field is required when the source system is SFTP`);
    }
    if (blank(values.sftp_password) && !values.password_set)
      add('sftp_password', `The ${labels.sftp_password} field is required when the source system is SFTP`);
  }
  return errors;
}

/** The mapping editor's preview body: its sample file input, and the form's delimiter and header as the feed's. */
export const FEED_SAMPLE_LABELS = {
  csv: 'Sample file',
  file_name: 'Sample file',
  delimiter: dataFeedResource.fields.delimiter.label,
  has_header: dataFeedResource.fields.has_header.label,
} as const satisfies Record<string, string>;
