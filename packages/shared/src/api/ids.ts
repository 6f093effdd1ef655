import { z } from 'zod';

/** Largest value of a PostgreSQL `integer` (int4): every id column but the logs'. */
export const INT4_MAX = 2_147_483_647;

/**
 * A record id written in a path or query: plain decimal digits, nothing a number parser would
 * also take (`1e1`, `0x0A`, ` 7`, `+7`, `07`), within the column's range. `"7"` → `7`.
 */
export const idText = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, 'must be a positive whole number written in digits')
  .transform(Number)
  .pipe(z.number().max(INT4_MAX, `must be at most ${INT4_MAX}`));

/**
 * An id chosen in a list filter (`?survey=7&survey=9`): the same digits and range as `idText`, kept
 * as text, so no value reaches the database that its int4 column cannot compare (a 500).
 */
export const idFilterItem = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, 'must be a positive whole number written in digits')
  .refine((v) => Number(v) <= INT4_MAX, `must be at most ${INT4_MAX}`);

/** An id of a `bigint` column (System Logs rows), as `idText` but up to 2^53 − 1. */
export const bigIdText = z
  .string()
  .regex(/^[1-9]\d{0,15}$/, 'must be a positive whole number written in digits')
  .transform(Number)
  .pipe(z.number().max(Number.MAX_SAFE_INTEGER, `must be at most ${Number.MAX_SAFE_INTEGER}`));

/** A record id in a JSON body: a positive int4. */
export const bodyId = z.number().int().positive().max(INT4_MAX);

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
