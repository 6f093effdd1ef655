import fc from 'fast-check';
import {
  BIG,
  b64,
  CURSORS,
  DATE_STRINGS,
  DEEP,
  NASTY_NUMBERS,
  NASTY_STRINGS,
  NUMERIC_STRINGS,
  PROTO_KEYS,
  WRONG_TYPES,
} from './catalogue.ts';
import type { Field, Shape } from './shape.ts';
import type { Value } from './values.ts';

// Values for one field of a route's shape (shape.ts): roughly valid ones, and nasty ones.

/** Known values of the database, by field name (ids, location ids, updated_at …), for roughly valid requests. */
export type Pool = (name: string) => Value[];

export const oneOf = <T>(values: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...values);
/** Mostly one change, sometimes two or three: a single bad field is likelier to get past the others' checks. */
export const fewOf = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T[]> =>
  fc.oneof({ arbitrary: arb.map((x) => [x]), weight: 3 }, { arbitrary: fc.array(arb, { minLength: 2, maxLength: 3 }), weight: 1 });
export const isDateish = (name: string) => /date|_at$|At$/.test(name);
const isPrimitive = (v: Value): v is string | number | boolean | null => v === null || typeof v !== 'object';

/** A value the schema accepts, or nearly (random strings may break a field rule). */
export function validValue(shape: Shape, name: string, pool: Pool, depth = 0): fc.Arbitrary<Value> {
  if (depth > 4) return fc.constant(null);
  const known = pool(name).filter(isPrimitive);
  const withKnown = (arb: fc.Arbitrary<Value>): fc.Arbitrary<Value> => (known.length > 0 ? fc.oneof(arb, oneOf(known)) : arb);
  switch (shape.kind) {
    case 'object':
      return validObject(shape.fields, pool, depth);
    case 'string': {
      if (name === 'cursor') {
        // A cursor the list handed out (`nextCursor`), or a well-formed one of random values.
        const handedOut = pool('nextCursor').filter((v) => typeof v === 'string');
        const made = fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }).map((a) => b64(JSON.stringify(a)));
        return handedOut.length > 0 ? fc.oneof(oneOf(handedOut), made) : made;
      }
      if (shape.email) return withKnown(fc.emailAddress());
      if (shape.pattern) return withKnown(fc.stringMatching(shape.pattern));
      if (isDateish(name)) return withKnown(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
      return withKnown(fc.string({ maxLength: Math.min(shape.max ?? 30, 30) }));
    }
    case 'number': {
      // Digits sent as text are whole and, unless the schema says otherwise, positive.
      const lo = Math.max(shape.min ?? (shape.text ? 1 : -1000), -1_000_000);
      const hi = Math.max(lo, Math.min(shape.max ?? 1000, 2_147_483_647));
      const n =
        shape.int || shape.text
          ? fc.oneof(fc.integer({ min: lo, max: Math.min(hi, lo + 50) }), fc.integer({ min: lo, max: hi }))
          : fc.double({ min: lo, max: hi, noNaN: true });
      return withKnown(shape.text ? n.map(String) : n);
    }
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return shape.values.length > 0 ? oneOf(shape.values) : fc.constant(null);
    case 'array': {
      const item = validValue(shape.item, name, pool, depth + 1);
      return fc.array(known.length > 0 ? fc.oneof(item, oneOf(known)) : item, { maxLength: 4 });
    }
    case 'record': {
      const value = validValue(shape.value, name, pool, depth + 1);
      if (shape.keys)
        return validObject(
          shape.keys.map((k) => ({ name: k, shape: shape.value, optional: true })),
          pool,
          depth,
        );
      return fc.dictionary(fc.string({ maxLength: 10 }), value, { maxKeys: 3 });
    }
    case 'json':
      return jsonValue(2);
  }
}

export function validObject(fields: Field[], pool: Pool, depth: number): fc.Arbitrary<{ [key: string]: Value }> {
  const entries = fields.map((f) => {
    const value = validValue(f.shape, f.name, pool, depth + 1);
    return (f.optional ? fc.option(value, { nil: undefined, freq: 2 }) : value).map((v): [string, Value | undefined] => [f.name, v]);
  });
  return fc.tuple(...entries).map((pairs) => objectOf(pairs));
}

