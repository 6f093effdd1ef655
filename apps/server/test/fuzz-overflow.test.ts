import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteInfo } from '../src/app.ts';
import { truncate } from './fuzz/generators.ts';
import {
  captureLoggedErrors,
  describeError,
  harvest,
  hash,
  machineAccess,
  modelOf,
  opKey,
  type Pools,
  problemWith,
} from './fuzz/harness.ts';
import {
  BODY_OVERFLOWS,
  fillPath,
  numericLeaves,
  overflowValue,
  paramCandidates,
  project,
  samples,
  TEXT_OVERFLOWS,
  takesDigits,
  withLeaf,
} from './fuzz/overflow.ts';
import { pct, toJson, type Value } from './fuzz/values.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * Fuzz suite, second part: every number a route's body declares, every query value that takes
 * digits and every path parameter gets the integers just past int4 and int8, on an otherwise valid
 * request (a record the API answered, sent back as its body; a valid sample where there is none).
 * The answer must stay below 500 in the error envelope. The random suite (fuzz/suite.ts) draws such
 * values only now and then; this one sends each, so a bound a new route forgets fails `npm test`
 * (issue 18, item 7: `PATCH /api/surveys/1 {"sms_template_id":2147483648}` and
 * `GET /api/data-feeds/options/survey?value=9999999999` answered 500).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_250_611);

type Probe = { method: string; url: string; body: Value | null };

let made = 0;
/** `value` with each top-level name or code given a new suffix, so a create does not stop at "already taken". */
function unique(value: Value): Value {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  made++;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, typeof v === 'string' && /(name|code)$/.test(k) ? `${v.slice(0, 40)}-o${made}` : v]),
  );
}

