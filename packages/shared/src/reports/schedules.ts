import { z } from 'zod';
import { defineResource, optionLabel, statusFilter, statusLabel } from '../api/resource.ts';
import { STATUSES } from '../constants.ts';
import { TIME_ZONES } from '../resources/clients.ts';
import { WEEKDAY_OPTIONS, WEEKDAYS } from '../resources/review-alert-rules.ts';

/**
 * Scheduled report e-mails: a report and its filters saved with recipients and a weekly or
 * monthly schedule; at each send the period is computed (weekly: the 7 local days ending
 * yesterday; monthly: the previous calendar month, in the schedule's zone) and the report's CSV
 * goes to every recipient (apps/server/src/report-schedules/, docs/decisions/069).
 */
export const SCHEDULED_REPORTS = ['performance', 'review_alerts', 'ac_performance'] as const;
export type ScheduledReport = (typeof SCHEDULED_REPORTS)[number];
export const SCHEDULED_REPORT_OPTIONS = [
  { value: 'performance', label: 'Performance Report' },
  { value: 'review_alerts', label: 'Review Alerts Report' },
  { value: 'ac_performance', label: 'AC Performance Report' },
] as const;
/** Reports whose e-mail is built today; the others are refused by name (422 on Report). */
export const SCHEDULABLE_REPORTS: readonly ScheduledReport[] = ['performance'];

