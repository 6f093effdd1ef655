import { z } from 'zod';
import { idFilterItem } from '../api/ids.ts';
import { defineResource } from '../api/resource.ts';
import { exportMoment } from '../api/zoned-time.ts';
import {
  FEED_RUN_SOURCES,
  FEED_RUN_STATUSES,
  type FeedRunStatus,
  SURVEY_CHANGE_ACTIONS,
  type SurveyChangeAction,
} from '../pipeline/enums.ts';
import { type DiffRow, describedDiff, diffRowsText } from './readable-diff.ts';
import { PROCESSING_STATUS_LABELS } from './survey-processing.ts';
import { surveyResource } from './surveys.ts';

/**
 * Survey Manager Logs (docs/screens.md, Survey Manager Logs), two read-only lists: the feeds' runs
 * (data_feed_runs, with their per-row errors, the rejected rows as CSV and Re-run failed rows) and
 * the surveys' changes (survey_change_logs: who changed which survey how, with a diff).
 */
export const FEED_RUN_STATUS_LABELS: Record<FeedRunStatus, string> = {
  running: 'Running',
  succeeded: 'Succeeded',
  partial: 'Partial',
  failed: 'Failed',
};
export const SURVEY_CHANGE_ACTION_LABELS: Record<SurveyChangeAction, string> = {
  created: 'Created',
  updated: 'Updated',
  paused: 'Paused',
  resumed: 'Resumed',
  archived: 'Archived',
  restored: 'Restored',
  duplicated: 'Duplicated',
  question_added: 'Question added',
  question_removed: 'Question removed',
  question_changed: 'Question changed',
};