for (const kind of testDatabaseKinds()) {
  describe(`fuzz: every number and id past int4 and int8 (${kind})`, () => {
    let ctx: TestContext;
    let token = '';
    let apiToken = '';
    let pools: Pools;
    const logged: Error[] = [];
    /** Routes whose body started from a record or sample the server accepts as it is (printed). */
    const accepted = new Map<string, number>();

    beforeAll(async () => {
      ctx = await startTestApp(kind, { clockControl: true });
      captureLoggedErrors(ctx.app, logged);
      token = await login(ctx.app, 'admin@example.com');
      apiToken = await machineAccess(ctx.app, token);
      pools = await harvest(ctx.app, token);
    });
    afterAll(() => ctx.close());

    function send(route: RouteInfo, probe: Probe) {
      const auth = route.access === 'public' ? {} : bearer(typeof route.access === 'object' ? apiToken : token);
      return ctx.app.inject({
        method: probe.method as 'GET',
        url: probe.url,
        headers: { ...auth, ...(probe.body === null ? {} : { 'content-type': 'application/json' }) },
        ...(probe.body === null ? {} : { payload: toJson(probe.body) }),
      });
    }

    /** What is wrong with the answer to a probe, with the server's logged error, or null. */
    async function check(route: RouteInfo, probe: Probe): Promise<string | null> {
      logged.length = 0;
      const res = await send(route, probe);
      const problem = problemWith(res.statusCode, res.body);
      if (problem === null) return null;
      const [first] = logged;
      const server = first ? `\n  server:   ${describeError(first).cause}` : '';
      const body = probe.body === null ? '' : ` ${truncate(toJson(probe.body), 300)}`;
      return `${opKey(route)}: ${problem}\n  request:  ${probe.method} ${probe.url}${body}\n  response: ${res.statusCode} ${truncate(res.body, 300)}${server}`;
    }

    /** The route's path with params the API's own lists hold (a record that exists), the first that answers a GET if one does. */
    async function pathsOf(route: RouteInfo): Promise<string[]> {
      const names = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? '');
      if (names.length === 0) return [route.url];
      const pool = pools.forRoute(route.url);
      const shape = modelOf(route).params;
      const fieldShape = (name: string) => (shape?.kind === 'object' ? (shape.fields.find((f) => f.name === name)?.shape ?? null) : null);
      const options = names.map((name) => paramCandidates(route.schema.params, name, pool, fieldShape(name), SEED ^ hash(route.url)));
      const count = Math.max(1, ...options.map((o) => o.length));
      return Array.from({ length: Math.min(count, 5) }, (_, i) =>
        fillPath(route.url, Object.fromEntries(names.map((name, j) => [name, options[j]?.[i] ?? options[j]?.[0] ?? '']))),
      );
    }

    /** The record at a path, as `GET` answers it, when the API has that route. */
    async function recordAt(path: string): Promise<unknown> {
      const res = await ctx.app.inject({ method: 'GET', url: path, headers: bearer(token) });
      return res.statusCode === 200 && res.headers['content-type']?.toString().includes('json') ? res.json().data : undefined;
    }

    /** The first record of the route's collection, for a create (`POST /api/surveys` ← `GET /api/surveys`). */
    async function listedRecord(route: RouteInfo): Promise<unknown> {
      const res = await ctx.app.inject({ method: 'GET', url: `${route.url}?perPage=1`, headers: bearer(token) });
      return res.statusCode === 200 ? res.json().data?.[0] : undefined;
    }

    /**
     * Bodies to start from, freshest first: an edit's record as loaded now (only its version and
     * the field the number is in, as a form's save sends them), a listed record for a create, else samples.
     */
    async function basesFor(route: RouteInfo, path: string, top: string | number | undefined): Promise<Value[]> {
      const shape = modelOf(route).body;
      if (!shape) return [null];
      const bases: Value[] = [];
      if (route.method === 'PATCH' || route.method === 'PUT') {
        const record = project(await recordAt(path), shape);
        if (record && typeof record === 'object' && !Array.isArray(record)) {
          const own = record as Record<string, Value>;
          if (route.method === 'PATCH') {
            const version = own.updated_at;
            const field = top === undefined ? undefined : own[String(top)];
            bases.push({
              ...(version !== undefined ? { updated_at: version } : {}),
              ...(field !== undefined ? { [String(top)]: field } : {}),
            });
          }
          bases.push(record);
        }
      }
      if (route.method === 'POST' && !route.url.includes(':')) {
        const listed = project(await listedRecord(route), shape);
        // A copy of a listed record, its names and codes made new (they are unique per owner).
        if (listed !== undefined) bases.push(unique(listed));
      }
      return [...bases, ...samples(shape, 'body', pools.forRoute(route.url), SEED ^ hash(opKey(route))).slice(0, 2)];
    }

    /** Every route the server declares (the API, the public pages, the widget), as the random suite takes them. */
    const routes = () => ctx.app.routeTable;

    it('answers int4 and int8 overflow in every number of every body below 500', { timeout: 20 * 60_000 }, async () => {
      const failures: string[] = [];
      const withNumbers: string[] = [];
      let probes = 0;
      for (const route of routes()) {
        const leaves = numericLeaves(modelOf(route).body);
        if (leaves.length === 0) continue;
        withNumbers.push(opKey(route));
        // An edit's path is one whose record the API answers, so the edit starts from it.
        const paths = await pathsOf(route);
        let path = paths[0] ?? route.url;
        for (const candidate of route.method === 'POST' ? [] : paths) {
          if ((await recordAt(candidate)) !== undefined) {
            path = candidate;
            break;
          }
        }
        for (const leaf of leaves) {
          for (const digits of BODY_OVERFLOWS) {
            // Fresh bases each time: a probe that got through changed the record's version.
            for (const base of await basesFor(route, path, leaf.path[0])) {
              probes++;
              const failure = await check(route, {
                method: route.method,
                url: path,
                body: withLeaf(base, leaf.path, overflowValue(leaf, digits)),
              });
              if (failure) failures.push(failure);
            }
          }
        }
        // Which routes had a base the server takes as it is: a probe there reached the handler.
        for (const base of await basesFor(route, path, undefined)) {
          const res = await send(route, { method: route.method, url: path, body: base });
          if (res.statusCode < 300) {
            accepted.set(opKey(route), res.statusCode);
            break;
          }
        }
      }
      const without = withNumbers.filter((op) => !accepted.has(op));
      console.log(
        `overflow (${kind}): ${probes} body probes; a valid base on ${[...accepted.keys()].join(', ')}; none on ${without.join(', ')}`,
      );
      expect(failures, failures.join('\n\n')).toEqual([]);
      // The edit and the create of the report start from a valid survey, so the sweep reaches their handlers.
      expect([...accepted.keys()]).toEqual(expect.arrayContaining(['PATCH /api/surveys/:id', 'POST /api/surveys']));
    });

    it('answers int4 and int8 overflow in every query value and path parameter below 500', { timeout: 20 * 60_000 }, async () => {
      const failures: string[] = [];
      let probes = 0;
      for (const route of routes()) {
        const model = modelOf(route);
        const [path = route.url] = await pathsOf(route);
        const [body = null] = model.body ? await basesFor(route, path, undefined) : [null];
        const fields = model.query?.kind === 'object' ? model.query.fields.filter((f) => takesDigits(f.shape)) : [];
        for (const field of fields) {
          for (const digits of TEXT_OVERFLOWS) {
            probes++;
            const failure = await check(route, { method: route.method, url: `${path}?${pct(field.name)}=${digits}`, body });
            if (failure) failures.push(failure);
          }
        }
        for (const [name] of route.url.matchAll(/:[A-Za-z0-9_]+/g)) {
          for (const digits of TEXT_OVERFLOWS) {
            probes++;
            const url = route.url
              .replace(name, digits)
              .replace(/:[A-Za-z0-9_]+/g, (other) => path.split('/')[route.url.split('/').indexOf(other)] ?? '1');
            const failure = await check(route, { method: route.method, url, body });
            if (failure) failures.push(failure);
          }
        }
      }
      console.log(`overflow (${kind}): ${probes} query and path probes`);
      expect(failures, failures.join('\n\n')).toEqual([]);
    });

    it('keeps answering afterwards', async () => {
      expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    });
  });
}
