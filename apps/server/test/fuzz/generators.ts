import fc from 'fast-check';
import { CONTENT_TYPES, CURSORS, DATE_STRINGS, NASTY_STRINGS, PARAM_RAW, PARAM_STRINGS, RAW_URL_TEXTS, WHOLE_BODIES } from './catalogue.ts';
import type { Shape } from './shape.ts';
import { anyNasty, extraKeys, fewOf, isDateish, nastyValue, oneOf, type Pool, validObject, validValue } from './value-generators.ts';
import { type QueryPart, RawJson, RawUrl, toJson, type UrlText, urlText, type Value } from './values.ts';

/**
 * Request generators for the fuzz suite. From a route's shapes (see shape.ts) they build roughly
 * valid values, then mutate one or several parts (a path param, query fields, body fields, the
 * whole body) into nasty ones, and add unknown and prototype keys.
 */

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
