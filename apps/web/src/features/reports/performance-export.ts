import type { PerformanceRow } from '@admin/shared';
import { type PerformanceColumn, performanceCsv } from './performance-columns.ts';
import type { ReportFilters } from './performance-query.ts';

/** `performance-report-2026-10-01-to-2026-10-31-by-location.csv` */
export function csvFileName(filters: ReportFilters): string {
  return `performance-report-${filters.from}-to-${filters.to}-by-${filters.groupBy.replace('_', '-')}.csv`;
}

/**
 * Export CSV: the table as it is shown, made in the browser from the rows already on screen (one
 * row per group, so there is nothing to stream), so it cannot differ from the table.
 */
export function downloadPerformanceCsv(rows: readonly PerformanceRow[], columns: readonly PerformanceColumn[], filters: ReportFilters) {
  // A byte-order mark so a spreadsheet reads the dashes and arrows as UTF-8.
  const blob = new Blob([`\uFEFF${performanceCsv(rows, columns)}`], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = csvFileName(filters);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
