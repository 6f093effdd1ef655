import fc from 'fast-check';
import { z } from 'zod';
import type { Shape } from './shape.ts';
import { type Pool, validValue } from './value-generators.ts';
import { pct, RawJson, toJson, type Value } from './values.ts';

/**
 * The overflow sweep's requests (test/fuzz-overflow.test.ts): not random, every one of them. Each
 * number a body declares and each query value that takes digits gets the integers just past int4
 * and int8 (and a few between), on an otherwise valid request, so a bound a schema forgot reaches
 * the database and shows as the 500 it is (`integer out of range`), instead of waiting for the
 * random suite to draw it.
 */

/** int4 + 1, its negative, int8 + 1: JSON text, so the last is sent exactly. */
export const BODY_OVERFLOWS = ['2147483648', '-2147483649', '9223372036854775808'] as const;
/** The same past int4 and int8 as digits in a path or query, and an id of ten digits. */
export const TEXT_OVERFLOWS = ['2147483648', '9999999999', '9223372036854775808'] as const;

type Step = string | number;
/** Where a number lies in a body, and whether the schema takes it written as digits. */
export type Leaf = { path: Step[]; text: boolean };

/** Every number a shape declares, nested in objects, arrays (their first item) and records (one key). */
export function numericLeaves(shape: Shape | null, path: Step[] = []): Leaf[] {
  if (!shape || path.length > 8) return [];
  switch (shape.kind) {
    case 'object':
      return shape.fields.flatMap((f) => numericLeaves(f.shape, [...path, f.name]));
    case 'array':
      return numericLeaves(shape.item, [...path, 0]);
    case 'record':
      // Records keyed by ids (a response's answers by question id) take one key like a real one.
      return numericLeaves(shape.value, [...path, shape.keys?.[0] ?? '1']);
    case 'number':
      return [{ path, text: shape.text }];
    default:
      return [];
  }
}

/** Whether a query field's schema may take a value written in digits (enums and dates cannot). */
export function takesDigits(shape: Shape): boolean {
  switch (shape.kind) {
    case 'number':
    case 'json':
      return true;
    case 'string':
      return shape.pattern === null || shape.pattern.test('2147483648');
    case 'array':
      return takesDigits(shape.item);
    default:
      return false;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A value the API answered, kept to what a body of `shape` declares: a record read back becomes
 * the body that would write it again (no ids, counts or names the body does not take).
 */
export function project(value: unknown, shape: Shape): Value | undefined {
  if (value === undefined) return undefined;
  if (shape.kind === 'object') {
    if (!isRecord(value)) return undefined;
    const out: Record<string, Value> = {};
    for (const field of shape.fields) {
      const v = project(value[field.name], field.shape);
      if (v !== undefined) out[field.name] = v;
    }
    return out;
  }
  if (shape.kind === 'array') return Array.isArray(value) ? value.flatMap((v) => project(v, shape.item) ?? []) : undefined;
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return shape.kind === 'json' || shape.kind === 'record' ? (value as Value) : undefined;
}

/** `base` with `leaf` at `path`, made where missing (an object's key, an array's item). */
export function withLeaf(base: Value | undefined, path: Step[], leaf: Value): Value {
  const [step, ...rest] = path;
  if (step === undefined) return leaf;
  if (typeof step === 'number') {
    const list = Array.isArray(base) ? [...base] : [];
    list[step] = withLeaf(list[step], rest, leaf);
    return list;
  }
  const object: Record<string, Value> = isRecord(base) && !(base instanceof RawJson) ? { ...(base as Record<string, Value>) } : {};
  object[step] = withLeaf(object[step], rest, leaf);
  return object;
}

/** The overflow for a leaf: JSON text for a number, digits in a string for a number written as text. */
export const overflowValue = (leaf: Leaf, digits: string): Value => (leaf.text ? digits : new RawJson(digits));

/** A few values a schema accepts, the same every run (for params and bodies no record gives). */
export function samples(shape: Shape, name: string, pool: Pool, seed: number): Value[] {
  return fc.sample(validValue(shape, name, pool), { seed, numRuns: 5 });
}

/** A path param's values to try: those the API's lists hold that its schema takes, else sampled ones. */
export function paramCandidates(schema: unknown, name: string, pool: Pool, shape: Shape | null, seed: number): string[] {
  const field = schema instanceof z.ZodObject ? (schema.shape as Record<string, unknown>)[name] : undefined;
  const accepts = (v: string) => !(field instanceof z.ZodType) || field.safeParse(v).success;
  const known = [...pool(name), ...pool('_id'), ...pool('id')]
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
    .map(String)
    .filter(accepts);
  const made = shape ? samples(shape, name, pool, seed).map((v) => (typeof v === 'string' ? v : toJson(v))) : [];
  return [...new Set([...known.slice(0, 5), ...made.filter(accepts)])];
}

/** A route's path with its params filled (`/api/surveys/:id` → `/api/surveys/7`), percent-encoded. */
export function fillPath(url: string, values: Readonly<Record<string, string>>): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => pct(values[name] ?? ''));
}
