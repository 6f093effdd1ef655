import { randomBytes } from 'node:crypto';
import type { ProcessingItem } from '@admin/shared/resources/survey-processing';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { clients, surveyProcessingItems, surveys, systemLogs } from '../src/db/schema/index.ts';
import { filtersWhere } from '../src/modules/survey-processing/repository.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const PATH = '/api/survey-processing';

/**
 * Survey Processing (issue 19): the search is a prefix search on transaction id, e-mail, phone
 * (and name) that an index serves (item 16); bulk Retry failed confirms the count and the scope and
 * its audit row names the filter (item 2).
 */
for (const kind of testDatabaseKinds()) {
  describe(`Survey Processing search and bulk retry (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    let clientName: string;
    let surveyId: number;
    const tag = randomBytes(3).toString('hex').toUpperCase();
    const post = (url: string, payload: object) => ctx.app.inject({ method: 'POST', url, headers, payload });
    const search = async (q: string) => {
      const res = await ctx.app.inject({ method: 'GET', url: `${PATH}?survey=${surveyId}&q=${encodeURIComponent(q)}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as ProcessingItem[]).map((r) => r.transaction_id);
    };
    const newItem = async (fields: Partial<typeof surveyProcessingItems.$inferInsert>) => {
      await ctx.database.db.insert(surveyProcessingItems).values({
        clientId,
        surveyId,
        firstName: 'Dana',
        lastName: 'Reyes',
        channel: 'email',
        status: 'failed',
        lastError: 'SMTP 451',
        token: randomBytes(32).toString('base64url'),
        expiresAt: new Date(Date.now() + 30 * 86_400_000),
        source: 'csv_upload',
        ...fields,
      });
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const db = ctx.database.db;
      const [client] = await db.select({ id: clients.id, name: clients.name }).from(clients).orderBy(clients.id).limit(1);
      clientId = client?.id ?? 0;
      clientName = client?.name ?? '';
      const [survey] = await db
        .insert(surveys)
        .values({ clientId, name: `Search ${tag}`, type: 'nps', language: 'en', channel: 'email', senderName: 'Acme' })
        .returning({ id: surveys.id });
      surveyId = survey?.id ?? 0;
      await newItem({ transactionId: `POS-${tag}-9001`, email: `jo.${tag.toLowerCase()}@example.com`, phone: '+13035550142' });
      await newItem({ transactionId: `POS-${tag}-9002`, firstName: 'Zed', lastName: 'Quinn', phone: '+447700900123' });
      await newItem({ transactionId: `WEB-${tag}-1`, status: 'sent', lastError: null, email: `ann.${tag.toLowerCase()}@example.com` });
    });
    afterAll(() => ctx.close());

    it('finds by the start of a transaction id, e-mail, phone or name, case aside; never by the middle', async () => {
      expect(await search(`POS-${tag}-900`)).toEqual([`POS-${tag}-9002`, `POS-${tag}-9001`]);
      expect(await search(`pos-${tag.toLowerCase()}-9001`)).toEqual([`POS-${tag}-9001`]);
      expect(await search(`JO.${tag}@EX`)).toEqual([`POS-${tag}-9001`]);
      expect(await search('(303) 555-01')).toEqual([`POS-${tag}-9001`]);
      expect(await search('+4477009')).toEqual([`POS-${tag}-9002`]);
      expect(await search('zed qu')).toEqual([`POS-${tag}-9002`]);
      expect(await search(`${tag}-9001`)).toEqual([]);
      // LIKE's wildcards are searched as themselves.
      expect(await search('POS%')).toEqual([]);
    });

    it('is served by the prefix indexes, not a scan of every invitation', async () => {
      const plan = await ctx.database.db.transaction(async (tx) => {
        // Tiny tables are cheaper to scan, so the planner is told not to: what is left is whether an index can serve it.
        await tx.execute(sql`set local enable_seqscan = off`);
        const where = filtersWhere({ q: 'POS-900' });
        return rowsOf(await tx.execute(sql`explain select id from ${surveyProcessingItems} where ${where}`))
          .map((r) => String(r['QUERY PLAN']))
          .join('\n');
      });
      for (const index of ['transaction', 'email', 'name']) expect(plan).toContain(`survey_processing_items_${index}_prefix_idx`);
      expect(plan).not.toMatch(/Seq Scan/);
    });

    it('previews a bulk retry with the count and the scope, and the audit row names the filter', async () => {
      const everywhere = await post(`${PATH}/retry/preview`, { filter: {} });
      expect(everywhere.statusCode, everywhere.body).toBe(200);
      expect(everywhere.json().data).toMatchObject({ count: expect.any(Number), scope: 'all clients', filters: [] });

      const filter = { client: [String(clientId)], survey: [String(surveyId)], q: `POS-${tag}` };
      const preview = (await post(`${PATH}/retry/preview`, { filter })).json().data;
      expect(preview).toEqual({ count: 2, scope: clientName, filters: [`Surveys: Search ${tag}`, `Search: "POS-${tag}"`] });

      // A count other than the one confirmed retries nothing.
      const stale = await post(`${PATH}/retry`, { filter, confirmed: 3 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().message).toBe(
        `The filter now finds 2 failed invitations in ${clientName}, not 3: nothing was retried. Look again and confirm.`,
      );
      expect((await post(`${PATH}/retry/preview`, { filter })).json().data.count).toBe(2);

      const done = await post(`${PATH}/retry`, { filter, confirmed: 2 });
      expect(done.json().data).toEqual({ changed: 2 });
      const [log] = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(eq(systemLogs.action, 'survey_processing.retry_bulk'))
        .orderBy(desc(systemLogs.id))
        .limit(1);
      expect(log?.message).toBe(`Retried 2 failed invitations in ${clientName} (Surveys: Search ${tag}; Search: "POS-${tag}")`);
      expect(log?.clientId).toBe(clientId);
      expect(log?.after).toMatchObject({ filter, filter_described: [clientName, `Surveys: Search ${tag}`, `Search: "POS-${tag}"`] });
    });
  });
}
