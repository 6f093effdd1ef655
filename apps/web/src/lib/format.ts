/**
 * How values are shown on screen, in one place so every table reads the same. Display only:
 * CSV exports are written by the server and keep the stored values (E.164 phones, ISO times).
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

// One locale and one pattern for every date on screen: "Nov 23, 2026", and with the time of
// day "Nov 23, 2026, 3:04:05 PM" where the moment matters (logs, merges).
const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const DATE_TIME = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

function toDate(value: string | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A calendar date, e.g. `Nov 23, 2026`; empty for a missing or unreadable value. */
export function formatDate(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? DATE.format(date) : '';
}

/** A moment, e.g. `Nov 23, 2026, 3:04:05 PM`, in the browser's time zone. */
export function formatDateTime(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? DATE_TIME.format(date) : '';
}

/** The date pattern of date pickers, in dayjs tokens, matching `formatDate`. */
export const DATE_INPUT_FORMAT = 'MMM D, YYYY';
