import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * Input that got through to the database (issue 18, items 7 and 8): ids past their column's range
 * answered 500, and bytes that are not UTF-8 were stored as U+FFFD. Each must be a 4xx in the
 * error envelope naming what was wrong, with nothing written.
 */
for (const kind of testDatabaseKinds()) {
  describe(`input refusals (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    const clientNames = async () =>
      rowsOf(await ctx.database.db.execute(sql`select name from clients order by id`)).map((r) => String(r.name));

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(() => ctx.close());

    it('refuses an id past int4 in a body and in an option list query, naming the field', async () => {
      const survey = (await ctx.app.inject({ method: 'GET', url: '/api/surveys/1', headers })).json().data;
      for (const id of [2_147_483_648, 9_999_999_999]) {
        const res = await ctx.app.inject({
          method: 'PATCH',
          url: '/api/surveys/1',
          headers,
          payload: { sms_template_id: id, updated_at: survey.updated_at },
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(Object.keys(res.json().errors)).toEqual(['sms_template_id']);
      }
      // An int8 overflow too: past what a bigint column or a JSON number holds exactly.
      const int8 = await ctx.app.inject({
        method: 'PATCH',
        url: '/api/surveys/1',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: `{"sms_template_id":9223372036854775808,"updated_at":"${survey.updated_at}"}`,
      });
      expect(int8.statusCode, int8.body).toBe(400);
      expect(Object.keys(int8.json().errors)).toEqual(['sms_template_id']);
      expect((await ctx.app.inject({ method: 'GET', url: '/api/surveys/1', headers })).json().data.updated_at).toBe(survey.updated_at);

      for (const value of ['9999999999', '2147483648', '9223372036854775808']) {
        const res = await ctx.app.inject({ method: 'GET', url: `/api/data-feeds/options/survey?value=${value}`, headers });
        expect(res.statusCode, res.body).toBe(400);
        expect(Object.keys(res.json().errors)).toEqual(['value.0']);
      }
      // The largest id is a value like any other: no record has it.
      const largest = await ctx.app.inject({ method: 'GET', url: '/api/data-feeds/options/survey?value=2147483647', headers });
      expect(largest.statusCode, largest.body).toBe(200);
    });

    it('checks a chosen option as its filter does: ids for records, 24-hex for locations, text for a column', async () => {
      const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
      expect((await get('/api/staff-users/options?value=2147483648')).statusCode).toBe(400);
      expect((await get('/api/system-logs/options/client?value=9999999999')).statusCode).toBe(400);
      expect((await get('/api/endpoints/options?value=9999999999')).statusCode).toBe(400);
      expect((await get(`/api/endpoints/options?value=${'a'.repeat(24)}`)).statusCode).toBe(200);
      expect((await get('/api/product/options/category?value=9999999999')).statusCode).toBe(200);
      expect((await get('/api/endpoints/options/state?value=9999999999')).statusCode).toBe(400);
    });

    it('refuses a JSON body that is not UTF-8 with 400, storing nothing', async () => {
      const before = await clientNames();
      const json = (bytes: number[]) =>
        Buffer.concat([
          Buffer.from('{"name":"Bad'),
          Buffer.from(bytes),
          Buffer.from(' Co","industry":"other","timezone":"America/Denver"}'),
        ]);
      // A lone continuation byte, a truncated sequence, an overlong NUL, an encoded surrogate, Latin-1 é, beyond U+10FFFF.
      for (const bytes of [[0x80], [0xe2, 0x82], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe9], [0xf4, 0x90, 0x80, 0x80]]) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/create-client',
          headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
          payload: json(bytes),
        });
        expect({ bytes, status: res.statusCode }).toEqual({ bytes, status: 400 });
        expect(res.json()).toMatchObject({
          statusCode: 400,
          message: expect.stringMatching(/UTF-8/),
          errors: { body: [expect.any(String)] },
        });
      }
      expect(await clientNames()).toEqual(before);

      // Real UTF-8, a byte-order mark and an encoded U+FFFD are text like any other.
      const good = await ctx.app.inject({
        method: 'POST',
        url: '/api/create-client',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: Buffer.concat([
          Buffer.from([0xef, 0xbb, 0xbf]),
          Buffer.from('{"name":"Zoë � 😀 Co","industry":"other","timezone":"America/Denver"}'),
        ]),
      });
      expect(good.statusCode, good.body).toBe(201);
      expect(good.json().data.name).toBe('Zoë � 😀 Co');
    });

    it('keeps the JSON parser’s own refusals: prototype poisoning, empty and oversized bodies', async () => {
      const post = (payload: string | Buffer) =>
        ctx.app.inject({ method: 'POST', url: '/api/create-client', headers: { ...headers, 'content-type': 'application/json' }, payload });
      expect((await post('{"name":"P","__proto__":{"admin":true}}')).statusCode).toBe(400);
      expect((await post('{"name":"P","constructor":{"prototype":{"admin":true}}}')).statusCode).toBe(400);
      expect((await post('')).statusCode).toBe(400);
      expect((await post('{"name":')).statusCode).toBe(400);
      const big = await post(`{"name":"${'x'.repeat(1_100_000)}"}`);
      expect(big.statusCode).toBe(413);
      // A route with its own larger limit keeps it (an import up to 6 MB).
      const csv = `locationname\n${'x'.repeat(1_100_000)}`;
      const imported = await ctx.app.inject({
        method: 'POST',
        url: '/api/endpoints/import',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ csv }),
      });
      expect(imported.statusCode).not.toBe(413);
    });
  });
}
