import { z } from 'zod';

/** Largest value of a PostgreSQL `integer` (int4): every id column but the logs'. */
export const INT4_MAX = 2_147_483_647;
/**
 * Largest id of a `bigserial` column (System Logs, Tracking Logs) that a JSON number still holds
 * exactly: 2^53 − 1, far below int8's own bound.
 */
export const BIG_ID_MAX = Number.MAX_SAFE_INTEGER;

/**
 * The one place a record id's form and range are written (docs/decisions/033-versions-ids-and-raw-bytes.md).
 * Every id in a path, a query or a body is one of the schemas below, each made here from its
 * column's kind, so no route can take an id that its column cannot compare (PostgreSQL answers
 * `integer out of range`, a 500): `int4` for `serial` ids, `int8` for `bigserial` ones.
 */
type IdColumn = 'int4' | 'int8';
const ID_MAX: Record<IdColumn, number> = { int4: INT4_MAX, int8: BIG_ID_MAX };
/** Digits without a leading zero; how many of them is the range's to say ("must be at most …"). */
const DIGITS = /^[1-9]\d*$/;
const IN_DIGITS = { error: 'must be a positive whole number written in digits', abort: true } as const;

/** An id in a JSON body: a whole number from 1 to the column's largest. */
function bodyIdOf(column: IdColumn) {
  const max = ID_MAX[column];
  return z.number().int('must be a whole number').min(1, 'must be a positive id').max(max, `must be at most ${max}`);
}

/**
 * An id written as text (a path or query value): plain decimal digits, nothing a number parser
 * would also take (`1e1`, `0x0A`, ` 7`, `+7`, `07`), within the column's range; kept as text.
 */
function idTextOf(column: IdColumn) {
  const max = ID_MAX[column];
  return z
    .string()
    .regex(DIGITS, IN_DIGITS)
    .refine((v) => Number(v) <= max, `must be at most ${max}`);
}

/**
 * The same, as a number: `"7"` → `7`. A pipe into a bounded number (not a refinement of the
 * text), so the fuzz suite reads the range off the schema (apps/server/test/fuzz/shape.ts).
 */
function idNumberOf(column: IdColumn) {
  return z.string().regex(DIGITS, IN_DIGITS).transform(Number).pipe(bodyIdOf(column));
}

/** An int4 id written in a path or query, as a number: `"7"` → `7`. */
export const idText = idNumberOf('int4');

/**
 * An id chosen in a list filter or an option list (`?survey=7&survey=9`, `?value=7`): the same
 * digits and range as `idText`, kept as text.
 */
export const idFilterItem = idTextOf('int4');

/** Whether a text is an int4 id as `idFilterItem` takes it (e.g. option values read by a repository). */
export const isIdText = (v: string): boolean => idFilterItem.safeParse(v).success;

/** An id of a `bigint` column (System Logs rows) written in a path, as a number. */
export const bigIdText = idNumberOf('int8');

/** A record id in a JSON body: a positive int4. */
export const bodyId = bodyIdOf('int4');

/** A whole number in a query string (`perPage=50`) between `min` and `max`, digits only. */
export function queryInt(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number written in digits')
    .transform(Number)
    .pipe(z.number().min(min).max(max));
}

/** `{ id }` path parameters, e.g. `/api/clients/7`. */
export const idParamSchema = z.object({ id: idText });
