import {
  type ReportSchedule,
  type ReportScheduleBody,
  type ReportScheduleListQuery,
  recipientList,
  reportScheduleProblems,
  reportScheduleResource,
  SCHEDULABLE_REPORTS,
  SCHEDULED_REPORT_OPTIONS,
  type ScheduledReport,
} from '@admin/shared';
import { sql } from 'drizzle-orm';
import { reportSchedules } from '../db/schema/index.ts';
import type { ResourceStore } from '../kit/resource-store.ts';
import { tableStore } from '../kit/table-store.ts';
import { fieldsRefused } from '../lib/http-error.ts';
import { nextSendAt } from './period.ts';
import { checkScheduleFilters } from './report.ts';
import { type ScheduleRow, timingOf } from './run.ts';

const toNumber = (v: unknown): number | null | undefined =>
  v === undefined ? undefined : v === null || v === '' ? null : Number.isInteger(Number(v)) ? Number(v) : null;

export function toSchedule(row: ScheduleRow, clientName: string | null = null): ReportSchedule {
  return {
    id: row.id,
    client_id: row.clientId,
    client_name: clientName,
    name: row.name,
    report: row.report as ScheduledReport,
    filters: row.filters,
    recipients: row.recipients,
    frequency: timingOf(row).frequency,
    weekday: row.weekday,
    day_of_month: row.dayOfMonth,
    hour: row.hour,
    timezone: row.timezone,
    status: row.status as ReportSchedule['status'],
    // Computed when read (the list is a handful of schedules), so an edit or a zone change shows at once.
    next_send_at: row.status === 'active' ? nextSendAt(new Date(), timingOf(row)).toISOString() : null,
    last_sent_at: row.lastSentAt?.toISOString() ?? null,
    last_status: row.lastStatus as ReportSchedule['last_status'],
    last_period: row.lastPeriodStart && row.lastPeriodEnd ? `${row.lastPeriodStart} – ${row.lastPeriodEnd}` : null,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const base = tableStore<ReportSchedule, ScheduleRow, ReportScheduleBody, ReportScheduleListQuery>({
  table: reportSchedules,
  def: reportScheduleResource,
  toRecord: toSchedule,
  sorts: {
    name: { expr: sql`lower(${reportSchedules.name})`, cast: 'text' },
    report: { expr: sql`${reportSchedules.report}`, cast: 'text' },
    status: { expr: sql`${reportSchedules.status}`, cast: 'text' },
    updated_at: { expr: sql`${reportSchedules.updatedAt}`, cast: 'timestamptz' },
  },
  search: [reportSchedules.name],
  filterColumns: { status: reportSchedules.status, report: reportSchedules.report },
});

/**
 * Scheduled reports of the current client, for the kit's resource routes: the body's recipients
 * trimmed, lower-cased and without repeats, hours and days as numbers, the weekday or day of the
 * month only for its frequency; checks across fields (shared with the form) and the report's
 * filters checked as the report API checks its query.
 */
export const reportScheduleStore: ResourceStore<ReportSchedule, ScheduleRow, ReportScheduleBody, ReportScheduleListQuery> = {
  ...base,
  values(body, at) {
    const values = base.values(body, at);
    if (body.recipients !== undefined) values.recipients = [...new Set(recipientList(body.recipients).map((r) => r.toLowerCase()))];
    const hour = toNumber(body.hour);
    if (hour !== undefined && hour !== null) values.hour = hour;
    const day = toNumber(body.day_of_month);
    if (day !== undefined) values.dayOfMonth = day;
    const frequency = body.frequency ?? at?.before?.frequency;
    if (frequency === 'weekly' && (body.frequency !== undefined || body.day_of_month !== undefined)) values.dayOfMonth = null;
    if (frequency === 'monthly' && (body.frequency !== undefined || body.weekday !== undefined)) values.weekday = null;
    return values;
  },
  async check(db, body, before) {
    const merged = {
      recipients: body.recipients ?? (before ? undefined : []),
      frequency: body.frequency ?? before?.frequency,
      weekday: body.weekday !== undefined ? body.weekday : before?.weekday,
      day_of_month: body.day_of_month !== undefined ? body.day_of_month : before?.dayOfMonth,
    };
    const problems = reportScheduleProblems(merged);
    const report = body.report ?? before?.report;
    if (!before && report && !SCHEDULABLE_REPORTS.some((r) => r === report)) {
      const label = SCHEDULED_REPORT_OPTIONS.find((o) => o.value === report)?.label ?? report;
      problems.report = [`The Report field: the ${label} cannot be e-mailed on a schedule yet; only the Performance Report can`];
    }
    if (Object.keys(problems).length > 0) throw fieldsRefused(problems, reportScheduleResource.labels);
    if (!before) await checkScheduleFilters(db, body.filters ?? {});
  },
};
