import { API_TOKEN_SCOPES, errorEnvelopeSchema } from '@admin/shared';
import type { FastifyInstance } from 'fastify';
import type { RouteInfo } from '../../src/app.ts';
import { bearer } from '../helpers.ts';
import type { RouteModel } from './generators.ts';
import { shapeOf } from './shape.ts';
import type { Pool } from './value-generators.ts';
import type { Value } from './values.ts';

/**
 * What the fuzz suites share (test/fuzz/suite.ts, random requests; test/fuzz-overflow.test.ts,
 * every number and id past its column): route models, values harvested from the API's own lists,
 * the machine routes' token, the errors the server logged, and what makes an answer wrong.
 */

const strictEnvelope = errorEnvelopeSchema.strict();

export const opKey = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

export function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

/** Primitive values seen in the API's own lists, by field name and by collection, so requests hit real records. */
export class Pools {
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

/** Every GET list of the API, called once: its values become the pools requests draw from. */
export async function harvest(app: FastifyInstance, token: string): Promise<Pools> {
  const pools = new Pools();
  for (const route of app.routeTable) {
    if (route.method !== 'GET' || route.url.includes(':') || route.url.endsWith('/export') || !route.url.startsWith('/api/')) continue;
    const res = await app.inject({ method: 'GET', url: route.url, headers: bearer(token) });
    if (res.statusCode === 200 && res.headers['content-type']?.toString().includes('json')) pools.add(route.url, res.json());
  }
  return pools;
}

export function modelOf(route: RouteInfo): RouteModel {
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
export function describeError(err: Error): { cause: string; detail: string | null } {
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
export function captureLoggedErrors(app: FastifyInstance, sink: Error[]): void {
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
export function problemWith(status: number, body: string): string | null {
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

/**
 * An API token with every scope, and the first location's ingest endpoint set up (no IP list, a
 * high rate limit), so the fuzz reaches the machine routes' handlers and not only their 401.
 */
export async function machineAccess(app: FastifyInstance, session: string): Promise<string> {
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
