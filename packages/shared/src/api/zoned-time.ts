/**
 * How a moment is written for people, on screen and in CSV alike: in the zone it belongs to, with
 * the zone named, e.g. `Nov 26, 2026, 9:05:03 AM CST`. A client's records are shown in the
 * client's zone (a Chicago client's quiet hours read as Chicago time wherever the viewer is);
 * a moment tied to no client in the reader's own zone, named too (docs/decisions/041-line-numbers-and-zoned-times.md).
 */

const OPTIONS: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
};

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone (building one costs more than formatting); an unknown zone falls back to the reader's. */
function formatterFor(zone: string | null | undefined): Intl.DateTimeFormat {
  const key = zone ?? '';
  const cached = formatters.get(key);
  if (cached) return cached;
  let made: Intl.DateTimeFormat;
  try {
    made = new Intl.DateTimeFormat('en-US', zone ? { ...OPTIONS, timeZone: zone } : OPTIONS);
  } catch {
    made = formatterFor(null);
  }
  formatters.set(key, made);
  return made;
}

/** A stored time (ISO text or Date) as a Date, or null when missing or unreadable. */
export function momentOf(value: string | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A moment in `zone` (an IANA name: the client's), or in the reader's zone without one, the zone
 * named; empty for a missing or unreadable value. ICU's narrow space before AM/PM is written as a
 * plain space, so a CSV reads the same in every program.
 *
 * @example formatMoment('2026-11-26T15:05:03Z', 'America/Chicago') // 'Nov 26, 2026, 9:05:03 AM CST'
 */
export function formatMoment(value: string | Date | null | undefined, zone?: string | null): string {
  const date = momentOf(value);
  return date
    ? formatterFor(zone)
        .format(date)
        .replace(/\u202f/g, ' ')
    : '';
}

/**
 * A moment as a CSV column writes it: as on screen, in the client's zone; a moment of no client in
 * UTC (named), since the server does not know where the file will be read.
 *
 * @example exportMoment('2026-11-26T15:05:03Z', null) // 'Nov 26, 2026, 3:05:03 PM UTC'
 */
export const exportMoment = (value: string | Date | null | undefined, zone: string | null | undefined): string =>
  formatMoment(value, zone ?? 'UTC');
