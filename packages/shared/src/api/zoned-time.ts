/**
 * How a moment is written for people, on screen and in CSV alike: in the zone it belongs to, with
 * the zone named, e.g. `Nov 26, 2026, 9:05 AM CST`. A client's records are shown in the
 * client's zone (a Chicago client's quiet hours read as Chicago time wherever the viewer is);
 * a moment tied to no client in the reader's own zone, named too (docs/decisions/041-line-numbers-and-zoned-times.md).
 */

const OPTIONS: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
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
 * @example formatMoment('2026-11-26T15:05:03Z', 'America/Chicago') // 'Nov 26, 2026, 9:05 AM CST'
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
 * @example exportMoment('2026-11-26T15:05:03Z', null) // 'Nov 26, 2026, 3:05 PM UTC'
 */
export const exportMoment = (value: string | Date | null | undefined, zone: string | null | undefined): string =>
  formatMoment(value, zone ?? 'UTC');

/** The zone's short name at a moment (`CST`, `CDT`, `GMT+1`), as `formatMoment` ends. */
export function zoneName(zone: string | null | undefined, at: Date = new Date()): string {
  return (
    formatterFor(zone)
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? ''
  );
}

/** Minutes `zone` is ahead of UTC at a moment (Chicago in winter: -360). */
function offsetMinutes(zone: string, at: Date): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(at)
      .map((p) => [p.type, Number(p.value)]),
  );
  const wall = Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/**
 * A time of day typed for a client (a `datetime-local` input's `2026-11-27T09:00`) as the moment
 * it names in the client's zone, in ISO: 9:00 in Chicago is 15:00 UTC whatever the typist's zone.
 * Null when the text is not such a time or the zone is unknown.
 *
 * @example wallTimeIn('2026-11-27T09:00', 'America/Chicago') // '2026-11-27T15:00:00.000Z'
 */
export function wallTimeIn(wall: string, zone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(wall);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  const asUtc = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, Number.isNaN(s) ? 0 : (s ?? 0));
  try {
    // The zone's offset at the guess, then again at the answer (a change of summer time between them).
    let at = asUtc - offsetMinutes(zone, new Date(asUtc)) * 60_000;
    at = asUtc - offsetMinutes(zone, new Date(at)) * 60_000;
    return new Date(at).toISOString();
  } catch {
    return null;
  }
}