export const SCHEDULE_FREQUENCIES = ['weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];
export const SCHEDULE_FREQUENCY_OPTIONS = [
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
] as const;

/** At most this many recipients: a report for a team, not a mailing list. */
export const MAX_SCHEDULE_RECIPIENTS = 20;
/** Days 29–31 are missing from some months; a monthly send picks a day every month has. */
export const MAX_SCHEDULE_DAY = 28;

const twoDigits = (n: number) => String(n).padStart(2, '0');
export const HOUR_OPTIONS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${twoDigits(h)}:00` }));
export const SCHEDULE_DAY_OPTIONS = Array.from({ length: MAX_SCHEDULE_DAY }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));

/**
 * The Performance Report's filters as a schedule keeps them: its query without the date range
 * (the period is the schedule's); `groupBy` and `channel` are PERFORMANCE_GROUP_BY and
 * PERFORMANCE_CHANNELS values. The server checks them with the report's own query reader.
 */
export const performanceScheduleFiltersSchema = z.strictObject({
  clients: z.array(z.number().int()).max(1000).optional(),
  locations: z.array(z.string().max(40)).max(1000).optional(),
  surveys: z.array(z.number().int()).max(1000).optional(),
  personnel: z.array(z.number().int()).max(1000).optional(),
  // Text here, so a value the report does not know is the reader's 422 naming it, not a shape error.
  groupBy: z.string().max(40).optional(),
  channel: z.string().max(40).optional(),
});
export type PerformanceScheduleFilters = z.infer<typeof performanceScheduleFiltersSchema>;

export const SCHEDULE_RUN_STATUSES = ['sending', 'sent', 'failed'] as const;
export type ScheduleRunStatus = (typeof SCHEDULE_RUN_STATUSES)[number];
export const SCHEDULE_RUN_STATUS_LABELS: Record<ScheduleRunStatus, string> = { sending: 'Sending', sent: 'Sent', failed: 'Failed' };

export const reportScheduleSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  client_name: z.string().nullable(),
  name: z.string(),
  report: z.enum(SCHEDULED_REPORTS),
  // As answered: unknown keys dropped rather than refused (strict is for what a client sends).
  filters: z.object(performanceScheduleFiltersSchema.shape),
  recipients: z.array(z.string()),
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  weekday: z.string().nullable(),
  day_of_month: z.number().int().nullable(),
  hour: z.number().int(),
  timezone: z.string(),
  status: z.enum(STATUSES),
  /** The next send while active (null when paused or archived). */
  next_send_at: z.string().nullable(),
  last_sent_at: z.string().nullable(),
  last_status: z.enum(SCHEDULE_RUN_STATUSES).nullable(),
  /** The period of the last send, e.g. `2026-11-16 – 2026-11-22`. */
  last_period: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;

/** "Mondays at 07:00 America/Chicago", "Monthly on day 1 at 07:00 Europe/Paris". */
export function scheduleText(s: Pick<ReportSchedule, 'frequency' | 'weekday' | 'day_of_month' | 'hour' | 'timezone'>): string {
  const at = `at ${twoDigits(s.hour)}:00 ${s.timezone}`;
  if (s.frequency === 'monthly') return `Monthly on day ${s.day_of_month ?? '—'} ${at}`;
  return `${s.weekday ? `${optionLabel(WEEKDAY_OPTIONS, s.weekday)}s` : 'Weekly'} ${at}`;
}

/** "Sent (2026-11-16 – 2026-11-22)", "Failed: <error>", or "Not sent yet". */
export function lastSendText(s: Pick<ReportSchedule, 'last_status' | 'last_period' | 'last_error'>): string {
  if (s.last_status === null) return 'Not sent yet';
  const label = SCHEDULE_RUN_STATUS_LABELS[s.last_status];
  if (s.last_status === 'failed') return `${label}: ${s.last_error ?? 'unknown error'}`;
  return s.last_period ? `${label} (${s.last_period})` : label;
}

/** Splits what a person typed (commas, semicolons, spaces or lines) into addresses. */
export function recipientList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter((v) => v !== '');
  return typeof value === 'string' ? value.split(/[\s,;]+/).filter((v) => v !== '') : [];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Checks across fields, shared by the form and the server: 1–20 valid recipients, a weekday for a
 * weekly schedule, a day of the month for a monthly one. Only fields present are checked (edits).
 */
export function reportScheduleProblems(body: {
  recipients?: unknown;
  frequency?: unknown;
  weekday?: unknown;
  day_of_month?: unknown;
}): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  if (body.recipients !== undefined) {
    const list = recipientList(body.recipients);
    const invalid = list.filter((r) => !EMAIL.test(r) || r.length > 254);
    if (list.length === 0) problems.recipients = ['The Recipients field is required'];
    else if (list.length > MAX_SCHEDULE_RECIPIENTS)
      problems.recipients = [`The Recipients field may hold at most ${MAX_SCHEDULE_RECIPIENTS} addresses`];
    else if (invalid.length > 0) problems.recipients = [`The Recipients field holds addresses that are not valid: ${invalid.join(', ')}`];
  }
  const blank = (v: unknown) => v === null || v === undefined || v === '';
  if (body.frequency === 'weekly' && blank(body.weekday)) problems.weekday = ['The Weekday field is required for a weekly schedule'];
  if (body.frequency === 'monthly' && blank(body.day_of_month))
    problems.day_of_month = ['The Day of the month field is required for a monthly schedule'];
  return problems;
}

const whole = z
  .union([z.number().int(), z.string().max(10)])
  .nullable()
  .optional();

export const reportScheduleResource = defineResource({
  name: 'report_schedule',
  noun: 'scheduled report',
  path: '/api/report-schedules',
  screen: 'scheduled-reports',
  scope: 'current-client',
  record: reportScheduleSchema,
  fields: {
    report: {
      label: 'Report',
      input: 'select',
      options: SCHEDULED_REPORT_OPTIONS,
      rules: { required: true, included: [...SCHEDULED_REPORTS] },
      createOnly: true,
    },
    filters: { label: 'Filters', schema: performanceScheduleFiltersSchema.optional(), createOnly: true },
    name: { label: 'Name', rules: 'required|max:120', placeholder: 'e.g. Weekly results for the owners' },
    recipients: {
      label: 'Recipients',
      input: 'textarea',
      placeholder: 'e.g. owner@example.com, manager@example.com',
      schema: z.array(z.string().max(320)).max(100).optional(),
    },
    frequency: {
      label: 'Frequency',
      input: 'select',
      options: SCHEDULE_FREQUENCY_OPTIONS,
      rules: { required: true, included: [...SCHEDULE_FREQUENCIES] },
      default: 'weekly',
    },
    weekday: { label: 'Weekday', input: 'select', options: WEEKDAY_OPTIONS, rules: { included: WEEKDAYS }, default: 'mon' },
    day_of_month: {
      label: 'Day of the month',
      input: 'select',
      options: SCHEDULE_DAY_OPTIONS,
      rules: 'integer|between:1,28',
      schema: whole,
    },
    hour: { label: 'Hour', input: 'select', options: HOUR_OPTIONS, rules: 'required|integer|between:0,23', schema: whole, default: '7' },
    timezone: { label: 'Time zone', input: 'timezone', rules: { required: true, included: TIME_ZONES } },
  },
  columns: {
    name: { label: 'Name', sortable: true },
    report: { label: 'Report', sortable: true, format: (r) => optionLabel(SCHEDULED_REPORT_OPTIONS, r.report) },
    recipients: { label: 'Recipients', format: (r) => r.recipients.join(', ') },
    frequency: { label: 'Schedule', format: scheduleText },
    next_send_at: { label: 'Next send' },
    last_sent_at: { label: 'Last send' },
    last_status: { label: 'Last send status', format: lastSendText },
    status: { label: 'Status', sortable: true, format: (r) => statusLabel(r.status) },
    updated_at: { label: 'Updated', sortable: true, defaultVisible: false },
  },
  filters: {
    report: { kind: 'multi', label: 'Report', options: SCHEDULED_REPORT_OPTIONS },
    status: statusFilter,
  },
  defaultSort: { sort: 'name', order: 'asc' },
  search: 'Name',
  card: { facts: ['frequency', 'next_send_at', 'last_status'] },
  statusEffects: {
    paused: 'Nothing is sent until the schedule is resumed.',
    inactive: 'The schedule is archived: it sends nothing and is hidden by default. You can restore it later.',
  },
});

export type ReportScheduleBody = z.infer<typeof reportScheduleResource.createSchema>;
export type ReportScheduleListQuery = z.infer<typeof reportScheduleResource.listQuerySchema>;
