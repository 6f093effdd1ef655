import { addDays } from '../performance/query.ts';

/** A range of days split for reading: its whole calendar months, and the days outside them. */
export type Segments = {
  /** The first days of the first and the last whole month inside the range; null when none is. */
  months: { from: string; to: string } | null;
  /** The last day of the last whole month (the month rows' deltas not yet folded are read up to it). */
  monthsEnd: string | null;
  /** The days before the first whole month and after the last one (each range inclusive). */
  days: { from: string; to: string }[];
};

export const monthStart = (day: string) => `${day.slice(0, 7)}-01`;
/** The first day of the month after `day`'s. */
export function nextMonth(day: string): string {
  const d = new Date(`${monthStart(day)}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * `from`..`to` as whole months plus the partial months' days: 2025-11-28..2026-11-27 is
 * 2025-11-28..30, the months 2025-12..2026-10, and 2026-11-01..27.
 */
export function segmentsOf(from: string, to: string): Segments {
  const first = from === monthStart(from) ? from : nextMonth(from);
  const afterLast = monthStart(addDays(to, 1));
  if (first >= afterLast) return { months: null, monthsEnd: null, days: [{ from, to }] };
  const last = addDays(afterLast, -1);
  const days = [...(from < first ? [{ from, to: addDays(first, -1) }] : []), ...(afterLast <= to ? [{ from: afterLast, to }] : [])];
  return { months: { from: first, to: monthStart(last) }, monthsEnd: last, days };
}
