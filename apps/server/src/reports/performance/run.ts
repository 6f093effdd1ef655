import type { PerformanceQuery, PerformanceReport } from '@admin/shared';
import type { Db } from '../../db/client.ts';
import { boundedRead } from '../../lib/bounded-read.ts';
import { type CountSource, performanceReport } from './report.ts';

/** The Performance Report for a validated query, bounded by the reports' statement timeout (lib/bounded-read.ts). */
export function runPerformanceReport(db: Db, q: PerformanceQuery, source: CountSource, timeoutMs?: number): Promise<PerformanceReport> {
  return boundedRead(db, (tx) => performanceReport(tx, q, source), { what: 'This report', timeoutMs });
}
