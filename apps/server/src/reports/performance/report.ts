import type { PerformanceQuery, PerformanceReport, PerformanceRow } from '@admin/shared';
import type { Db } from '../../db/client.ts';
import { addCounts, type Counts, figuresOf, pointOf, zeroCounts } from './figures.ts';
import { labelsOf } from './labels.ts';
import { addDays, daysIn, previousPeriod } from './query.ts';
import type { KeyKind, Scope } from './raw.ts';

/** Where the counts come from: the raw tables (the reference) or the rollups. */
export type CountSource = (db: Db, scope: Scope, kind: KeyKind) => Promise<Map<string, Counts>>;

/** Ranges up to this many days are charted by day, longer ones by month. */
export const DAY_BUCKET_MAX_DAYS = 92;

/** Every bucket of the range, so the charts show empty days and months as zero. */
export function bucketsOf(from: string, to: string): { bucket: 'day' | 'month'; keys: string[] } {
  const byDay = daysIn(from, to) <= DAY_BUCKET_MAX_DAYS;
  const keys: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const key = byDay ? day : day.slice(0, 7);
    if (keys[keys.length - 1] !== key) keys.push(key);
  }
  return { bucket: byDay ? 'day' : 'month', keys };
}

const sumOf = (counts: Map<string, Counts>): Counts => [...counts.values()].reduce((acc, c) => addCounts(acc, c), zeroCounts());

/** The whole report for a validated query: cards (this period and the previous), rows and chart series. */
export async function performanceReport(db: Db, q: PerformanceQuery, source: CountSource): Promise<PerformanceReport> {
  const { groupBy, ...filters } = q;
  const previous = previousPeriod(q.from, q.to);
  const { bucket, keys } = bucketsOf(q.from, q.to);
  // Every event lands in exactly one group and one bucket, so the cards are the rows' sum.
  const grouped = await source(db, filters, groupBy);
  // Grouped by month over more than 92 days, the table's counts are the chart's: read once.
  const byBucket = bucket === 'month' && groupBy === 'month' ? grouped : await source(db, filters, bucket);
  const before = await source(db, { ...filters, ...previous }, 'total');
  const labels = await labelsOf(db, groupBy, [...grouped.keys()]);
  const rows: PerformanceRow[] = [...grouped.entries()].map(([key, counts]) => ({
    key,
    label: labels.get(key) ?? key,
    figures: figuresOf(counts),
  }));
  // Months in time order; named groups by name; "None" last.
  rows.sort((a, b) =>
    a.key === ''
      ? 1
      : b.key === ''
        ? -1
        : groupBy === 'month'
          ? a.key.localeCompare(b.key)
          : a.label.localeCompare(b.label) || a.key.localeCompare(b.key),
  );
  return {
    query: q,
    previous,
    cards: { current: figuresOf(sumOf(grouped)), previous: figuresOf(sumOf(before)) },
    rows,
    series: { bucket, current: keys.map((k) => pointOf(k, byBucket.get(k) ?? zeroCounts())) },
  };
}
