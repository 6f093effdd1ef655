import { z } from 'zod';

/**
 * What the fuzz suite needs to know about a route's zod schema: objects with their keys, and per
 * key the kind of value (string, number, boolean, enum, array, record, free JSON). Wrappers
 * (optional, nullable, default, catch, readonly, pipe, preprocess, transform) are unwrapped.
 */
export type Shape =
  | { kind: 'object'; fields: Field[] }
  | { kind: 'string'; max: number | null; email: boolean; pattern: RegExp | null }
  /** `text`: sent as a string of digits that the schema turns into a number (`z.string().regex(…).transform(Number).pipe(…)`). */
  | { kind: 'number'; int: boolean; min: number | null; max: number | null; text: boolean }
  | { kind: 'boolean' }
  | { kind: 'enum'; values: Primitive[] }
  | { kind: 'array'; item: Shape }
  | { kind: 'record'; keys: string[] | null; value: Shape }
  | { kind: 'json' };

export type Primitive = string | number | boolean | null;
export type Field = { name: string; shape: Shape; optional: boolean };

const JSON_SHAPE: Shape = { kind: 'json' };

/** The shape of a schema a route declared, or null when it declared none. */
export function shapeOf(schema: unknown): Shape | null {
  return schema instanceof z.ZodType ? describe(schema, 0).shape : null;
}

function describe(schema: z.ZodType, depth: number): { shape: Shape; optional: boolean } {
  if (depth > 20) return { shape: JSON_SHAPE, optional: true };
  const next = (inner: unknown, optional = false) => {
    if (!(inner instanceof z.ZodType)) return { shape: JSON_SHAPE, optional: true };
    const d = describe(inner, depth + 1);
    return { shape: d.shape, optional: optional || d.optional };
  };
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) return next(schema.unwrap(), true);
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodReadonly || schema instanceof z.ZodCatch) return next(schema.unwrap());
  if (schema instanceof z.ZodPipe) {
    // z.preprocess(fn, target) is a pipe from a transform: what the client sends is the target's input.
    if (schema.in instanceof z.ZodTransform) return next(schema.out);
    const input = next(schema.in);
    const output = next(schema.out);
    // Text that becomes a number: generate numbers in the output's bounds, written as text.
    if (input.shape.kind === 'string' && output.shape.kind === 'number')
      return { shape: { ...output.shape, text: true }, optional: input.optional };
    return input;
  }
  if (schema instanceof z.ZodObject) {
    const fields = Object.entries(schema.shape).map(([name, value]) => {
      const d = next(value);
      return { name, shape: d.shape, optional: d.optional };
    });
    return { shape: { kind: 'object', fields }, optional: false };
  }
  if (schema instanceof z.ZodString || schema instanceof z.ZodStringFormat) {
    const email = schema.format === 'email';
    return { shape: { kind: 'string', max: schema.maxLength, email, pattern: email ? null : patternOf(schema) }, optional: false };
  }
  if (schema instanceof z.ZodNumber) {
    const finite = (n: number | null) => (n !== null && Number.isFinite(n) ? n : null);
    const shape: Shape = { kind: 'number', int: schema.isInt, min: finite(schema.minValue), max: finite(schema.maxValue), text: false };
    return { shape, optional: false };
  }
  if (schema instanceof z.ZodBoolean) return { shape: { kind: 'boolean' }, optional: false };
  if (schema instanceof z.ZodEnum) return { shape: { kind: 'enum', values: schema.options.filter(isPrimitive) }, optional: false };
  if (schema instanceof z.ZodLiteral) return { shape: { kind: 'enum', values: [...schema.values].filter(isPrimitive) }, optional: false };
  if (schema instanceof z.ZodArray) return { shape: { kind: 'array', item: next(schema.element).shape }, optional: false };
  if (schema instanceof z.ZodRecord) {
    const keys = schema.keyType instanceof z.ZodEnum ? schema.keyType.options.map(String) : null;
    return { shape: { kind: 'record', keys, value: next(schema.valueType).shape }, optional: false };
  }
  if (schema instanceof z.ZodUnion) {
    const options = schema.options.map((o) => next(o));
    const values = options.flatMap((o) => (o.shape.kind === 'enum' ? o.shape.values : []));
    if (values.length === options.length) return { shape: { kind: 'enum', values }, optional: options.some((o) => o.optional) };
    const first = options[0];
    return first ?? { shape: JSON_SHAPE, optional: true };
  }
  // unknown, any, json (a lazy union), transforms of their own: anything JSON goes.
  return { shape: JSON_SHAPE, optional: true };
}

function patternOf(schema: z.ZodString | z.ZodStringFormat): RegExp | null {
  for (const check of schema._zod.def.checks ?? []) {
    const def: object = check._zod.def;
    if ('pattern' in def && def.pattern instanceof RegExp) return def.pattern;
  }
  return null;
}

function isPrimitive(v: unknown): v is Primitive {
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}
