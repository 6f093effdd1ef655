import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { systemLogs } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/** The hardening report's findings about the server itself: its 5xx log and its request timeout. */

for (const kind of testDatabaseKinds()) {
  describe(`server errors in System Logs without secrets (${kind})`, () => {
    it('logs every 5xx with an error id and class, never the SQL or its parameters', async () => {
      const ctx = await startTestApp(kind);
      const app = await buildApp(ctx.config, { database: ctx.database });
      // A route that fails in the database the way a bug would, with customer data as a parameter.
      app.get('/api/test-failure', async () => {
        await app.db.execute(sql`select ${'secret-customer@example.com'}::int`);
        return { data: null };
      });
      await app.ready();
      try {
        const token = await login(app, 'admin@example.com');
        const res = await app.inject({ method: 'GET', url: '/api/test-failure?q=secret-query', headers: bearer(token) });
        expect(res.statusCode).toBe(500);
        expect(res.body).not.toMatch(/secret|select/i);
        const errorId = res.headers['x-request-id'];
        expect(res.json().message).toContain(String(errorId));
        const [row] = await ctx.database.db
          .select()
          .from(systemLogs)
          .where(eq(systemLogs.action, 'http.error'))
          .orderBy(desc(systemLogs.id))
          .limit(1);
        expect(row).toMatchObject({ level: 'error', requestId: errorId, entityId: errorId });
        expect(row?.message).toMatch(/^GET \/api\/test-failure → 500: \w+ \(SQLSTATE 22P02\) \(error id [0-9a-f-]+\)$/);
        expect(JSON.stringify(row)).not.toMatch(/secret|select/i);
      } finally {
        await app.close();
        await ctx.close();
      }
    });
  });
}

describe('request timeouts', () => {
  let ctx: TestContext;
  let port = 0;
  beforeAll(async () => {
    ctx = await startTestApp('pglite', { requestTimeoutMs: 1000 });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(() => ctx.close());

  it('cuts off a client that sends its body one byte at a time', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      let timer: NodeJS.Timeout | undefined;
      socket.on('connect', () => {
        socket.write('POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
        timer = setInterval(() => socket.write(' '), 200);
      });
      socket.on('data', (c) => {
        clearInterval(timer);
        text += c.toString();
      });
      // The server writes 408 and destroys the socket; a space written in that instant makes the
      // kernel answer with a reset, which can arrive before (and discard) the 408. Either way the
      // server cut the client off long before its 100 bytes were sent.
      socket.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNRESET') text ||= 'reset';
        else reject(error);
      });
      socket.on('close', () => {
        clearInterval(timer);
        resolve(text);
      });
    });
    // Without the timeout the 100 bytes would arrive after 20 s and get a sign-in answer
    // (400/401) instead of a 408 or a reset.
    expect(answer).toMatch(/^(HTTP\/1\.1 408|reset)/);
  });
});
