import { formatMoment, momentOf } from '@admin/shared';

/**
 * How values are shown on screen, in one place so every table reads the same. CSV exports are
 * written by the server: they keep stored phones (E.164) and write times with `formatMoment`.
 */

/**
 * A stored phone number for reading. North American numbers (country code 1, the platform's
 * market) are grouped as `+1 (241) 555-2794`; a ten-digit number stored without its country
 * code as `(303) 555-0100`. Anything else is shown as stored, since grouping other countries'
 * numbers needs their numbering plans.
 *
 * @example formatPhone('+12415552794') // '+1 (241) 555-2794'
 */
export function formatPhone(value: string | null | undefined): string {
  if (!value) return '';
  const trimmed = value.trim();
  const compact = trimmed.replace(/[\s().-]/g, '');
  const nanp = (ten: string) => `(${ten.slice(0, 3)}) ${ten.slice(3, 6)}-${ten.slice(6)}`;
  if (/^\+?1\d{10}$/.test(compact)) return `+1 ${nanp(compact.slice(-10))}`;
  if (/^\d{10}$/.test(compact)) return nanp(compact);
  return trimmed;
}

/**
 * A typed phone number in its stored form: spaces, dashes, dots and parentheses dropped, so the
 * grouped form people type and read (`+1 (303) 555-0142`) passes the E.164 rule. Other values
 * pass through for the rules to judge.
 *
 * @example compactPhone('+1 303 555 0142') // '+13035550142'
 */
export function compactPhone(value: unknown): unknown {
  return typeof value === 'string' ? value.replace(/[\s().-]/g, '') : value;
}

// One locale and one pattern for every date on screen: "Nov 23, 2026", and a moment with its time
// of day and zone, "Nov 23, 2026, 3:04 PM CST" (formatMoment, packages/shared, which the
// server's CSV columns use too).
const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** A calendar date, e.g. `Nov 23, 2026`; empty for a missing or unreadable value. */
export function formatDate(value: string | Date | null | undefined): string {
  const date = momentOf(value);
  return date ? DATE.format(date) : '';
}

/**
 * A moment with its zone named, e.g. `Nov 26, 2026, 9:05 AM CST`: in `zone` (the client's, for
 * a record of one client) or else in the viewer's own zone. Every list, detail and CSV that shows
 * a time writes it this way.
 */
export function formatDateTime(value: string | Date | null | undefined, zone?: string | null): string {
  return formatMoment(value, zone);
}

/**
 * What a client's time is for the viewer, for its tooltip: `Your time: Nov 26, 2026, 4:05 PM
 * GMT+1`; null when there is no client zone (the time already is the viewer's).
 */
export function viewerTime(value: string | Date | null | undefined, zone?: string | null): string | null {
  if (!zone || !momentOf(value)) return null;
  return `Your time: ${formatMoment(value)}`;
}

/** The date pattern of date pickers, in dayjs tokens, matching `formatDate`. */
export const DATE_INPUT_FORMAT = 'MMM D, YYYY';
