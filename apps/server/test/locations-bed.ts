import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { locations } from '../src/db/schema/index.ts';
import { bearer, type DbKind, login, startTestApp, type TestContext } from './helpers.ts';

/** A location the form rules accept. */
export const valid = {
  locationname: 'Summit Heating & Air Lakewood',
  external_code: 'SUM-900',
  address1: '12 Union Blvd',
  city: 'Lakewood',
  state: 'CO',
  postal_code: '80228',
  phone: '+13035550100',
  timezone: 'America/Denver',
};

/** What a locations API test works on: filled in before its tests, closed after them. */
export type LocationsBed = {
  readonly ctx: TestContext;
  currentClient: number;
  get(url: string): Promise<LightMyRequestResponse>;
  send(method: 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  /** The record's version as an editor would have loaded it: every edit carries it. */
  versionOf(url: string): Promise<string>;
  countFor(clientId: number): Promise<number>;
};

/** Opens, for the enclosing `describe`, the demo app signed in as the admin; closes it after. */
export function locationsBed(kind: DbKind): LocationsBed {
  let headers: Record<string, string> = {};
  let ctx: TestContext | undefined;
  const bed: LocationsBed = {
    get ctx() {
      if (!ctx) throw new Error('The locations test bed is opened in beforeAll');
      return ctx;
    },
    currentClient: 0,
    get: (url) => bed.ctx.app.inject({ method: 'GET', url, headers }),
    send: (method, url, payload) =>
      bed.ctx.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) }),
    versionOf: async (url) => (await bed.get(url)).json().data.updated_at,
    countFor: async (clientId) =>
      (await bed.ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(locations).where(eq(locations.clientId, clientId)))[0]?.n ??
      0,
  };
  beforeAll(async () => {
    ctx = await startTestApp(kind);
    headers = bearer(await login(ctx.app, 'admin@example.com'));
    bed.currentClient = (await bed.get('/api/user')).json().data.user.current_client_id;
  });
  afterAll(() => bed.ctx.close());
  return bed;
}
