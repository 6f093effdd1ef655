import { createServer, type Server } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { isDatabaseUnavailable } from '../src/lib/database-unavailable.ts';
import { newApiToken } from '../src/modules/api-tokens/token.ts';
import { toErrorEnvelope } from '../src/plugins/errors.ts';

/**
 * While PostgreSQL cannot be reached, every route answers 503 with Retry-After and the error
 * envelope, never 500 (docs/decisions/076-soak-and-503.md). The whole server is built on a pool
 * whose server refuses connections (a closed port); the errors of a server going away are real
 * ones from node-postgres, and on PostgreSQL (TEST_DATABASE_URL) a backend ended by
 * pg_terminate_backend (57P01). The soak (bench/soak, soak-short.test.ts) restarts a real server.
 */

/** A loopback port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const probe: Server = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('Database unavailable: 503 with Retry-After', () => {
  let app: FastifyInstance;
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pg', url: `postgres://postgres@127.0.0.1:${await closedPort()}/gone` });
    app = await buildApp(testConfig(), { database });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const routes: { method: 'GET' | 'POST'; url: string; payload?: object; headers?: Record<string, string> }[] = [
    { method: 'GET', url: '/healthz' },
    { method: 'POST', url: '/api/login', payload: { email: 'admin@example.com', password: 'demo-password' } },
    { method: 'GET', url: '/api/clients', headers: { authorization: 'Bearer some-session-token' } },
    { method: 'GET', url: '/api/user', headers: { authorization: 'Bearer some-session-token' } },
    {
      method: 'POST',
      url: '/api/v1/endpoints/loc-1/transactions',
      payload: [{ email: 'a@example.com' }],
      headers: { authorization: `Bearer ${newApiToken()}` },
    },
    { method: 'POST', url: '/api/public/responses/some-token', payload: { answers: { '2': 9 } } },
  ];

  for (const route of routes) {
    it(`${route.method} ${route.url} → 503, Retry-After, the envelope`, async () => {
      const res = await app.inject(route);
      expect(res.statusCode, res.body).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json()).toEqual({ statusCode: 503, message: expect.stringMatching(/database is unavailable/) });
    });
  }

  it('node-postgres errors of a server going away count; a wrong statement does not', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const wrapped = Object.assign(new Error('Failed query: select 1'), { cause: refused });
    const startingUp = Object.assign(new Error('the database system is starting up'), { code: '57P03' });
    const terminated = new Error('Connection terminated unexpectedly');
    const both = new AggregateError([refused, refused], '');
    for (const error of [refused, wrapped, startingUp, terminated, both]) {
      expect(isDatabaseUnavailable(error), error.message).toBe(true);
      expect(toErrorEnvelope(error).statusCode).toBe(503);
    }
    const syntax = Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' });
    expect(isDatabaseUnavailable(syntax)).toBe(false);
    expect(toErrorEnvelope(syntax).statusCode).toBe(500);
    expect(toErrorEnvelope(Object.assign(new Error('duplicate'), { code: '23505' })).statusCode).toBe(409);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('a backend ended by the administrator (57P01) is unavailable, not a crash', async () => {
    const victim = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    victim.on('error', () => undefined);
    await victim.connect();
    await admin.connect();
    try {
      const pid = (await victim.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
      const running = victim.query('select pg_sleep(30)').then(
        () => null,
        (err: unknown) => err,
      );
      await new Promise((r) => setTimeout(r, 200));
      await admin.query('select pg_terminate_backend($1)', [pid]);
      const error = await running;
      expect(error).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(error)).toBe(true);
      // The next statement on the dead client fails too, also as unavailable.
      const after = await victim.query('select 1').then(
        () => null,
        (err: unknown) => err,
      );
      expect(isDatabaseUnavailable(after)).toBe(true);
    } finally {
      await admin.end();
      await victim.end().catch(() => undefined);
    }
  });
});
