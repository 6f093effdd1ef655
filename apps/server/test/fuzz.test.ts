import { API_TOKEN_SCOPES, errorEnvelopeSchema } from '@admin/shared';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteInfo } from '../src/app.ts';
import {
  describeRequest,
  type FuzzRequest,
  type Pool,
  type RouteModel,
  requestArbitrary,
  truncate,
  type Value,
} from './fuzz/generators.ts';
import { shapeOf } from './fuzz/shape.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * Fuzz suite: walks the app's route table and throws requests generated from each route's own
 * zod schemas (roughly valid values with some fields made nasty, unknown and prototype keys,
 * broken JSON, odd content types, wrong tokens) at it. Whatever a client sends, the server must
 * answer below 500, with the error envelope for errors, and keep answering.
 *
 * FUZZ_RUNS=n   requests per operation (default 200)
 * FUZZ_SEED=n   base seed (each operation derives its own from it and its method and path)
 * FUZZ_TRACE=text prints each request of the operations whose `METHOD /path` contains text, with its answer
 * FUZZ_REPORT=1 records every failure instead of stopping at each operation's first, and prints
 *               them grouped by status and cause (the error the server logged, or what is wrong with
 *               the answer), with the operations it hit and the shortest request that showed it, to
 *               collect all the distinct causes in one run. The test still fails if any.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = Number(process.env.FUZZ_SEED ?? 20_250_611);
const REPORT = process.env.FUZZ_REPORT === '1';
/** FUZZ_TRACE=text prints every request (and its answer) of the operations whose `METHOD /path` contains text. */
const TRACE = process.env.FUZZ_TRACE;
const strictEnvelope = errorEnvelopeSchema.strict();

type Failure = {
  op: string;
  status: number | 'rejected';
  problem: string;
  /** Root cause of the error the server logged while answering, e.g. `invalid input syntax for type bigint: "abc"`. */
  serverError: string | null;
  /** The logged error's own message when the root cause is wrapped (`Failed query: select …`). */
  serverDetail: string | null;
  request: FuzzRequest;
  answer: string;
};

const opKey = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

/** Primitive values seen in the API's own lists, by field name and by collection, so requests hit real records. */
class Pools {
  private readonly byCollection = new Map<string, Map<string, Value[]>>();
  private readonly global = new Map<string, Value[]>();

  add(collection: string, value: unknown, key = '', depth = 0): void {
    if (depth > 4) return;
    if (Array.isArray(value)) {
      for (const v of value.slice(0, 50)) this.add(collection, v, key, depth + 1);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) this.add(collection, v, k, depth + 1);
    } else if (
      key !== '' &&
      (typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= 100))
    ) {
      const own = this.byCollection.get(collection) ?? new Map<string, Value[]>();
      this.byCollection.set(collection, own);
      for (const map of [own, this.global]) {
        const list = map.get(key) ?? [];
        if (list.length < 20 && !list.includes(value)) list.push(value);
        map.set(key, list);
      }
    }
  }

  /** Lookup for one route: its collection's values first (`/api/product` for `/api/product/:id`), then any. */
  forRoute(url: string): Pool {
    const collection = [...this.byCollection.keys()]
      .filter((c) => url === c || url.startsWith(`${c}/`))
      .sort((a, b) => b.length - a.length)[0];
    const own = (collection && this.byCollection.get(collection)) || new Map<string, Value[]>();
    return (name) => {
      const snake = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      for (const key of [name, snake, snake.replace(/s$/, '')]) {
        const found = own.get(key) ?? this.global.get(key);
        if (found) return found;
      }
      return /(^|_)ids?$/.test(snake) ? (own.get('id') ?? own.get('_id') ?? this.global.get('id') ?? []) : [];
    };
  }
}

function modelOf(route: RouteInfo): RouteModel {
  return {
    method: route.method,
    url: route.url,
    anonymousOnly: route.access === 'public',
    params: shapeOf(route.schema.params),
    query: shapeOf(route.schema.querystring),
    body: shapeOf(route.schema.body),
  };
}

/** The logged error: the root of its `cause` chain, and the outer message when it differs. */
function describeError(err: Error): { cause: string; detail: string | null } {
  let root = err;
  for (let i = 0; i < 10 && root.cause instanceof Error; i++) root = root.cause;
  const code = (root as { code?: unknown }).code;
  const cause = `${root.name}: ${root.message}${typeof code === 'string' ? ` [${code}]` : ''}`;
  return { cause, detail: root === err ? null : err.message };
}

/**
 * Gathers the errors the server logs (the test logger is silent, so nothing else shows them):
 * Fastify logs through a child of the root logger per request, so the children are wrapped.
 */
function captureLoggedErrors(app: FastifyInstance, sink: Error[]): void {
  const root = app.log;
  const makeChild = root.child.bind(root);
  root.child = (bindings, options) => {
    const child = makeChild(bindings, options);
    for (const level of ['fatal', 'error', 'warn'] as const) {
      const log = child[level];
      child[level] = ((...args: unknown[]) => {
        const [first] = args;
        const err = first instanceof Error ? first : first !== null && typeof first === 'object' && 'err' in first ? first.err : null;
        if (err instanceof Error) sink.push(err);
        Reflect.apply(log, child, args);
      }) as typeof log;
    }
    return child;
  };
}

