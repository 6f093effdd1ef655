import { ApiError } from '../../lib/http.ts';

/** The top-level field a server error's key belongs to: `allowed_ips.0` and `hours.mon.0` are `allowed_ips` and `hours`. */
export const topField = (key: string) => key.split('.')[0] ?? key;

/**
 * A failed save's field errors sorted by where a form can show them: `byField` under each field the
 * form has (`isField`), a nested key (`allowed_ips.0`, as the server's schema check names an item of
 * a list) under its top-level field; `unplaced`, the messages of every other key, for the form's
 * general message. Messages are deduplicated (three bad addresses say the same sentence three times).
 */
export function placeFieldErrors(
  fieldErrors: Readonly<Record<string, readonly string[]>>,
  isField: (name: string) => boolean,
): { byField: Record<string, string[]>; unplaced: string[] } {
  const byField: Record<string, string[]> = {};
  const unplaced: string[] = [];
  for (const [key, messages] of Object.entries(fieldErrors)) {
    const field = topField(key);
    if (isField(field)) {
      const list = byField[field] ?? [];
      byField[field] = [...new Set([...list, ...messages])];
    } else for (const m of messages) if (!unplaced.includes(m)) unplaced.push(m);
  }
  return { byField, unplaced };
}

/**
 * The message above a form after a failed save, or null when every error is beside its field: a
 * failure with no field errors says what the server said; errors with no field on the form add
 * their own sentences to it, so nothing the server refused goes unsaid.
 */
export function generalMessage(error: unknown, unplaced: readonly string[]): string | null {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  if (Object.keys(error.fieldErrors).length === 0) return error.message;
  if (unplaced.length === 0) return null;
  return `${error.message} ${unplaced.join('. ')}.`;
}