export const feedRunSchema = z.object({
  id: z.number().int(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  /** Whole seconds from start to finish; null while running. */
  duration_s: z.number().int().nullable(),
  client_id: z.number().int(),
  client_name: z.string().nullable(),
  /** The client's time zone (IANA): its times are shown in it (formatMoment). */
  client_timezone: z.string().nullable(),
  data_feed_id: z.number().int(),
  feed_name: z.string().nullable(),
  survey_id: z.number().int().nullable(),
  source: z.enum(FEED_RUN_SOURCES),
  source_name: z.string(),
  rows_read: z.number().int(),
  /** Rows admitted so far: a running run resumes after them. */
  rows_done: z.number().int(),
  /** Whether the whole file is stored; a running run that is not is still arriving. */
  received: z.boolean(),
  rows_accepted: z.number().int(),
  /** Rows the rules skipped, by status (`skipped_duplicate`: 3, …). */
  rows_skipped: z.record(z.string(), z.number().int()),
  rows_invalid: z.number().int(),
  scheduled: z.number().int(),
  sent: z.number().int(),
  /** Rows refused with an error (data_feed_row_errors). */
  errors: z.number().int(),
  /** The run's outcome; not `status`, which in the kit is a record's active/paused/archived lifecycle. */
  run_status: z.enum(FEED_RUN_STATUSES),
  error: z.string().nullable(),
  rerun_of: z.number().int().nullable(),
  started_by_name: z.string().nullable(),
});
export type FeedRun = z.infer<typeof feedRunSchema>;

const count = (n: number) => n.toLocaleString('en-US');
/** A run's status as people read it; a running one says how far it got (receiving the file, then admitting its rows). */
export const runStatusText = (r: Pick<FeedRun, 'run_status' | 'received' | 'rows_read' | 'rows_done'>): string => {
  if (r.run_status !== 'running') return FEED_RUN_STATUS_LABELS[r.run_status];
  return r.received ? `Running: ${count(r.rows_done)} of ${count(r.rows_read)} rows` : `Receiving: ${count(r.rows_read)} rows so far`;
};

/** `Skipped: duplicate 3, Skipped: opted out 1`: the skipped rows by reason, named as Survey Processing names the status (table and CSV). */
export const skippedText = (skipped: Record<string, number>): string => {
  const labels: Record<string, string> = PROCESSING_STATUS_LABELS;
  return Object.entries(skipped)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${Object.hasOwn(labels, reason) ? labels[reason] : reason} ${n}`)
    .join(', ');
};

export const feedRowErrorSchema = z.object({
  row_number: z.number().int(),
  column: z.string().nullable(),
  message: z.string(),
  raw: z.record(z.string(), z.string()),
});
export type FeedRowError = z.infer<typeof feedRowErrorSchema>;

/** Where rows came from (a run's, an invitation's source), as people read it. */
export const SOURCE_LABELS: Record<string, string> = {
  csv_upload: 'CSV upload',
  sftp: 'SFTP',
  api: 'API',
  rerun: 'Re-run of failed rows',
  manual_test: 'Test send',
  demo: 'Demo data',
};
export const sourceLabel = (source: string): string => SOURCE_LABELS[source] ?? source;

/**
 * Rows are named by their line in the file, the header being line 1, in every feed and import
 * message and CSV (docs/decisions/041-line-numbers-and-zoned-times.md). An API call has no file:
 * its rows are counted from 1.
 */
export const rowPlace = (source: string, n: number): string => (source === 'api' ? `row ${n}` : `line ${n}`);

/** `CSV upload · run 40, line 5`: where an invitation came from (Survey Processing's detail). */
export const sourceText = (source: string, runId: number | null, rowNumber: number | null): string =>
  `${sourceLabel(source)}${runId === null ? '' : ` · run ${runId}${rowNumber === null ? '' : `, ${rowPlace(source, rowNumber)}`}`}`;

/** A refused row once, with all its errors: what the run's detail lists (the stored errors are one per field). */
export type RefusedRow = { row_number: number; errors: { column: string | null; message: string }[]; raw: Record<string, string> };
export function refusedRows(errors: readonly FeedRowError[]): RefusedRow[] {
  const rows = new Map<number, RefusedRow>();
  for (const e of errors) {
    const row = rows.get(e.row_number) ?? { row_number: e.row_number, errors: [], raw: e.raw };
    row.errors.push({ column: e.column, message: e.message });
    rows.set(e.row_number, row);
  }
  return [...rows.values()];
}

/** The run's detail: its per-row errors (the first 500; the rejected-rows CSV has them all). */
export const feedRunDetailSchema = feedRunSchema.extend({ row_errors: z.array(feedRowErrorSchema) });
export type FeedRunDetail = z.infer<typeof feedRunDetailSchema>;

export const feedRunResource = defineResource({
  name: 'data_feed_run',
  noun: 'run',
  plural: 'runs',
  path: '/api/survey-manager-logs/runs',
  screen: 'survey-manager-logs-runs',
  scope: 'filterable-clients',
  record: feedRunSchema,
  fields: {},
  columns: {
    id: { label: 'Run id' },
    started_at: { label: 'Started', sortable: true, format: (r) => exportMoment(r.started_at, r.client_timezone) },
    finished_at: { label: 'Finished', defaultVisible: false, format: (r) => exportMoment(r.finished_at, r.client_timezone) },
    duration_s: { label: 'Duration (s)', defaultVisible: false },
    client_name: { label: 'Client' },
    feed_name: { label: 'Feed' },
    source_name: { label: 'Source file or API' },
    rows_read: { label: 'Rows read', defaultVisible: false },
    rows_accepted: { label: 'Accepted' },
    rows_skipped: { label: 'Skipped', format: (r) => skippedText(r.rows_skipped) },
    rows_invalid: { label: 'Invalid' },
    scheduled: { label: 'Surveys scheduled', defaultVisible: false },
    sent: { label: 'Sent', defaultVisible: false },
    errors: { label: 'Errors', defaultVisible: false },
    status: { label: 'Status', format: runStatusText },
  },
  filters: {
    client: { kind: 'multi', label: 'Clients', item: idFilterItem },
    feed: { kind: 'multi', label: 'Feeds', item: idFilterItem },
    survey: { kind: 'multi', label: 'Surveys', item: idFilterItem },
    status: { kind: 'multi', label: 'Status', options: FEED_RUN_STATUSES.map((s) => ({ value: s, label: FEED_RUN_STATUS_LABELS[s] })) },
    user: { kind: 'multi', label: 'Users', item: idFilterItem },
    date: { kind: 'dateRange', label: 'Date range' },
  },
  defaultSort: { sort: 'started_at', order: 'desc' },
  search: 'Source file name',
  card: { title: 'feed_name', facts: ['started_at', 'client_name', 'rows_accepted'] },
});
export type FeedRunListQuery = z.infer<typeof feedRunResource.listQuerySchema>;

export const surveyChangeSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  client_id: z.number().int(),
  client_name: z.string().nullable(),
  /** The client's time zone (IANA): its times are shown in it (formatMoment). */
  client_timezone: z.string().nullable(),
  survey_id: z.number().int(),
  survey_name: z.string().nullable(),
  action: z.enum(SURVEY_CHANGE_ACTIONS),
  /** Changed fields (or question ids): their value before and after. */
  diff: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
});
export type SurveyChange = z.infer<typeof surveyChangeSchema>;

/** A survey change's fields by the survey form's labels, values in words, a question on one line. */
export const surveyDiffRows = (diff: SurveyChange['diff'], zone?: string | null): DiffRow[] => describedDiff(surveyResource, diff, zone);
/** `Name: Old → New; Send delay (hours): 24 → 48`, as the table and CSV show a diff. */
export const diffText = (diff: SurveyChange['diff'], zone?: string | null): string => diffRowsText(surveyDiffRows(diff, zone));

export const surveyChangeResource = defineResource({
  name: 'survey_change_log',
  noun: 'change',
  plural: 'changes',
  path: '/api/survey-manager-logs/changes',
  screen: 'survey-manager-logs-changes',
  scope: 'filterable-clients',
  record: surveyChangeSchema,
  fields: {},
  columns: {
    at: { label: 'Time', sortable: true, format: (r) => exportMoment(r.at, r.client_timezone) },
    user_name: { label: 'User' },
    client_name: { label: 'Client' },
    survey_name: { label: 'Survey' },
    action: { label: 'Action', format: (r) => SURVEY_CHANGE_ACTION_LABELS[r.action] },
    diff: { label: 'Diff', format: (r) => diffText(r.diff, r.client_timezone ?? 'UTC') },
  },
  filters: {
    client: { kind: 'multi', label: 'Clients', item: idFilterItem },
    survey: { kind: 'multi', label: 'Surveys', item: idFilterItem },
    action: {
      kind: 'multi',
      label: 'Action',
      options: SURVEY_CHANGE_ACTIONS.map((a) => ({ value: a, label: SURVEY_CHANGE_ACTION_LABELS[a] })),
    },
    user: { kind: 'multi', label: 'Users', item: idFilterItem },
    date: { kind: 'dateRange', label: 'Date range' },
  },
  defaultSort: { sort: 'at', order: 'desc' },
  search: 'Survey name',
});
export type SurveyChangeListQuery = z.infer<typeof surveyChangeResource.listQuerySchema>;
