import {
  type PerformanceQuery,
  type PerformanceScheduleFilters,
  performanceColumns,
  performanceCsv,
  reviewSitesOf,
  sortRows,
} from '@admin/shared';
import type { Db } from '../db/client.ts';
import { HttpError } from '../lib/http-error.ts';
import { checkOwnership, PERFORMANCE_LABELS, parsePerformanceQuery } from '../reports/performance/query.ts';
import { runPerformanceReport } from '../reports/performance/run.ts';
import type { Period } from './period.ts';

/** A report's CSV for one period, as the e-mail attaches it. */
export type ReportFile = { filename: string; content: string; rows: number; query: PerformanceQuery };

/** The query a schedule's filters make for a period: the report's own reader, so its refusals are the report's. */
export function scheduleQuery(filters: PerformanceScheduleFilters, period: Period): PerformanceQuery {
  // The reader takes the query string's text: ids as text, as the screen sends them.
  const ids = (list: number[] | undefined) => list?.map(String);
  return parsePerformanceQuery({
    ...filters,
    clients: ids(filters.clients),
    surveys: ids(filters.surveys),
    personnel: ids(filters.personnel),
    from: period.start,
    to: period.end,
  });
}

/**
 * Checks a schedule's filters as the report API checks its query (shape, then ids of no chosen
 * client or of nothing), with any day as the period; a refusal is the 422 naming `filters.<field>`.
 */
export async function checkScheduleFilters(db: Db, filters: PerformanceScheduleFilters): Promise<void> {
  try {
    await checkOwnership(db, scheduleQuery(filters, { start: '2000-01-01', end: '2000-01-01' }));
  } catch (err) {
    if (!(err instanceof HttpError) || !err.errors) throw err;
    const labels: Record<string, string> = PERFORMANCE_LABELS;
    const errors = Object.fromEntries(Object.entries(err.errors).map(([field, messages]) => [`filters.${field}`, messages]));
    const names = Object.keys(err.errors).map((f) => labels[f] ?? f);
    throw new HttpError(422, `Please correct the report's filters: ${names.join(', ')}.`, errors);
  }
}

/**
 * The Performance Report for the period, computed by the function `GET /api/reports/performance`
 * answers with, and its CSV made by the screen's Export CSV code (packages/shared
 * performance-columns.ts) in the screen's first order (by the group's name), with the same
 * byte-order mark so a spreadsheet reads it as UTF-8.
 */
export async function performanceFile(db: Db, filters: PerformanceScheduleFilters, period: Period): Promise<ReportFile> {
  const q = scheduleQuery(filters, period);
  await checkOwnership(db, q);
  const report = await runPerformanceReport(db, q);
  const columns = performanceColumns(q.groupBy, reviewSitesOf(report.rows));
  const rows = sortRows(report.rows, columns, { key: 'group', order: 'asc' });
  return {
    filename: `performance-report-${period.start}-to-${period.end}-by-${q.groupBy.replace('_', '-')}.csv`,
    content: `\uFEFF${performanceCsv(rows, columns)}`,
    rows: rows.length,
    query: q,
  };
}
