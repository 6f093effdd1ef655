import type { PerformanceQuery, PerformanceReport } from '@admin/shared';
import type { Db } from '../../db/client.ts';
import { boundedRead } from '../../lib/bounded-read.ts';
import { rollupReportCounts } from '../rollups/read.ts';
import { performanceReport, type ReportCounts } from './report.ts';

/**
 * The Performance Report for a validated query, bounded by the reports' statement timeout
 * (lib/bounded-read.ts); from the rollup unless told (`perKind(rawCounts)` for the raw tables).
 */
export function runPerformanceReport(
  db: Db,
  q: PerformanceQuery,
  counts: ReportCounts = rollupReportCounts,
  timeoutMs?: number,
): Promise<PerformanceReport> {
  return boundedRead(db, (tx) => performanceReport(tx, q, counts), { what: 'This report', timeoutMs });
}