/** What is wrong with an answer, or null: a 5xx, or an error body that is not exactly the envelope. */
function problemWith(status: number, body: string): string | null {
  if (status >= 500) return `status ${status}`;
  if (status < 400) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'error body is not JSON';
  }
  const envelope = strictEnvelope.safeParse(parsed);
  if (!envelope.success)
    return `error body is not the envelope: ${envelope.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`;
  if (envelope.data.statusCode !== status) return `envelope statusCode ${envelope.data.statusCode} ≠ status ${status}`;
  return null;
}

/** `invalid input syntax for type bigint: "abc"` and the like, with quoted values blanked, to group failures. */
function normalise(text: string): string {
  return text.replace(/"[^"]*"/g, '"…"').slice(0, 240);
}

/**
 * An API token with every scope, and the first location's ingest endpoint set up (no IP list, a
 * high rate limit), so the fuzz reaches the machine routes' handlers and not only their 401.
 */
async function machineAccess(app: FastifyInstance, session: string): Promise<string> {
  const send = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
    app.inject({ method, url, headers: bearer(session), payload });
  const user = (await app.inject({ method: 'GET', url: '/api/user', headers: bearer(session) })).json().data.user;
  const made = await send('POST', '/api/api-token', { user_id: user.id, name: 'Fuzz', scopes: [...API_TOKEN_SCOPES] });
  const endpoints = (await app.inject({ method: 'GET', url: '/api/api-endpoints?client=all&perPage=50', headers: bearer(session) })).json();
  for (const { _id: id } of endpoints.data as { _id: string }[]) {
    const surveys = (await app.inject({ method: 'GET', url: `/api/api-endpoints/${id}/survey-options`, headers: bearer(session) })).json();
    if (surveys.data.length === 0) continue;
    const saved = await send('PUT', `/api/api-endpoints/${id}`, { survey_id: Number(surveys.data[0].value), rate_limit_per_min: 6000 });
    if (saved.statusCode !== 200) throw new Error(`fuzz: the ingest endpoint could not be set up: ${saved.body}`);
    break;
  }
  return made.json().data.token;
}

