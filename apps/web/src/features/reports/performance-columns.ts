/**
 * The grouped table's columns and its CSV live in packages/shared, so the screen's Export CSV and
 * the scheduled report e-mail's attachment (apps/server/src/report-schedules/) are one piece of code.
 */
export {
  DELIVERED_STATUSES,
  type DrillTarget,
  formatCount,
  formatMean,
  formatNps,
  formatPercent,
  OPENED_STATUSES,
  type PerformanceColumn,
  performanceColumns,
  performanceCsv,
  type RowSort,
  reviewSitesOf,
  sortRows,
} from '@admin/shared';
