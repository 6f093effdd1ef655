import { and, eq, isNull, like, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsOptOuts, smsTemplates, systemLogs } from '../src/db/schema/index.ts';
import { computedColumns } from '../src/modules/sms-templates/repository.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const INVITE = 'Hi {first_name}, how was your visit to {business_name}? {link} Reply STOP to opt out';

for (const kind of testDatabaseKinds()) {
  describe(`SMS templates API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let currentClient: number;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) =>
      ctx.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
    const create = (body: Record<string, unknown>) => send('POST', '/api/sms-templates', { language: 'en', ...body });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      currentClient = (await get('/api/user')).json().data.user.current_client_id;
    });
    afterAll(() => ctx.close());

    it('refuses a customer-facing message without the business name and the opt-out, naming the field by its label', async () => {
      const bad = await create({ name: 'Invite', purpose: 'survey_invite', body: 'Hi {first_name}, rate us: {link}' });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({
        body: [
          'The Message field must include {business_name} in a survey invite',
          'The Message field must say how to opt out in a survey invite, e.g. "Reply STOP to opt out"',
        ],
      });
      const noStop = await create({ name: 'Reminder', purpose: 'survey_reminder', body: 'Reminder from {business_name}: {link}' });
      expect(noStop.json().errors.body).toHaveLength(1);
      const review = await create({ name: 'Review', purpose: 'review_invite', body: 'Review {business_name}: {link}. Text STOP to end' });
      expect(review.statusCode).toBe(201);
    });

    it('refuses an opt-in confirmation without the rates notice or HELP, and the form rules', async () => {
      const bad = await create({ name: 'Opt-in', purpose: 'opt_in_confirmation', body: 'You are in! Reply STOP to cancel.' });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors.body).toEqual([
        'The Message field must include "Msg & data rates may apply" in an opt-in confirmation',
        'The Message field must name the HELP keyword in an opt-in confirmation, e.g. "Reply HELP for help"',
      ]);
      const ok = await create({
        name: 'Opt-in',
        purpose: 'opt_in_confirmation',
        body: '{business_name}: you are subscribed. Msg & data rates may apply. Reply HELP for help, STOP to cancel.',
      });
      expect(ok.statusCode).toBe(201);
      const rules = await create({ name: '', purpose: 'fax', language: 'de', body: 'x'.repeat(1601) });
      expect(rules.statusCode).toBe(422);
      expect(rules.json().errors).toEqual({
        name: ['The Name field is required'],
        purpose: ['The Purpose field must be a valid value'],
        language: ['The Language field must be a valid value'],
        body: ['The Message field may not be greater than 1600 characters'],
      });
    });

    it('computes encoding, segments, length and has_opt_out on create and on edit', async () => {
      const res = await create({ name: 'Survey invite', purpose: 'survey_invite', body: INVITE });
      expect(res.statusCode).toBe(201);
      const created = res.json().data;
      expect(created).toMatchObject({
        client_id: currentClient,
        encoding: 'gsm7',
        segments: 1,
        has_opt_out: true,
        length: 3 + 12 + 24 + 30 + 2 + 23 + 22,
        status: 'active',
      });
      // One emoji switches the whole message to UCS-2: 70/67 per segment.
      const edited = await send('PATCH', `/api/sms-templates/${created.id}`, {
        body: `${INVITE} 🙂`,
        updated_at: created.updated_at,
      });
      expect(edited.statusCode).toBe(200);
      expect(edited.json().data).toMatchObject({ encoding: 'ucs2', segments: 2, has_opt_out: true });
      // Changing the purpose alone is checked against the stored message.
      const alert = await send('PATCH', `/api/sms-templates/${created.id}`, {
        purpose: 'survey_alert',
        updated_at: edited.json().data.updated_at,
      });
      expect(alert.statusCode).toBe(200);
      const stripped = await send('PATCH', `/api/sms-templates/${created.id}`, {
        body: 'New response: {link}',
        updated_at: alert.json().data.updated_at,
      });
      expect(stripped.json().data).toMatchObject({ has_opt_out: false, encoding: 'gsm7' });
      const back = await send('PATCH', `/api/sms-templates/${created.id}`, {
        purpose: 'survey_invite',
        updated_at: stripped.json().data.updated_at,
      });
      expect(back.statusCode).toBe(422);
      expect(back.json().errors.body).toHaveLength(2);
      expect((await get('/api/sms-templates?encoding=ucs2')).json().total).toBe(0);
      expect((await get('/api/sms-templates?purpose=survey_alert')).json().data.map((t: { name: string }) => t.name)).toContain(
        'Survey invite',
      );
    });

    it("lists the client's own templates with the global defaults; another client sees only the defaults", async () => {
      const global = await create({ name: 'Global invite', purpose: 'survey_invite', body: INVITE, global: true });
      expect(global.json().data).toMatchObject({ client_id: null, client_name: 'Global default' });
      const own = await create({ name: 'Own invite', purpose: 'survey_invite', body: INVITE });
      // The demo data's own global defaults are named "… (default)".
      const names = (answer: { json(): { data: { name: string }[] } }) =>
        answer
          .json()
          .data.map((t) => t.name)
          .filter((n) => !n.endsWith('(default)'));
      expect(names(await get('/api/sms-templates?scope=global'))).toEqual(['Global invite']);
      const mine = (await get('/api/sms-templates?scope=client')).json().data.map((t: { name: string }) => t.name);
      expect(mine).toContain('Own invite');
      expect(mine).not.toContain('Global invite');

      const other = currentClient === 2 ? 3 : 2;
      await send('PUT', `/api/users/switch-client/${other}`);
      try {
        expect(names(await get('/api/sms-templates'))).toEqual(['Global invite']);
        // Another client's template cannot be duplicated from here.
        expect((await send('POST', `/api/sms-templates/${own.json().data.id}/duplicate`, {})).statusCode).toBe(404);
        // A global default copied for this client becomes its own.
        const copy = await send('POST', `/api/sms-templates/${global.json().data.id}/duplicate`, { global: false });
        expect(copy.statusCode).toBe(201);
        expect(copy.json().data).toMatchObject({ name: 'Global invite (copy)', client_id: other, encoding: 'gsm7', has_opt_out: true });
        const [entry] = await ctx.database.db
          .select()
          .from(systemLogs)
          .where(and(eq(systemLogs.action, 'sms_template.duplicate'), eq(systemLogs.entityId, String(copy.json().data.id))));
        expect(entry).toMatchObject({ message: 'Duplicated SMS template Global invite as Global invite (copy)', clientId: other });
        expect(entry?.after).toMatchObject({ source_id: global.json().data.id, name: 'Global invite (copy)' });
      } finally {
        await send('PUT', `/api/users/switch-client/${currentClient}`);
      }
    });

    it("serves a survey's SMS template options paged on the server: the client's and global, active ones, search, chosen values", async () => {
      const other = currentClient === 2 ? 3 : 2;
      const row = (clientId: number | null, name: string, status = 'active') => ({
        clientId,
        name,
        purpose: 'survey_invite',
        language: 'en',
        body: INVITE,
        ...computedColumns(INVITE),
        status,
      });
      // More than a page: 150 of the client's own, one paused, one of another client, one global.
      const bulk = Array.from({ length: 150 }, (_, i) => row(currentClient, `Bulk option ${String(i + 1).padStart(3, '0')}`));
      await ctx.database.db.insert(smsTemplates).values(bulk);
      const [paused] = await ctx.database.db
        .insert(smsTemplates)
        .values(row(currentClient, 'Bulk option paused', 'paused'))
        .returning();
      const [foreign] = await ctx.database.db.insert(smsTemplates).values(row(other, 'Bulk option foreign')).returning();
      const [shared] = await ctx.database.db.insert(smsTemplates).values(row(null, 'Bulk option shared')).returning();
      try {
        const first = await get('/api/sms-templates/options?q=bulk%20OPTION&perPage=100');
        expect(first.statusCode).toBe(200);
        const page = first.json() as { data: { value: string; label: string }[]; more: boolean };
        expect(page.data).toHaveLength(100);
        // More than a page matched: a narrower search reaches the rest.
        expect(page.more).toBe(true);
        expect(page.data[0]?.label).toBe('Bulk option 001');
        expect((await get('/api/sms-templates/options?q=option%20150')).json()).toEqual({
          data: [{ value: expect.any(String), label: 'Bulk option 150' }],
          more: false,
        });
        // The default page is 50; the global default is named so; paused and another client's are no options.
        expect((await get('/api/sms-templates/options?q=bulk')).json().data).toHaveLength(50);
        const named = (await get('/api/sms-templates/options?q=option%20s')).json().data.map((o: { label: string }) => o.label);
        expect(named).toEqual(['Bulk option shared (global)']);
        expect((await get('/api/sms-templates/options?q=option%20paused')).json().data).toEqual([]);
        expect((await get('/api/sms-templates/options?q=option%20foreign')).json().data).toEqual([]);
        // Chosen values come with their labels whatever their status; another client's never.
        const chosen = await get(`/api/sms-templates/options?q=zzzz-nothing&value=${paused?.id}&value=${shared?.id}&value=${foreign?.id}`);
        expect(chosen.json()).toEqual({
          data: [
            { value: String(paused?.id), label: 'Bulk option paused' },
            { value: String(shared?.id), label: 'Bulk option shared (global)' },
          ],
          more: false,
        });
        expect((await get('/api/sms-templates/options?perPage=101')).statusCode).toBe(400);
        expect((await get('/api/sms-templates/options?other=1')).statusCode).toBe(400);
        // What no id can be is refused, as the list's filters refuse it, naming the value.
        expect((await get('/api/sms-templates/options?value=x&value=99999999999')).json().errors).toEqual({
          'value.0': ['must be a positive whole number written in digits'],
          'value.1': ['must be at most 2147483647'],
        });
      } finally {
        await ctx.database.db
          .delete(smsTemplates)
          .where(
            and(
              like(smsTemplates.name, 'Bulk option %'),
              or(isNull(smsTemplates.clientId), eq(smsTemplates.clientId, currentClient), eq(smsTemplates.clientId, other)),
            ),
          );
      }
    });

    it('duplicates a template as an active copy of the same owner', async () => {
      const source = (await create({ name: 'To copy', purpose: 'survey_alert', body: 'Alert {link} 🚨' })).json().data;
      await send('PATCH', `/api/sms-templates/${source.id}/status`, { status: 'paused', updated_at: source.updated_at });
      const copy = await send('POST', `/api/sms-templates/${source.id}/duplicate`);
      expect(copy.statusCode).toBe(201);
      expect(copy.json().data).toMatchObject({
        name: 'To copy (copy)',
        client_id: currentClient,
        status: 'active',
        body: source.body,
        encoding: 'ucs2',
        segments: 1,
      });
      expect(copy.json().data.id).not.toBe(source.id);
      expect((await send('POST', '/api/sms-templates/999999/duplicate', {})).statusCode).toBe(404);
      expect((await send('POST', `/api/sms-templates/${source.id}/duplicate`, { global: 'yes' })).statusCode).toBe(400);
    });

    it('exports the columns as the table shows them', async () => {
      const res = await get(
        '/api/sms-templates/export?scope=global&q=Global%20invite&columns=name,client_name,purpose,preview,encoding,length,segments,has_opt_out',
      );
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(
        '\uFEFFName,Client,Purpose,Preview,Encoding,Length,Segments,Has opt-out text\r\n' +
          'Global invite,Global default,Survey invite,"Hi {first_name}, how was your visit to {business_name}? {lin…",GSM-7,116,1,Yes\r\n',
      );
    });

    it('sends a test to one phone through the outbox with sample values, refuses an opted-out phone, and names a bad phone', async () => {
      const template = (await create({ name: 'Test me', purpose: 'survey_invite', body: INVITE })).json().data;
      const sent = await send('POST', `/api/sms-templates/${template.id}/send-test`, { phone: '+13035550142' });
      expect(sent.statusCode).toBe(201);
      expect(sent.json().data).toMatchObject({ status: 'sent', error: null });
      const detail = (await get(`/api/notifications-logs/${sent.json().data.id}`)).json().data;
      expect(detail.body_text).toMatch(/^Hi Alex, how was your visit to .+\? https?:\/\/.+\/s\/test Reply STOP to opt out$/);
      expect(detail.subject_or_template).toBe('Test me (test)');

      await ctx.database.db.insert(smsOptOuts).values({ phone: '+13035550199', clientId: null, keyword: 'STOP', source: 'sms' });
      const refused = await send('POST', `/api/sms-templates/${template.id}/send-test`, { phone: '+13035550199' });
      expect(refused.json().data.status).toBe('suppressed');

      const bad = await send('POST', `/api/sms-templates/${template.id}/send-test`, { phone: '303-555' });
      expect(bad.statusCode).toBeGreaterThanOrEqual(400);
      expect(bad.statusCode).toBeLessThan(500);
      expect(JSON.stringify(bad.json())).toContain('Phone');
      expect((await send('POST', '/api/sms-templates/999999/send-test', { phone: '+13035550142' })).statusCode).toBe(404);
    });
  });
}