for (const kind of testDatabaseKinds()) {
  describe(`fuzz: every route with requests from its own schemas (${kind})`, () => {
    let ctx: TestContext;
    let token = '';
    /** An API token (feeds:write) for machine routes (`{ token: scope }` access), which refuse sessions. */
    let apiToken = '';
    const logged: Error[] = [];
    beforeAll(async () => {
      ctx = await startTestApp(kind, { clockControl: true });
      captureLoggedErrors(ctx.app, logged);
      token = await login(ctx.app, 'admin@example.com');
      apiToken = await machineAccess(ctx.app, token);
    });
    afterAll(() => ctx.close());

    async function harvest(app: FastifyInstance): Promise<Pools> {
      const pools = new Pools();
      for (const route of app.routeTable) {
        if (route.method !== 'GET' || route.url.includes(':') || route.url.endsWith('/export') || !route.url.startsWith('/api/')) continue;
        const res = await app.inject({ method: 'GET', url: route.url, headers: bearer(token) });
        if (res.statusCode === 200 && res.headers['content-type']?.toString().includes('json')) pools.add(route.url, res.json());
      }
      return pools;
    }

    /** The server still answers: health, and the admin's own user (signing in again if the session went). */
    async function stillAnswers(): Promise<string | null> {
      const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
      if (health.statusCode !== 200) return `GET /healthz → ${health.statusCode} ${truncate(health.body)}`;
      let me = await ctx.app.inject({ method: 'GET', url: '/api/user', headers: bearer(token) });
      if (me.statusCode === 401) {
        token = await login(ctx.app, 'admin@example.com');
        me = await ctx.app.inject({ method: 'GET', url: '/api/user', headers: bearer(token) });
      }
      return me.statusCode === 200 ? null : `GET /api/user → ${me.statusCode} ${truncate(me.body)}`;
    }

    it(
      'answers every generated bad request below 500 with the error envelope, and keeps answering',
      async () => {
        const started = performance.now();
        const pools = await harvest(ctx.app);
        const routes = ctx.app.routeTable.map(modelOf);
        const machine = new Set(ctx.app.routeTable.filter((r) => typeof r.access === 'object').map((r) => opKey(modelOf(r))));
        expect(routes.length).toBeGreaterThan(10);
        const failures: Failure[] = [];
        const firstFailures: string[] = [];
        const counts: string[] = [];
        let requests = 0;

        for (const route of routes) {
          const op = opKey(route);
          const opStarted = performance.now();
          let sent = 0;
          const statuses = new Map<number | 'rejected', number>();
          const property = fc.asyncProperty(requestArbitrary(route, pools.forRoute(route.url)), async (req) => {
            sent++;
            logged.length = 0;
            const headers: Record<string, string> = {};
            if (req.auth === 'admin') Object.assign(headers, bearer(machine.has(op) ? apiToken : token));
            if (req.auth === 'bogus') headers.authorization = `Bearer ${req.bogusToken}`;
            if (req.contentType !== null) headers['content-type'] = req.contentType;
            if (req.cookie !== null) headers.cookie = req.cookie;
            let status: number | 'rejected';
            let problem: string | null;
            let answer = '';
            try {
              const res = await ctx.app.inject({
                method: req.method as 'GET',
                url: req.url,
                headers,
                remoteAddress: req.remoteAddress,
                ...(req.body === null ? {} : { payload: req.body }),
              });
              status = res.statusCode;
              answer = res.body;
              problem = problemWith(res.statusCode, res.body);
              if (res.statusCode === 401 && req.auth === 'admin') token = await login(ctx.app, 'admin@example.com');
            } catch (err) {
              status = 'rejected';
              problem = `inject rejected: ${err instanceof Error ? err.message : String(err)}`;
            }
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (TRACE && op.includes(TRACE)) console.log(`${status} ${describeRequest(req)}\n    → ${truncate(answer, 200)}`);
            if (problem === null) return;
            const [first] = logged;
            const server = first ? describeError(first) : null;
            const serverError = server?.cause ?? null;
            failures.push({ op, status, problem, serverError, serverDetail: server?.detail ?? null, request: req, answer });
            if (!REPORT) {
              throw new Error(
                [
                  `${op}: ${problem}`,
                  `  request:  ${describeRequest(req)}`,
                  `  response: ${status} ${truncate(answer, 600)}`,
                  ...(server ? [`  server:   ${server.cause}${server.detail ? ` (in: ${truncate(server.detail)})` : ''}`] : []),
                ].join('\n'),
              );
            }
          });
          try {
            await fc.assert(property, { seed: SEED ^ hash(op), numRuns: RUNS, endOnFailure: true });
            if (sent < RUNS) firstFailures.push(`${op}: only ${sent} of ${RUNS} requests were sent`);
          } catch (err) {
            // fast-check's report carries the property's own error (the request and answer) as its cause.
            const own = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
            const replay = err instanceof Error ? /\{ seed: [^}]*\}/.exec(err.message)?.[0] : undefined;
            firstFailures.push(replay ? `${own}\n  replay:   fc.assert(…, ${replay})` : own);
          }
          const afterwards = await stillAnswers();
          if (afterwards) firstFailures.push(`${op}: the server stopped answering afterwards: ${afterwards}`);
          requests += sent;
          const histogram = [...statuses.entries()]
            .sort(([a], [b]) => String(a).localeCompare(String(b)))
            .map(([s, n]) => `${s}×${n}`)
            .join(' ');
          counts.push(`  ${op}: ${sent} requests, ${((performance.now() - opStarted) / 1000).toFixed(1)} s (${histogram})`);
        }

        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.log(
          `fuzz (${kind}): ${routes.length} operations, ${requests} requests, ${seconds} s, ${failures.length} failing\n${counts.join('\n')}`,
        );
        if (REPORT) console.log(report(failures));
        if (REPORT && failures.length > 0) firstFailures.push(`${failures.length} failures, grouped in the report above`);
        if (firstFailures.length > 0) throw new Error(`${firstFailures.length} operation(s) failed:\n\n${firstFailures.join('\n\n')}`);
      },
      20 * 60_000,
    );
  });
}

/** Failures grouped by status and cause, with the operations each hit and its shortest request. */
function report(failures: Failure[]): string {
  type Group = { count: number; ops: Map<string, number>; example: Failure };
  const groups = new Map<string, Group>();
  const size = (f: Failure) => f.request.url.length + (f.request.body?.length ?? 0);
  for (const f of failures) {
    // Fastify's own errors name themselves in `code` (FST_ERR_BAD_URL …).
    const code = /"code":"([A-Z0-9_]+)"/.exec(f.answer)?.[1];
    const key = `${f.status}: ${normalise(f.serverError ?? f.problem)}${code ? ` (${code})` : ''}`;
    const group = groups.get(key) ?? { count: 0, ops: new Map<string, number>(), example: f };
    groups.set(key, group);
    group.count++;
    group.ops.set(f.op, (group.ops.get(f.op) ?? 0) + 1);
    if (size(f) < size(group.example)) group.example = f;
  }
  const lines = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, { count, ops, example: e }]) =>
      [
        `● ${key} — ×${count}`,
        `    operations: ${[...ops.entries()].map(([op, n]) => `${op} ×${n}`).join(', ')}`,
        `    e.g. ${describeRequest(e.request)}`,
        `    answer: ${e.status} ${truncate(e.answer)}`,
        ...(e.serverDetail ? [`    in: ${truncate(e.serverDetail)}`] : []),
      ].join('\n'),
    );
  return `fuzz report: ${failures.length} failures in ${groups.size} groups\n${lines.join('\n')}`;
}
