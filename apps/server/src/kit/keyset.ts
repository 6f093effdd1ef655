import { and, type SQL, sql } from 'drizzle-orm';
import { HttpError } from '../lib/http-error.ts';
import { badText } from '../lib/safe-text.ts';

/**
 * Keyset (cursor) paging. A sort is an ordered list of key columns ending in a unique one
 * (the id), all in the same direction, so `(k1, k2, id) < (v1, v2, vid)` walks an index and a
 * page 900k rows deep costs what the first page costs.
 */
export type KeyColumn = {
  expr: SQL;
  /** SQL type the cursor's text value is cast back to, e.g. `timestamptz`, `bigint`, `text`. */
  cast: 'timestamptz' | 'bigint' | 'integer' | 'text';
};

export type SortSpec = KeyColumn[];

/** Extra select fields carrying each key column as text, so no precision is lost in the cursor. */
export function cursorFields(keys: SortSpec): Record<string, SQL<string>> {
  return Object.fromEntries(keys.map((k, i) => [`__k${i}`, sql<string>`(${k.expr})::text`]));
}

export function orderBy(keys: SortSpec, order: 'asc' | 'desc'): SQL[] {
  return keys.map((k) => (order === 'asc' ? sql`${k.expr} asc` : sql`${k.expr} desc`));
}

export function encodeCursor(values: string[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/**
 * Reads a cursor back, checking every value against the type of its sort key *before* any SQL
 * runs: a cursor is client input, and a value PostgreSQL cannot cast (`"abc"::timestamptz`, a
 * number beyond int4, a NUL) must be a 400, not a database error.
 */
export function decodeCursor(cursor: string, keys: SortSpec): string[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    values = undefined;
  }
  if (Array.isArray(values) && values.length === keys.length && values.every((v, i) => fitsCast(v, keys[i]?.cast))) {
    return values as string[];
  }
  throw new HttpError(400, 'Invalid query: cursor.', {
    cursor: ['The cursor is not valid for this list and sort. Start from the first page.'],
  });
}

const INTEGER = /^-?\d{1,19}$/;
const RANGES = { integer: [-(2n ** 31n), 2n ** 31n - 1n], bigint: [-(2n ** 63n), 2n ** 63n - 1n] } as const;
/** `timestamptz::text` as PostgreSQL writes it (DateStyle ISO): `2026-11-22 10:00:00.123456+00`. */
const TIMESTAMPTZ = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?([+-]\d{2})(:\d{2})?(:\d{2})?$/;

/** Whether a cursor value is text that PostgreSQL will cast to the key's type. */
export function fitsCast(value: unknown, cast: KeyColumn['cast'] | undefined): boolean {
  if (typeof value !== 'string' || value.length > 300 || badText(value) !== null) return false;
  switch (cast) {
    case 'text':
      return true;
    case 'integer':
    case 'bigint': {
      if (!INTEGER.test(value)) return false;
      const n = BigInt(value);
      return n >= RANGES[cast][0] && n <= RANGES[cast][1];
    }
    case 'timestamptz': {
      const m = TIMESTAMPTZ.exec(value);
      if (!m) return false;
      const [, y, mo, d, h, mi, s] = m;
      // A real calendar moment: `2026-02-31` or `25:00` would fail the cast in the database.
      const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
      return (
        date.getUTCFullYear() === Number(y) &&
        date.getUTCMonth() === Number(mo) - 1 &&
        date.getUTCDate() === Number(d) &&
        date.getUTCHours() === Number(h) &&
        date.getUTCMinutes() === Number(mi)
      );
    }
    default:
      return false;
  }
}

/** `(k1, k2, …) > (v1, v2, …)` (or `<` for descending order). */
export function afterCursor(keys: SortSpec, order: 'asc' | 'desc', values: string[]): SQL {
  const cols = sql.join(
    keys.map((k) => k.expr),
    sql`, `,
  );
  const vals = sql.join(
    keys.map((k, i) => sql`${values[i] ?? null}::${sql.raw(k.cast)}`),
    sql`, `,
  );
  return order === 'asc' ? sql`(${cols}) > (${vals})` : sql`(${cols}) < (${vals})`;
}

/** Splits the `limit + 1` rows a page query fetched into the page and the next cursor. */
export function pageOf<T extends Record<string, unknown>>(
  rows: T[],
  limit: number,
  keys: SortSpec,
): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  if (rows.length <= limit || !last) return { page, nextCursor: null };
  return { page, nextCursor: encodeCursor(keys.map((_, i) => String(last[`__k${i}`]))) };
}

export function allOf(conditions: (SQL | undefined)[]): SQL | undefined {
  const present = conditions.filter((c): c is SQL => c !== undefined);
  return present.length === 0 ? undefined : and(...present);
}

/** `col in (…)` for a multi-select filter; no values means no filter. */
export function inList(col: SQL, values: readonly (string | number)[] | undefined): SQL | undefined {
  if (!values || values.length === 0) return undefined;
  return sql`${col} in (${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`;
}

/** An ILIKE pattern for a quick search, with LIKE's wildcards in the text escaped. */
export function containsPattern(text: string | undefined): string | undefined {
  return text ? `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
}

/** A LIKE pattern for what starts with `text` ("POS-900" → "POS-900%"), LIKE's wildcards in it escaped. */
export function prefixPattern(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
