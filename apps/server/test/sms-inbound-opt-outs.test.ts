import { parseCsv, type SmsOptOut } from '@admin/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.ts';
import { clients, smsOptOuts, systemLogs } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';
import { postSigned, smsConfig } from './sms-callbacks-bed.ts';

// GET /api/sms-opt-outs (SMS Text's opted-out phones): a phone opted out by an inbound STOP is
// listed with its keyword, time, source and "every client"; searched by its digits; exported (audited).

const PATH = '/api/sms-opt-outs';
type Page = { data: SmsOptOut[]; nextCursor: string | null };

for (const kind of testDatabaseKinds()) {
  describe(`SMS opt-outs list (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    beforeAll(async () => {
      // The demo as the template seeded it: only the running app needs the signing token and public address.
      ctx = await startTestApp(kind, smsConfig(testConfig()), { demo: 'template' });
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    }, 240_000);
    afterAll(async () => ctx?.close());

    const list = async (query = '') => {
      const res = await ctx.app.inject({ method: 'GET', url: `${PATH}${query}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Page;
    };

    it('lists a phone opted out by STOP first, for every client, and finds it by its digits', async () => {
      const phone = '+15555557301';
      const res = await postSigned(ctx.app, '/api/v1/sms/inbound', [
        ['MessageSid', 'SMlist0001'],
        ['From', phone],
        ['To', '+15555550100'],
        ['Body', 'Stop'],
      ]);
      expect(res.statusCode, res.body).toBe(200);
      const first = await list();
      expect(first.data[0]).toMatchObject({ id: phone, phone, keyword: 'STOP', source: 'inbound', client_id: null, client_name: null });
      const found = await list('?q=555%20555%207301');
      expect(found.data.map((r) => r.phone)).toEqual([phone]);
      expect((await list('?q=%2B15555557301')).data.map((r) => r.phone)).toEqual([phone]);
      expect((await list('?q=nothing-like-it')).data).toEqual([]);
    });

    it("names a client's opt-out by the client, pages by cursor and sorts by phone", async () => {
      const db = ctx.database.db;
      const [client] = await db.select({ id: clients.id, name: clients.name }).from(clients).orderBy(clients.id).limit(1);
      await db.insert(smsOptOuts).values([
        { phone: '+15555557302', clientId: client?.id ?? null, keyword: 'UNSUBSCRIBE', source: 'unsubscribe_link' },
        { phone: '+15555557303', clientId: null, keyword: 'QUIT', source: 'inbound' },
      ]);
      const page = await list('?q=55555573&sort=phone&order=asc&perPage=2');
      expect(page.data.map((r) => r.phone)).toEqual(['+15555557301', '+15555557302']);
      expect(page.data[1]).toMatchObject({ client_name: client?.name });
      expect(page.nextCursor).not.toBeNull();
      const next = await list(`?q=55555573&sort=phone&order=asc&perPage=2&cursor=${encodeURIComponent(page.nextCursor ?? '')}`);
      expect(next.data.map((r) => r.phone)).toEqual(['+15555557303']);
    });

    it('exports the list as CSV with the columns in words, audited', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: `${PATH}/export?q=5555557301`, headers });
      expect(res.statusCode, res.body).toBe(200);
      const [head, row] = parseCsv(res.body.replace(/^\uFEFF/, ''));
      expect(head).toEqual(['Phone', 'Keyword', 'Opted out', 'Source', 'Client']);
      // The kit's CSV guards a leading + against formula injection (apps/server/src/kit/csv.ts).
      expect(row?.[0]).toBe("'+15555557301");
      expect(row?.[2]).toMatch(/ UTC$/);
      expect(row?.slice(3)).toEqual(['Text reply', 'All clients']);
      const [audit] = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'sms_opt_outs.export'), eq(systemLogs.entityType, 'sms_opt_out')));
      expect(audit).toBeDefined();
    });

    it('is for super-admins only', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: PATH });
      expect(res.statusCode).toBe(401);
    });
  });
}
