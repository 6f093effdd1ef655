import type { PerformancePoint, PerformanceReport } from '@admin/shared';

/**
 * The charts' data, shared by the screen's charts (@mantine/charts) and the print view's
 * fixed-size ones (recharts): each bucket named as a person reads it.
 */
const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const MONTH = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** `2026-11-03` → `Nov 3`; `2026-11` → `Nov 2026`. */
export function bucketLabel(bucket: string): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(bucket);
  const date = new Date(`${day ? bucket : `${bucket}-01`}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return bucket;
  return (day ? DAY : MONTH).format(date);
}

export type ChartRow = { bucket: string; label: string; Responses: number; NPS: number | null } & Record<
  'Promoters' | 'Passives' | 'Detractors',
  number
>;

export function chartRows(points: readonly PerformancePoint[]): ChartRow[] {
  return points.map((p) => ({
    bucket: p.bucket,
    label: bucketLabel(p.bucket),
    Responses: p.responses,
    NPS: p.nps,
    Promoters: p.promoters,
    Passives: p.passives,
    Detractors: p.detractors,
  }));
}

/** Whether there is anything to draw: some bucket with a response. */
export const hasChartData = (report: PerformanceReport): boolean => report.series.current.some((p) => p.responses > 0);

/** The score mix's colours (Mantine tokens), the same on screen and on paper. */
export const MIX_SERIES = [
  { name: 'Promoters', color: 'teal.7' },
  { name: 'Passives', color: 'yellow.5' },
  { name: 'Detractors', color: 'red.7' },
] as const;
/** The print view's colours for the same series, as recharts wants them (hex of the Mantine shades). */
export const MIX_HEX: Record<(typeof MIX_SERIES)[number]['name'], string> = {
  Promoters: '#0ca678',
  Passives: '#fcc419',
  Detractors: '#f03e3e',
};
