import type { PerformanceQuery, PerformanceReport, PerformanceRow } from '@admin/shared';
import type { Db } from '../../db/client.ts';
import { addCounts, type Counts, figuresOf, pointOf, zeroCounts } from './figures.ts';
import { labelsOf } from './labels.ts';
import { addDays, daysIn, previousPeriod } from './query.ts';
import type { KeyKind, Scope } from './raw.ts';

/** Where the counts come from, one grouping at a time: the raw tables (the reference) or the rollups. */
export type CountSource = (db: Db, scope: Scope, kind: KeyKind) => Promise<Map<string, Counts>>;

/** A report's three readings: the period by the table's group and by the chart's bucket, and the previous period's total ('' key). */
export type ReportReads = { grouped: Map<string, Counts>; byBucket: Map<string, Counts>; before: Map<string, Counts> };
/** The counts a whole report needs, read as the source can best read them (rollups/read.ts reads them in one scan). */
export type ReportCounts = (
  db: Db,
  scope: Scope,
  shape: { group: KeyKind; bucket: KeyKind; previous: { from: string; to: string } },
) => Promise<ReportReads>;

/** A report's readings from a source that reads one grouping at a time (the raw tables): three reads. */
export function perKind(source: CountSource): ReportCounts {
  return async (db, scope, { group, bucket, previous }) => {
    const grouped = await source(db, scope, group);
    // Grouped by month over more than 92 days, the table's counts are the chart's: read once.
    const byBucket = bucket === group ? grouped : await source(db, scope, bucket);
    const before = await source(db, { ...scope, ...previous }, 'total');
    return { grouped, byBucket, before };
  };
}

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
export async function performanceReport(db: Db, q: PerformanceQuery, counts: ReportCounts): Promise<PerformanceReport> {
  const { groupBy, ...filters } = q;
  const previous = previousPeriod(q.from, q.to);
  const { bucket, keys } = bucketsOf(q.from, q.to);
  // Every event lands in exactly one group and one bucket, so the cards are the rows' sum.
  const { grouped, byBucket, before } = await counts(db, filters, { group: groupBy, bucket, previous });
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
