import fastJsonStringify, { type AnySchema } from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type JsonSchema = { [key: string]: unknown };
type Serialize = (data: unknown) => string;

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords whose value is a map of names to schemas, a list of schemas, or one schema (or a tuple's list). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SUBSCHEMAS = new Set(['items', 'additionalProperties', 'propertyNames', 'not', 'contains']);

/** A schema that accepts anything (zod's `unknown`/`any`), so also a missing value. */
const acceptsAnything = (schema: unknown) => isSchema(schema) && Object.keys(schema).length === 0;

/**
 * Rewrites zod's JSON Schema into the forms fast-json-stringify serialises with straight-line
 * code. `anyOf` makes it validate every value against each branch with Ajv at run time, which is
 * what zod's nullable (`anyOf: [T, {type: "null"}]`) and literal unions (`anyOf: [{const: 0},
 * {const: 1}]`) produce; a type list (`type: ["string", "null"]`) and an `enum` say the same.
 */
export function forFastJsonStringify(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    if (SCHEMA_MAPS.has(key) && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, forFastJsonStringify(s)]));
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(forFastJsonStringify);
    else if (SUBSCHEMAS.has(key)) out[key] = Array.isArray(value) ? value.map(forFastJsonStringify) : forFastJsonStringify(value);
    else out[key] = value;
  }
  if (Array.isArray(out.required) && isSchema(out.properties)) {
    const properties = out.properties;
    const keys = Object.keys(properties);
    // zod lists `unknown()` keys as required, but they may be missing (zod then omits them), while
    // fast-json-stringify throws on a missing required property.
    const required = new Set(out.required.filter((k): k is string => typeof k === 'string' && !acceptsAnything(properties[k])));
    // fast-json-stringify writes required properties before optional ones, zod in the schema's
    // order (`{ data, total, nextCursor?, totalIsEstimate }`). To answer byte for byte as before,
    // such an object leaves presence unchecked; its properties are still written only if declared.
    const firstOptional = keys.findIndex((k) => !required.has(k));
    const reordered = firstOptional !== -1 && keys.slice(firstOptional).some((k) => required.has(k));
    if (reordered) delete out.required;
    else out.required = keys.filter((k) => required.has(k));
  }
  const anyOf = out.anyOf;
  if (!Array.isArray(anyOf) || Object.keys(out).length !== 1) return out;
  const branches = anyOf.filter(isSchema);
  if (branches.length !== anyOf.length) return out;
  const constants = branches.every((b) => Object.keys(b).length === 2 && typeof b.type === 'string' && 'const' in b);
  if (constants && new Set(branches.map((b) => b.type)).size === 1) {
    return { type: branches[0]?.type, enum: branches.map((b) => b.const) };
  }
  const nonNull = branches.filter((b) => !(Object.keys(b).length === 1 && b.type === 'null'));
  const [only] = nonNull;
  if (branches.length === 2 && nonNull.length === 1 && only && typeof only.type === 'string' && !('const' in only)) {
    return { ...only, type: [only.type, 'null'] };
  }
  return out;
}

/**
 * fast-json-stringify code for a zod schema, or null when the schema has a part JSON Schema cannot
 * describe (a transform, a date, a custom check): then the schema is not a faithful list of what
 * may leave the server, and the caller keeps zod.
 */
export function compileWithSchema(schema: z.ZodType): Serialize | null {
  try {
    const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw', target: 'draft-7' });
    return fastJsonStringify(forFastJsonStringify(json) as AnySchema) as Serialize;
  } catch {
    return null;
  }
}

const compiled = new WeakMap<z.ZodType, Serialize | null>();

/**
 * Fastify's serializer compiler for the routes' zod response schemas, e.g.
 * `app.setSerializerCompiler(serializerCompiler)`.
 *
 * Each schema is turned into JSON Schema and compiled by fast-json-stringify once (HEAD routes
 * share their GET route's schema, so the cache compiles it once for both). That writes only the
 * declared properties (zod's objects are `additionalProperties: false` on output), so a password
 * hash on a row never leaves the server, without parsing a copy of every answer with zod as the
 * type provider's compiler does. A schema that cannot be expressed falls back to that compiler.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) => {
  if (!(route.schema instanceof z.ZodType)) return zodSerializerCompiler(route);
  let serialize = compiled.get(route.schema);
  if (serialize === undefined) {
    serialize = compileWithSchema(route.schema);
    compiled.set(route.schema, serialize);
  }
  return serialize ?? zodSerializerCompiler(route);
};
