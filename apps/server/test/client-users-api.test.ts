import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientUsers, surveyAlertRecipients, surveyAlertRules, systemLogs, users } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const PATH = '/api/client-users';
const RULES = '/api/survey-alert-settings';

for (const kind of testDatabaseKinds()) {
  describe(`Client users API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    let otherClientId: number;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>) =>
      ctx.app.inject({ method, url, headers, payload });
    const add = (body: Record<string, unknown>) =>
      send('POST', PATH, { name: 'Pat Lee', role: 'manager', alert_channels: ['email'], ...body });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      clientId = (await get('/api/user')).json().data.user.current_client_id;
      const [other] = await ctx.database.db.select().from(clientUsers).where(ne(clientUsers.clientId, clientId)).limit(1);
      if (!other) throw new Error('demo data has one client only');
      otherClientId = other.clientId;
    });
    afterAll(() => ctx.close());

    it("lists a client's users with their role, channels and status", async () => {
      const res = await get(`${PATH}?client=${otherClientId}`);
      expect(res.statusCode).toBe(200);
      const list = res.json().data as { client_id: number; role: string; status: string; updated_at: string }[];
      expect(list.length).toBeGreaterThan(0);
      expect(list.every((u) => u.client_id === otherClientId)).toBe(true);
      expect(list.map((u) => u.role)).toContain('owner');
      const current = (await get(PATH)).json().data as { client_id: number }[];
      expect(current.every((u) => u.client_id === clientId)).toBe(true);
      expect((await get(`${PATH}?client=999999`)).statusCode).toBe(404);
    });

    it('adds a user to a client, audited, who joins the rules that list Default for New User (and only those)', async () => {
      const withDefault = (
        await send('POST', RULES, { name: 'Everyone new', trigger: 'detractor', channels: ['email'], recipient_user_ids: [1000] })
      ).json().data;
      const withoutDefault = (
        await send('POST', RULES, { name: 'Only extra', trigger: 'detractor', channels: ['email'], extra_emails: ['x@example.com'] })
      ).json().data;
      const res = await add({ email: 'Pat.Lee@Example.com', phone: '+13035550142', alert_channels: ['email', 'sms'] });
      expect(res.statusCode).toBe(201);
      const user = res.json().data;
      expect(user).toMatchObject({ client_id: clientId, name: 'Pat Lee', email: 'pat.lee@example.com', role: 'manager', status: 'active' });
      const joined = await ctx.database.db.select().from(surveyAlertRecipients).where(eq(surveyAlertRecipients.userId, user.id));
      // Every rule of the client that lists id 1000 (the demo's too), each marked as joined by default.
      const listing = await ctx.database.db
        .select({ ruleId: surveyAlertRecipients.ruleId })
        .from(surveyAlertRecipients)
        .innerJoin(surveyAlertRules, eq(surveyAlertRules.id, surveyAlertRecipients.ruleId))
        .where(and(eq(surveyAlertRecipients.userId, 1000), eq(surveyAlertRules.clientId, clientId)));
      expect(listing.length).toBeGreaterThan(1);
      expect(joined.map((j) => j.ruleId).sort()).toEqual(listing.map((l) => l.ruleId).sort());
      expect(joined.every((j) => j.addedBy === 'default')).toBe(true);
      expect(joined.map((j) => j.ruleId)).toContain(withDefault.id);
      expect(joined.map((j) => j.ruleId)).not.toContain(withoutDefault.id);
      const rule = (await get(`${RULES}/${withDefault.id}`)).json().data;
      expect(rule.recipients).toContainEqual({ id: user.id, name: 'Pat Lee', added_by: 'default' });
      const listed = (await get(`${RULES}?q=Everyone%20new`)).json().data[0];
      expect(listed.recipients).toContainEqual({ id: user.id, name: 'Pat Lee', added_by: 'default' });
      expect((await get(`${RULES}/${withoutDefault.id}`)).json().data.recipient_user_ids).toEqual([]);
      const [log] = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'client_user.create'), eq(systemLogs.entityId, String(user.id))));
      expect(log?.message).toContain('joined by default:');
      expect(log?.message).toContain('Everyone new');
      expect(log?.clientId).toBe(clientId);
      const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
      expect(row?.passwordHash).toBeNull();
      // The shell's user list answers { id, name } and has them.
      const shell = (await get('/api/clients-user-list')).json().data as { id: number; name: string }[];
      expect(shell).toContainEqual({ id: user.id, name: 'Pat Lee' });
      expect(Object.keys(shell[0] ?? {}).sort()).toEqual(['id', 'name']);
    });

    it('adds a user to another client than the current one when the panel names it', async () => {
      const res = await add({ client_id: otherClientId, email: 'someone.else@example.com', name: 'Sky Doe' });
      expect(res.statusCode).toBe(201);
      expect(res.json().data.client_id).toBe(otherClientId);
      const missing = await add({ client_id: 999999, email: 'nobody@example.com' });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().errors.client_id).toBeDefined();
    });

    it('refuses bad input naming each field as the form labels it, and a taken e-mail', async () => {
      const bad = await add({ name: '', email: 'nope', phone: '555-0100', role: 'boss', alert_channels: ['fax'] });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({
        name: ['The Name field is required'],
        email: ['The E-mail field must be a valid email'],
        phone: ['The Mobile phone field format is invalid'],
        role: ['The Role field must be a valid value'],
        alert_channels: ['The Alert channels field must be a valid value'],
      });
      const smsWithoutPhone = await add({ email: 'nophone@example.com', alert_channels: ['sms'] });
      expect(smsWithoutPhone.statusCode).toBe(422);
      expect(smsWithoutPhone.json().errors).toEqual({ phone: ['The Mobile phone field is required to accept SMS alerts'] });
      // Another client's user, and a staff account: the address is taken, whatever its case.
      const taken = await add({ client_id: clientId, email: 'SOMEONE.ELSE@example.com' });
      expect(taken.statusCode).toBe(422);
      expect(taken.json()).toMatchObject({ message: 'Please correct: E-mail.', errors: { email: ['The E-mail has already been taken'] } });
      expect((await add({ email: 'admin@example.com' })).statusCode).toBe(422);
    });

    it('edits and deactivates a user, each with its version and audited; deactivated users leave the lists', async () => {
      const user = (await add({ email: 'edit.me@example.com', name: 'Edit Me' })).json().data;
      const noVersion = await send('PATCH', `${PATH}/${user.id}`, { name: 'Edited' });
      expect(noVersion.statusCode).toBe(422);
      expect(noVersion.json().errors.updated_at).toBeDefined();
      const edited = await send('PATCH', `${PATH}/${user.id}`, {
        name: 'Edited Me',
        role: 'owner',
        phone: '+13035550199',
        alert_channels: ['sms'],
        updated_at: user.updated_at,
      });
      expect(edited.statusCode).toBe(200);
      expect(edited.json().data).toMatchObject({ name: 'Edited Me', role: 'owner', phone: '+13035550199', alert_channels: ['sms'] });
      expect(edited.json().data.updated_at).not.toBe(user.updated_at);
      const stale = await send('PATCH', `${PATH}/${user.id}`, { name: 'Late', updated_at: user.updated_at });
      expect(stale.statusCode).toBe(409);
      const dropPhone = await send('PATCH', `${PATH}/${user.id}`, { phone: '', updated_at: edited.json().data.updated_at });
      expect(dropPhone.statusCode).toBe(422);
      expect(Object.keys(dropPhone.json().errors)).toEqual(['phone']);

      const off = await send('PATCH', `${PATH}/${user.id}/status`, { status: 'inactive', updated_at: edited.json().data.updated_at });
      expect(off.statusCode).toBe(200);
      expect(off.json().data.status).toBe('inactive');
      const shell = (await get('/api/clients-user-list')).json().data as { id: number }[];
      expect(shell.some((u) => u.id === user.id)).toBe(false);
      const options = (await get(`${RULES}/user-options`)).json().data as { value: string }[];
      expect(options.some((o) => o.value === String(user.id))).toBe(false);
      const rule = await send('POST', RULES, { name: 'Gone', trigger: 'detractor', channels: ['email'], recipient_user_ids: [user.id] });
      expect(rule.statusCode).toBe(422);
      expect(Object.keys(rule.json().errors)).toEqual(['recipient_user_ids']);

      const on = await send('PATCH', `${PATH}/${user.id}/status`, { status: 'active', updated_at: off.json().data.updated_at });
      expect(on.json().data.status).toBe('active');
      const actions = (
        await ctx.database.db
          .select({ action: systemLogs.action })
          .from(systemLogs)
          .where(and(eq(systemLogs.entityType, 'client_user'), eq(systemLogs.entityId, String(user.id))))
      ).map((r) => r.action);
      expect(actions.sort()).toEqual(['client_user.create', 'client_user.deactivate', 'client_user.reactivate', 'client_user.update']);
      expect((await get(`${PATH}/999999`)).statusCode).toBe(404);
    });
  });
}
