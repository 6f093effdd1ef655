import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rowsOf } from '../src/db/client.ts';
import { users } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * The reproductions of the hardening report, one by one: each answered 500 (or worse) before,
 * and must answer a 4xx in the error envelope now, with nothing written.
 */

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

for (const kind of testDatabaseKinds()) {
  describe(`hardening regressions (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    const send = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: string | object) =>
      ctx.app.inject({
        method,
        url,
        headers: { ...headers, ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}) },
        ...(payload === undefined ? {} : { payload }),
      });
    const clientCount = async () => rowsOf(await ctx.database.db.execute(sql`select count(*)::int as n from clients`))[0]?.n;

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(() => ctx.close());

    it('treats prototype names as ordinary (unknown) fields in bodies and queries', async () => {
      for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
        const body = await send('POST', '/api/create-client', { [name]: 'x', name: 'Proto Co' });
        expect(body.statusCode, body.body).toBe(400);
        expect(body.json().errors[name]).toEqual(['This field is not allowed.']);
        const query = await send('GET', `/api/personnel?${name}=1`);
        expect(query.statusCode, query.body).toBe(400);
        expect(query.json().errors[name]).toEqual(['This field is not allowed.']);
        // Anonymous callers never reach the schema at all.
        expect((await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { [name]: 1 } })).statusCode).toBe(400);
      }
      const proto = await send('POST', '/api/create-client', '{"name":"Proto Co","__proto__":{"admin":true}}');
      expect(proto.statusCode).toBe(400);
      expect(proto.json()).toMatchObject({ statusCode: 400, message: expect.any(String) });
    });

    it('refuses NUL characters: 422 naming the body field, 400 naming the query parameter, also in JSON columns and exports', async () => {
      const before = await clientCount();
      const body = await send('POST', '/api/create-client', { name: 'Nul\u0000Co', industry: 'other', timezone: 'UTC' });
      expect(body.statusCode).toBe(422);
      expect(body.json().errors.name).toEqual(['The Name field must not contain NUL characters.']);
      expect(await clientCount()).toBe(before);

      const query = await send('GET', '/api/endpoints?q=a%00b');
      expect(query.statusCode).toBe(400);
      expect(query.json().errors.q).toHaveLength(1);

      const json = await send('PUT', '/api/preferences/table:test', { value: { columns: ['a\u0000'] } });
      expect(json.statusCode).toBe(422);
      expect(Object.keys(json.json().errors)).toEqual(['value.columns.0']);

      const hours = await send('POST', '/api/endpoints', { locationname: 'X', hours: { mon: ['09:00\u0000', '17:00'] } });
      expect(hours.statusCode).toBe(422);

      // The export answers the error before sending a byte of CSV.
      const exported = await send('GET', '/api/system-logs/export?q=%00');
      expect(exported.statusCode).toBe(400);
      expect(exported.headers['content-type']).toMatch(/application\/json/);
      expect(exported.json()).toMatchObject({ statusCode: 400, errors: { q: expect.any(Array) } });
    });

    it('refuses lone surrogates, naming the field', async () => {
      const res = await send(
        'POST',
        '/api/create-client',
        '{"name":"Surrogate Co","industry":"other","primary_contact_email":"a\\ud800@example.com"}',
      );
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.primary_contact_email[0]).toMatch(/invalid character/);
    });

    it('answers a well-formed cursor of the wrong shape with 400 on every list', async () => {
      // The lists that take a cursor (an export ignores it, and reports take none): walking every GET
      // six times would export whole tables and compute reports over the demo's year of history.
      const takesCursor = (schema: unknown) => schema instanceof z.ZodObject && 'cursor' in schema.shape;
      const lists = ctx.app.routeTable.filter(
        (r) => r.method === 'GET' && takesCursor(r.schema.querystring) && !r.url.includes(':') && !r.url.endsWith('/export'),
      );
      const cursors = [
        b64(['abc', 'def']),
        b64(['2026-02-31 10:00:00+00', '1']),
        b64(['1', '99999999999999999999']),
        b64([1, 2]),
        b64(['\u0000']),
        'not-base64!',
      ];
      let checked = 0;
      for (const route of lists) {
        for (const cursor of cursors) {
          const res = await send('GET', `${route.url}?cursor=${encodeURIComponent(cursor)}`);
          if (res.statusCode === 200) continue; // this list takes no cursor or ignores it (exports)
          expect({ url: route.url, cursor, status: res.statusCode }).toEqual({ url: route.url, cursor, status: 400 });
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(30);
      // A real cursor still works.
      const first = await send('GET', '/api/system-logs?perPage=2');
      const next = await send('GET', `/api/system-logs?perPage=2&cursor=${first.json().nextCursor}`);
      expect(next.statusCode).toBe(200);
    });

    it('keeps integers within their column: 2147483648 is refused, not a database error', async () => {
      const before = await clientCount();
      const res = await send('POST', '/api/create-client', {
        name: 'Big Co',
        industry: 'other',
        timezone: 'UTC',
        account_coordinator_id: 2147483648,
      });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual(['account_coordinator_id']);
      expect((await send('GET', '/api/create-client?ac=2147483648')).statusCode).toBe(400);
      expect((await send('GET', '/api/clients/2147483648')).statusCode).toBe(400);
      expect(await clientCount()).toBe(before);
    });

    it('resets a preference with value null', async () => {
      expect((await send('PUT', '/api/preferences/table:x', { value: { columns: ['a'] } })).statusCode).toBe(200);
      const reset = await send('PUT', '/api/preferences/table:x', { value: null });
      expect(reset.statusCode).toBe(200);
      expect((await send('GET', '/api/preferences/table:x')).json()).toEqual({ data: null });
    });

    it('bounds nesting: JSON 10,000 levels deep is a 4xx naming the field', async () => {
      const deep = `{"value":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
      const res = await send('PUT', '/api/preferences/table:deep', deep);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['value']);
      const wide = await send('PUT', '/api/preferences/table:wide', { value: Array.from({ length: 6000 }, () => 1) });
      expect(wide.statusCode).toBe(422);
    });

    it('takes ids only as plain digits: /api/clients/1e1 and /0x0A are not client 10', async () => {
      for (const id of ['1e1', '0x0A', '+10', '010', ' 10', '10.0', '-1', '0']) {
        const res = await send('GET', `/api/clients/${encodeURIComponent(id)}`);
        expect({ id, status: res.statusCode }).toEqual({ id, status: 400 });
      }
      expect((await send('GET', '/api/clients/10')).statusCode).toBe(200);
      expect((await send('GET', '/api/create-client?perPage=1e1')).statusCode).toBe(400);
    });

    it('answers undecodable paths and over-long parameters in the envelope, without echoing the URL', async () => {
      for (const [url, status] of [
        ['/api/clients/%', 400],
        ['/api/clients/%C0%80', 400],
        ['/api/preferences/%ED%A0%80?q=secret', 400],
        [`/api/get-user/${'x'.repeat(101)}`, 414],
      ] as const) {
        const res = await send('GET', url);
        expect({ url, status: res.statusCode, body: res.json() }).toEqual({
          url,
          status,
          body: { message: expect.any(String), statusCode: status },
        });
        expect(res.body).not.toContain('secret');
      }
    });

    it('answers a malformed updated_at with 422 and a stale one with 409', async () => {
      const garbage = await send('PATCH', '/api/clients/1', { updated_at: 'garbage', city: 'Nowhere' });
      expect(garbage.statusCode).toBe(422);
      expect(garbage.json().errors.updated_at).toHaveLength(1);
      const stale = await send('PATCH', '/api/clients/1', { updated_at: '2001-01-01T00:00:00.000Z', city: 'Nowhere' });
      expect(stale.statusCode).toBe(409);
      const status = await send('PATCH', '/api/clients/1/status', { status: 'paused', updated_at: 'yesterday' });
      expect(status.statusCode).toBe(422);
      expect((await send('GET', '/api/clients/1')).json().data.city).not.toBe('Nowhere');
    });

    it('has one answer for "no current client": 409 with the same message everywhere', async () => {
      const [admin] = await ctx.database.db.select().from(users).where(eq(users.email, 'admin@example.com'));
      await ctx.database.db.update(users).set({ currentClientId: null }).where(eq(users.email, 'admin@example.com'));
      try {
        const calls: ['GET' | 'POST', string, object?][] = [
          ['GET', '/api/product'],
          ['GET', '/api/personnel'],
          ['GET', '/api/referral-source'],
          ['GET', '/api/endpoints'],
          ['GET', '/api/get-merge-personnel'],
          ['GET', '/api/product/export'],
          ['POST', '/api/product', { name: 'P', code: 'P1' }],
          ['POST', '/api/personnel', { first_name: 'A', last_name: 'B' }],
          ['POST', '/api/endpoints', { locationname: 'L' }],
          ['POST', '/api/referral-source', { name: 'R', code: 'R1', type: 'other' }],
        ];
        for (const [method, url, payload] of calls) {
          const res = await send(method, url, payload);
          expect({ url, status: res.statusCode, message: res.json().message }).toEqual({
            url,
            status: 409,
            message: 'Choose a client first (client switcher).',
          });
        }
      } finally {
        await ctx.database.db
          .update(users)
          .set({ currentClientId: admin?.currentClientId ?? null })
          .where(eq(users.email, 'admin@example.com'));
      }
    });

    it('sends HSTS and a Secure cookie only over HTTPS', async () => {
      const plain = await ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'admin@example.com', password: 'demo-password' },
      });
      expect(plain.headers['strict-transport-security']).toBeUndefined();
      expect(String(plain.headers['set-cookie'])).not.toMatch(/Secure/);
      // Behind a trusted proxy that terminated TLS.
      const proxied = await startTestApp(kind, { trustProxy: true });
      try {
        const res = await proxied.app.inject({
          method: 'POST',
          url: '/api/login',
          headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' },
          payload: { email: 'admin@example.com', password: 'demo-password' },
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
        expect(String(res.headers['set-cookie'])).toMatch(/; Secure/);
        // Without TRUST_PROXY the same headers are not believed.
        const untrusted = await ctx.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
        expect(untrusted.headers['strict-transport-security']).toBeUndefined();
      } finally {
        await proxied.close();
      }
    });
  });
}
