import fc from 'fast-check';
import type { Field, Shape } from './shape.ts';

/**
 * Request generators for the fuzz suite. From a route's shapes (see shape.ts) they build roughly
 * valid values, then mutate one or several parts (a path param, query fields, body fields, the
 * whole body) into nasty ones, and add unknown and prototype keys.
 */

/** JSON text sent as is: what JSON.stringify cannot write (-0, 1e400, nesting thousands deep). */
export class RawJson {
  constructor(readonly text: string) {}
}
/** Text put into the URL as is (a broken percent escape, an encoded NUL). */
export class RawUrl {
  constructor(readonly text: string) {}
}

export type Value = null | boolean | number | string | RawJson | Value[] | { [key: string]: Value };
type UrlText = string | RawUrl;
type QueryPart = [UrlText, UrlText];

/** JSON text of a value; keys like `__proto__` are written as they are (own properties). */
export function toJson(value: Value): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD, as a browser would send it). */
export function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
const urlText = (t: UrlText) => (t instanceof RawUrl ? t.text : pct(t));

// ---------------------------------------------------------------- the catalogue of nasty values

const b64 = (text: string) => Buffer.from(text).toString('base64url');
const deepArray = (n: number) => new RawJson(`${'['.repeat(n)}${']'.repeat(n)}`);
const deepObject = (n: number) => new RawJson(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`);
/** A real object `{ __proto__: … }` with `__proto__` as an own key (an object literal would set the prototype). */
const withKey = (key: string, value: Value): { [key: string]: Value } => Object.fromEntries([[key, value]]);

const LONG = 'x'.repeat(100_000);
/** Over Fastify's 1 MiB body limit once in a body. */
const OVER_LIMIT = 'y'.repeat(1_100_000);

export const PROTO_KEYS = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__proto__',
  'prototype',
  'isPrototypeOf',
  '__defineGetter__',
];

const NUMERIC_STRINGS = [
  '1e1',
  '0x0A',
  ' 7',
  '7 ',
  '-0',
  '+1',
  '-1',
  '0',
  '1.5',
  '1e300',
  '-1e300',
  '1e400',
  'NaN',
  'Infinity',
  '-Infinity',
  '2147483647',
  '2147483648',
  '-2147483649',
  '99999999999',
  '9007199254740993',
  '1'.repeat(400),
  '0b11',
  '0o7',
  '1_000',
  '１２',
  '٣',
];

const DATE_STRINGS = [
  'garbage',
  '0000-00-00',
  '2024-02-30',
  '2024-13-01',
  '2024-1-1',
  '0001-01-01',
  '9999-12-31',
  '-271821-04-20',
  '+275760-09-13T00:00:00.001Z',
  '2024-01-01T25:61:00Z',
  '1970-01-01T00:00:00.000Z',
  '2024-01-01',
  'Sat, 01 Jan 2000 00:00:00 GMT',
  '1e20',
  'infinity',
  '-infinity',
  'epoch',
  'now',
  'allballs',
  '2024-01-01 00:00:00+99',
];

const NASTY_STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\ud800',
  'a\udfffb',
  '\ud83d',
  '😀',
  '\u202eevil',
  'ｆｕｌｌ',
  'İß',
  'e\u0301',
  '\ufeff',
  '\r\n',
  '\t',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  ...PROTO_KEYS,
  "' OR '1'='1",
  '%',
  '_',
  '\\',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '=cmd|',
  'selected all',
  'é'.repeat(5001),
  LONG.slice(0, 5001),
  LONG,
  ...NUMERIC_STRINGS,
  ...DATE_STRINGS.slice(0, 6),
];

const CURSORS = [
  b64('["abc","def"]'),
  b64('[1,2]'),
  b64('["\u0000"]'),
  b64('["a\u0000b","1"]'),
  b64('["\ud800","1"]'),
  b64('[]'),
  b64('{}'),
  b64('null'),
  b64('"x"'),
  b64('["1e400","1"]'),
  b64('["2147483648","99999999999999999999"]'),
  b64('["garbage","1"]'),
  b64('["infinity","1"]'),
  b64('["2024-01-01","x"]'),
  b64('["",""]'),
  b64('[null,null]'),
  b64('[["a"],{"b":1}]'),
  b64('["1","1","1"]'),
  b64(JSON.stringify(Array(100).fill('a'))),
  '!!!not-base64!!!',
  '====',
  'e30',
  '',
  LONG.slice(0, 500),
  LONG.slice(0, 501),
];

const NASTY_NUMBERS: Value[] = [
  2147483648,
  -2147483649,
  2147483647,
  -2147483648,
  0,
  -1,
  1.5,
  0.1,
  1e300,
  -1e300,
  Number.MAX_SAFE_INTEGER + 2,
  4294967296,
  1e21,
  new RawJson('-0'),
  new RawJson('1e400'),
  new RawJson('-1e400'),
  new RawJson('12345678901234567890123'),
  new RawJson('1.0'),
  new RawJson('1E-400'),
];

const WRONG_TYPES: Value[] = [
  null,
  true,
  false,
  0,
  1,
  '',
  'x',
  [],
  {},
  [null],
  [1, 'a', null],
  { a: 1 },
  [[['x']]],
  { constructor: { prototype: { polluted: 1 } } },
  withKey('__proto__', { polluted: 1 }),
  { toString: 'x', valueOf: 1, hasOwnProperty: 'y' },
];

const DEEP: Value[] = [deepArray(100), deepArray(5_000), deepArray(100_000), deepObject(5_000), deepObject(50_000)];
const BIG: Value[] = [
  Array(10_000).fill('a'),
  Array(5_000).fill(1),
  Array(501).fill('0123456789abcdef01234567'),
  Array(201).fill('active'),
  Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])),
  OVER_LIMIT,
];

const WHOLE_BODIES = [
  '',
  ' ',
  '{',
  '}',
  '[',
  'null',
  'true',
  '1',
  '"x"',
  '[]',
  '[{}]',
  '{"a":1}{',
  '{"a":1,}',
  "{'a':1}",
  '{"a":NaN}',
  '\ufeff{}',
  '\u0000',
  '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  toJson(deepArray(10_000)),
  toJson(deepObject(10_000)),
  toJson(deepArray(400_000)),
  JSON.stringify(OVER_LIMIT),
];

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/JSON',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/vnd.api+json',
  'application/json;;;',
  '*/*',
];

const RAW_URL_TEXTS = ['%00', '%', '%zz', '%ED%A0%80', '%C0%80', '%FF%FE', 'a%00b', '%u0041', '+', '%2B', '%26', '&', '=', '%E2%80%AE'];

const PARAM_STRINGS = [
  '1e1',
  '0x0A',
  '-1',
  '0',
  '-0',
  '99999999999',
  '2147483648',
  '1.5',
  ' 1',
  'abc',
  'NaN',
  'Infinity',
  '1000',
  '\u0000',
  'ä',
  '😀',
  '\ud800',
  ...PROTO_KEYS,
  'a'.repeat(24),
  'A'.repeat(24),
  '0'.repeat(24),
  'x'.repeat(101),
  'x'.repeat(5000),
  '1'.repeat(100),
];
const PARAM_RAW = ['%00', '%', '%zz', '%ED%A0%80', '%C0%80', '%2F', '..', '%2e%2e', '%20', 'a%00b', '1%00'];

// ---------------------------------------------------------------- value generators

/** Known values of the database, by field name (ids, location ids, updated_at …), for roughly valid requests. */
export type Pool = (name: string) => Value[];

const oneOf = <T>(values: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...values);
/** Mostly one change, sometimes two or three: a single bad field is likelier to get past the others' checks. */
const fewOf = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T[]> =>
  fc.oneof({ arbitrary: arb.map((x) => [x]), weight: 3 }, { arbitrary: fc.array(arb, { minLength: 2, maxLength: 3 }), weight: 1 });
const isDateish = (name: string) => /date|_at$|At$/.test(name);
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

function validObject(fields: Field[], pool: Pool, depth: number): fc.Arbitrary<{ [key: string]: Value }> {
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

const anyNasty: fc.Arbitrary<Value> = fc.oneof(oneOf(WRONG_TYPES), oneOf(NASTY_STRINGS), oneOf(NASTY_NUMBERS), oneOf(CURSORS));

/** Field names to add: prototype keys, odd spellings of the real ones, unknown ones. */
function extraKeys(fields: readonly { name: string }[]): fc.Arbitrary<string> {
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

// ---------------------------------------------------------------- query strings

function queryText(value: Value): string {
  if (value instanceof RawJson) return value.text;
  if (value !== null && typeof value === 'object') return toJson(value);
  return value === null ? '' : String(value);
}

/** The query parts of a value: arrays as repeated keys, the rest as text. */
function partsOf(key: string, value: Value): QueryPart[] {
  return Array.isArray(value) ? value.map((v): QueryPart => [key, queryText(v)]) : [[key, queryText(value)]];
}

function nastyQueryValues(shape: Shape, name: string, pool: Pool): fc.Arbitrary<UrlText[]> {
  const single: UrlText[] = [
    ...NASTY_STRINGS.filter((s) => s.length < 10_000),
    ...RAW_URL_TEXTS.map((t) => new RawUrl(t)),
    ...(name === 'cursor' ? CURSORS : []),
    ...(isDateish(name) ? DATE_STRINGS : []),
  ];
  const options =
    shape.kind === 'array' && shape.item.kind === 'enum'
      ? shape.item.values.map(String)
      : shape.kind === 'enum'
        ? shape.values.map(String)
        : [];
  const listItems = [...options, ...NASTY_STRINGS.filter((s) => s.length < 100).slice(0, 40)];
  return fc.oneof(
    { arbitrary: oneOf(single).map((v) => [v]), weight: 6 },
    { arbitrary: nastyValue(shape, name, pool).map((v) => partsOf(name, v).map(([, t]) => t)), weight: 3 },
    { arbitrary: fc.array(oneOf(listItems), { minLength: 2, maxLength: 6 }).map((a) => [a.join(',')]), weight: 2 },
    { arbitrary: fc.array(oneOf(listItems), { minLength: 2, maxLength: 4 }), weight: 1 },
    { arbitrary: oneOf([Array(300).fill(options[0] ?? '1'), [`${options[0] ?? 'a'},`.repeat(3000)], ['']]), weight: 1 },
  );
}

function queryArbitrary(shape: Shape | null, pool: Pool, mutate: boolean): fc.Arbitrary<QueryPart[]> {
  const fields = shape?.kind === 'object' ? shape.fields : [];
  const base = validObject(fields, pool, 0).map((o) => Object.entries(o).flatMap(([k, v]) => partsOf(k, v)));
  if (!mutate) return base;
  // A field's name replaces the field's parts; `add` appends a part (unknown keys, broken escapes).
  type Change = { replace: string; values: UrlText[] } | { add: QueryPart };
  const change = fc.oneof(
    ...fields.map((f) => nastyQueryValues(f.shape, f.name, pool).map((values): Change => ({ replace: f.name, values }))),
    fc.tuple(extraKeys(fields), oneOf([...NASTY_STRINGS.slice(0, 40), '1'])).map((add): Change => ({ add })),
    oneOf(RAW_URL_TEXTS).map((t): Change => ({ add: [new RawUrl(t), new RawUrl(t)] })),
  );
  return fc.tuple(base, fewOf(change)).map(([parts, changes]) => {
    let out = parts;
    for (const c of changes) {
      if ('add' in c) out = [...out, c.add];
      else out = [...out.filter(([k]) => k !== c.replace), ...c.values.map((v): QueryPart => [c.replace, v])];
    }
    return out;
  });
}

// ---------------------------------------------------------------- requests

export type Auth = 'admin' | 'none' | 'bogus';

/** One generated request; prints itself short (method, url, body truncated) in fast-check's reports. */
export class FuzzRequest {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly body: string | null,
    readonly contentType: string | null,
    readonly auth: Auth,
    readonly bogusToken: string,
    readonly remoteAddress: string,
    readonly cookie: string | null,
  ) {}
  [fc.toStringMethod](): string {
    return describeRequest(this);
  }
}

export function truncate(text: string, max = 300): string {
  const shown = text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
  return JSON.stringify(shown);
}

export function describeRequest(r: FuzzRequest): string {
  const body = r.body === null ? '' : ` body(${r.contentType ?? 'no content-type'})=${truncate(r.body)}`;
  const cookie = r.cookie === null ? '' : ` cookie=${truncate(r.cookie, 60)}`;
  return `${r.method} ${truncate(r.url, 400)} [${r.auth}]${cookie}${body}`;
}

export type RouteModel = {
  method: string;
  url: string;
  /** Public routes are called without the admin's token. */
  anonymousOnly: boolean;
  params: Shape | null;
  query: Shape | null;
  body: Shape | null;
};

/** Odd cookies (the sign-in cookie `ssoToken` among them), printable ASCII as a real client could send. */
const COOKIES = [
  'ssoToken=%',
  'ssoToken=%E0%A4%A',
  `ssoToken=${'x'.repeat(5000)}`,
  '=;;=',
  'ssoToken=a; ssoToken=b',
  '__proto__=1; constructor=2',
  'ssoToken="',
];
const BOGUS_TOKENS = ['x'.repeat(43), 'x'.repeat(600), '', 'null', 'Bearer', 'YWRtaW4=', '..', '%00'];

/** Requests to one route, each with at least one of its parts (params, query, body) made nasty. */
export function requestArbitrary(route: RouteModel, pool: Pool): fc.Arbitrary<FuzzRequest> {
  const paramNames = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? '');
  const hasBody = route.method !== 'GET' && route.method !== 'HEAD' && route.method !== 'DELETE';
  const parts = [...(paramNames.length > 0 ? ['params'] : []), 'query', ...(hasBody ? ['body'] : [])];
  const auth: fc.Arbitrary<Auth> = route.anonymousOnly
    ? fc.oneof({ arbitrary: fc.constant<Auth>('none'), weight: 9 }, { arbitrary: fc.constant<Auth>('bogus'), weight: 1 })
    : fc.oneof(
        { arbitrary: fc.constant<Auth>('admin'), weight: 17 },
        { arbitrary: fc.constant<Auth>('none'), weight: 2 },
        { arbitrary: fc.constant<Auth>('bogus'), weight: 1 },
      );
  return fc.subarray(parts, { minLength: 1 }).chain((mutated) =>
    fc
      .record({
        path: pathArbitrary(route, paramNames, pool, mutated.includes('params')),
        query: queryArbitrary(route.query, pool, mutated.includes('query')),
        body: hasBody ? bodyArbitrary(route.body, pool, mutated.includes('body')) : fc.constant(null),
        auth,
        bogusToken: oneOf(BOGUS_TOKENS),
        remoteAddress: fc.ipV4(),
        cookie: fc.oneof({ arbitrary: fc.constant(null), weight: 9 }, oneOf(COOKIES)),
      })
      .map(({ path, query, body, auth, bogusToken, remoteAddress, cookie }) => {
        const search = query.map(([k, v]) => `${urlText(k)}=${urlText(v)}`).join('&');
        const url = search === '' ? path : `${path}?${search}`;
        return new FuzzRequest(route.method, url, body?.text ?? null, body?.contentType ?? null, auth, bogusToken, remoteAddress, cookie);
      }),
  );
}

function paramShape(route: RouteModel, name: string): Shape {
  const field = route.params?.kind === 'object' ? route.params.fields.find((f) => f.name === name) : undefined;
  return field?.shape ?? { kind: 'string', max: null, email: false, pattern: null };
}

function pathArbitrary(route: RouteModel, names: string[], pool: Pool, mutate: boolean): fc.Arbitrary<string> {
  const valid = (name: string) => validValue(paramShape(route, name), name, pool).map((v): UrlText => queryText(v));
  const nasty = fc.oneof(oneOf(PARAM_STRINGS), oneOf(PARAM_RAW.map((t) => new RawUrl(t))));
  const values = names.map((name) => (mutate ? fc.oneof(valid(name), nasty) : valid(name)));
  const forced = mutate ? fc.nat({ max: Math.max(0, names.length - 1) }) : fc.constant(-1);
  return fc.tuple(fc.tuple(...values), forced, nasty).map(([chosen, i, n]) => {
    const byName = new Map(names.map((name, j) => [name, j === i ? n : (chosen[j] ?? '')]));
    return route.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => urlText(byName.get(name) ?? ''));
  });
}

type Body = { text: string; contentType: string | null };

function bodyArbitrary(shape: Shape | null, pool: Pool, mutate: boolean): fc.Arbitrary<Body | null> {
  const json = (v: Value): Body => ({ text: toJson(v), contentType: 'application/json' });
  if (!mutate) return shape ? validValue(shape, 'body', pool).map(json) : fc.constant(null);
  const contentType = fc.oneof(
    { arbitrary: fc.constant<string | null>('application/json'), weight: 12 },
    oneOf<string | null>([...CONTENT_TYPES, null]),
  );
  const whole = fc.record({ text: oneOf(WHOLE_BODIES), contentType });
  const nasty = (shape ? nastyValue(shape, 'body', pool) : anyNasty).map(json);
  const oddType = fc.record({
    text: (shape ? validValue(shape, 'body', pool) : anyNasty).map(toJson),
    contentType: oneOf<string | null>([...CONTENT_TYPES, null]),
  });
  return fc.oneof({ arbitrary: nasty, weight: 8 }, { arbitrary: whole, weight: 1 }, { arbitrary: oddType, weight: 1 });
}
