import type { PerformanceFigures, PerformanceQuery } from '@admin/shared';
import type { Db } from '../../db/client.ts';
import { rollupCounts } from '../rollups/read.ts';
import { figuresOf } from './figures.ts';
import type { CountSource } from './report.ts';

/**
 * The figures of each client for a query's filters and period (`groupBy` is ignored), for the AC
 * Performance Report: one entry per client with anything in the period (a client with nothing is
 * absent; read it as all zeros). Counts from `source`: the rollup unless told (performance/raw.ts for the raw tables).
 * Wrap it in boundedRead (run.ts) to bound it as the Performance Report is.
 */
export async function figuresByClient(
  db: Db,
  query: Omit<PerformanceQuery, 'groupBy'>,
  source: CountSource = rollupCounts,
): Promise<Map<number, PerformanceFigures>> {
  const { from, to, ...filters } = query;
  const counts = await source(db, { ...filters, from, to }, 'client');
  const out = new Map<number, PerformanceFigures>();
  for (const [key, c] of counts) if (key !== '') out.set(Number(key), figuresOf(c));
  return out;
}
