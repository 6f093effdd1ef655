import { format as formatDate, isValid, parse } from 'date-fns';

/**
 * vee-validate 2.2.15's parseDate: a string must round-trip exactly through
 * date-fns `parse` and `format` with the same format; a Date or a number (a millisecond
 * timestamp) is taken as is when valid; anything else, or no format, is invalid.
 * Formats with `DD`/`YYYY` tokens throw, as in the original.
 */
export function parseDate(value: unknown, format: unknown): Date | null {
  if (typeof value !== 'string') {
    if (value instanceof Date) return isValid(value) ? value : null;
    if (typeof value === 'number') {
      const d = new Date(value);
      return isValid(d) ? d : null;
    }
    return null;
  }
  if (typeof format !== 'string' || format === '') return null;
  let parsed: Date;
  try {
    parsed = parse(value, format, new Date());
  } catch (err) {
    // An unquoted `T` next to other tokens (e.g. `yyyy-MM-ddTHH:mm`) never matched in the
    // original; date-fns 4 throws for it instead. Other format errors (DD, YYYY) still throw.
    if (err instanceof RangeError && err.message.includes('`T`')) return null;
    throw err;
  }
  if (!isValid(parsed)) return null;
  return formatDate(parsed, format) === value ? parsed : null;
}