/** An object from key/value pairs: own keys even for `__proto__`; undefined values are left out. */
function objectOf(pairs: [string, Value | undefined][]): { [key: string]: Value } {
  const out: { [key: string]: Value } = {};
  for (const [k, v] of pairs) {
    if (v === undefined) delete out[k];
    else Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function fromJson(v: fc.JsonValue): Value {
  if (Array.isArray(v)) return v.map(fromJson);
  if (v !== null && typeof v === 'object')
    return objectOf(Object.entries(v).map(([k, x]) => [k, x === undefined ? undefined : fromJson(x)]));
  return v;
}
const jsonValue = (maxDepth: number) => fc.jsonValue({ maxDepth }).map(fromJson);

export const anyNasty: fc.Arbitrary<Value> = fc.oneof(oneOf(WRONG_TYPES), oneOf(NASTY_STRINGS), oneOf(NASTY_NUMBERS), oneOf(CURSORS));

/** Field names to add: prototype keys, odd spellings of the real ones, unknown ones. */
export function extraKeys(fields: readonly { name: string }[]): fc.Arbitrary<string> {
  const variants = fields.flatMap((f) => [f.name.toUpperCase(), `${f.name} `, `${f.name}\u0000`, `${f.name}[]`]);
  return oneOf([
    ...PROTO_KEYS,
    ...variants,
    'id',
    'client_id',
    'status',
    'updated_at',
    'isAdmin',
    '',
    ' ',
    'a\u0000b',
    '\ud800',
    'x'.repeat(1000),
  ]);
}

/** A value the schema refuses, or one at its edges: wrong types, bounds, odd text, depth, size. */
export function nastyValue(shape: Shape, name: string, pool: Pool, depth = 0): fc.Arbitrary<Value> {
  const general = fc.oneof(
    { arbitrary: oneOf(WRONG_TYPES), weight: 3 },
    { arbitrary: oneOf(DEEP), weight: 1 },
    { arbitrary: oneOf(BIG), weight: 1 },
  );
  const specific = ((): fc.Arbitrary<Value> => {
    switch (shape.kind) {
      case 'object':
        return depth > 3 ? oneOf(WRONG_TYPES) : mutatedObject(shape.fields, pool, depth);
      case 'string': {
        const max = shape.max ?? 100;
        const edges = [
          'x'.repeat(max + 1),
          'é'.repeat(max),
          '😀'.repeat(Math.ceil(max / 2) + 1),
          ...(name === 'cursor' ? CURSORS : []),
          ...(isDateish(name) ? DATE_STRINGS : []),
          ...(shape.email ? ['a@b', '@', 'a@b.c'.repeat(60), 'x@\u0000.com', 'admin@example.com\u0000', ' admin@example.com '] : []),
        ];
        const nearMiss = validValue(shape, name, pool, depth).map((v) => (typeof v === 'string' ? `${v}\u0000 ` : v));
        return fc.oneof({ arbitrary: oneOf(NASTY_STRINGS), weight: 3 }, { arbitrary: oneOf(edges), weight: 2 }, nearMiss);
      }
      case 'number':
        return fc.oneof(oneOf(NASTY_NUMBERS), oneOf(NUMERIC_STRINGS), oneOf(DATE_STRINGS));
      case 'boolean':
        return oneOf<Value>(['true', 'false', 1, 0, 'yes', 'on', null]);
      case 'enum': {
        const text = shape.values.map(String);
        const misses = text.flatMap((v) => [v.toUpperCase(), `${v} `, ` ${v}`, `${v}\u0000`, `${v},${v}`]);
        return fc.oneof(oneOf([...misses, ...NASTY_STRINGS.slice(0, 30)]), fc.array(oneOf(shape.values), { minLength: 1, maxLength: 3 }));
      }
      case 'array': {
        const item = nastyValue(shape.item, name, pool, depth + 1);
        const valid = validValue(shape.item, name, pool, depth + 1);
        return fc.oneof(
          fc.array(item, { minLength: 1, maxLength: 3 }),
          fc.array(valid, { minLength: 1, maxLength: 3 }).map((a) => [...a, ...a]),
          oneOf(BIG),
          oneOf(NASTY_STRINGS),
        );
      }
      case 'record': {
        const keys = shape.keys ?? ['a'];
        const entry = fc.tuple(oneOf([...keys, ...PROTO_KEYS, 'unknown', '']), nastyValue(shape.value, name, pool, depth + 1));
        return fc.array(entry, { minLength: 1, maxLength: 3 }).map((pairs) => objectOf(pairs));
      }
      case 'json':
        return fc.oneof(oneOf(DEEP), oneOf(BIG), oneOf(WRONG_TYPES), jsonValue(6));
    }
  })();
  return fc.oneof({ arbitrary: specific, weight: 4 }, { arbitrary: general, weight: 1 });
}

/** A roughly valid object with one to three fields made nasty or left out, and maybe unknown keys. */
function mutatedObject(fields: Field[], pool: Pool, depth: number): fc.Arbitrary<{ [key: string]: Value }> {
  const fieldMutation =
    fields.length > 0
      ? fc.oneof(
          ...fields.map((f) =>
            fc
              .oneof(
                { arbitrary: nastyValue(f.shape, f.name, pool, depth + 1), weight: 9 },
                { arbitrary: fc.constant(undefined), weight: 1 },
              )
              .map((v): [string, Value | undefined] => [f.name, v]),
          ),
        )
      : null;
  const extra = fc.tuple(extraKeys(fields), anyNasty);
  const changes = fieldMutation
    ? fc.tuple(fewOf(fieldMutation), fc.oneof({ arbitrary: fc.constant([]), weight: 3 }, fewOf(extra)))
    : fc.tuple(fc.constant([]), fewOf(extra));
  return fc
    .tuple(validObject(fields, pool, depth), changes)
    .map(([base, [muts, extras]]) => objectOf([...Object.entries(base), ...muts, ...extras]));
}
