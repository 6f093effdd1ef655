import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, systemLogs, teams, users } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

for (const kind of testDatabaseKinds()) {
  describe(`clients API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH', url: string, payload: unknown) =>
      ctx.app.inject({ method, url, headers, payload: payload as Record<string, unknown> });
    /** The record's version as an editor would have loaded it: every edit carries it. */
    const versionOf = async (url: string): Promise<string> => (await get(url)).json().data.updated_at;
    const clientCount = async () => (await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(clients))[0]?.n ?? 0;

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(() => ctx.close());

    it('lists clients by name with root team, AC and user counts', async () => {
      const res = await get('/api/create-client');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.total).toBe(12);
      expect(body.totalIsEstimate).toBe(false);
      const names = body.data.map((c: { name: string }) => c.name);
      expect(names).toEqual([...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(body.data[0]).toMatchObject({ root_team_name: expect.any(String), users_count: expect.any(Number), status: 'active' });
      expect((await get('/api/create-client?q=honda')).json().data.map((c: { name: string }) => c.name)).toEqual(['Lakeside Honda']);
      expect((await get('/api/create-client?industry=automotive')).json().total).toBe(2);
      expect((await get('/api/create-client?perPage=5')).json().nextCursor).toEqual(expect.any(String));
      expect((await get('/api/create-client?status=deleted')).statusCode).toBe(400);
      // Active locations of the current client, as its Locations screen counts them.
      const me = (await get('/api/user')).json().data.user;
      const current = body.data.find((c: { id: number }) => c.id === me.current_client_id);
      expect(current.locations_count).toBe((await get('/api/endpoints?status=active')).json().total);
      // Account coordinator filter: only clients coordinated by that user.
      const coordinated = (await get(`/api/create-client?ac=${me.id}`)).json().data as { account_coordinator_id: number }[];
      expect(coordinated.length).toBeGreaterThan(0);
      expect(coordinated.every((c) => c.account_coordinator_id === me.id)).toBe(true);
    });

    it('creates a client with its root team and audits it in the same transaction', async () => {
      const before = await clientCount();
      const res = await send('POST', '/api/create-client', { name: 'Riverbend Dental', industry: 'dental', timezone: 'America/Chicago' });
      expect(res.statusCode).toBe(201);
      const client = res.json().data;
      expect(client).toMatchObject({
        name: 'Riverbend Dental',
        country: 'US',
        default_review_site: 'google',
        status: 'active',
        modules: [],
      });
      // The list's plain-SQL row is the record the write answered, field for field.
      expect((await get('/api/create-client?q=Riverbend%20Dental')).json().data).toEqual([client]);
      const [team] = await ctx.database.db.select().from(teams).where(eq(teams.id, client.root_team_id));
      expect(team).toMatchObject({ clientId: client.id, name: 'Riverbend Dental', parentTeamId: null });
      const [log] = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'client.create'), eq(systemLogs.entityId, String(client.id))));
      expect(log).toMatchObject({ entityType: 'client', entityId: String(client.id), clientId: client.id });
      expect(await clientCount()).toBe(before + 1);
      const roots = (await get('/api/client-root-teams')).json().data;
      expect(roots.some((r: { clientId: number }) => r.clientId === client.id)).toBe(true);
    });

    it('answers 422 with the form rules messages per field, and writes nothing', async () => {
      const before = await clientCount();
      const res = await send('POST', '/api/create-client', {
        name: '',
        industry: 'bogus',
        website: 'not a url',
        phone: '12',
        state: 'co',
        postal_code: '1234',
        country: 'USA',
        timezone: 'Mars/Base',
        primary_contact_email: 'nobody',
        modules: ['surveys', 'teleport'],
        default_review_site: 'myspace',
      });
      expect(res.statusCode).toBe(422);
      // Fields named as the form labels them; the root team name defaults to the name, so only the name is required.
      expect(res.json().errors).toEqual({
        name: ['The Name field is required'],
        industry: ['The Industry field must be a valid value'],
        website: ['The Website field is not a valid URL'],
        phone: ['The Phone field format is invalid'],
        state: ['The State field format is invalid'],
        postal_code: ['The Postal code field format is invalid'],
        country: ['The Country length must be 2'],
        timezone: ['The Time zone field must be a valid value'],
        primary_contact_email: ['The Primary contact email field must be a valid email'],
        modules: ['The Modules field must be a valid value'],
        default_review_site: ['The Default review site field must be a valid value'],
      });
      expect(await clientCount()).toBe(before);
    });

    it('refuses duplicate names (any case) with 409 and unknown fields with 400', async () => {
      const dup = await send('POST', '/api/create-client', { name: 'lakeside HONDA', industry: 'automotive', timezone: 'America/Chicago' });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().errors).toEqual({ name: ['The Name has already been taken'] });
      const extra = await send('POST', '/api/create-client', { name: 'X', industry: 'other', timezone: 'UTC', is_admin: true });
      expect(extra.statusCode).toBe(400);
      expect(extra.json().errors).toHaveProperty('is_admin');
      const wrongType = await send('POST', '/api/create-client', { name: 42, industry: 'other', timezone: 'America/Chicago' });
      expect(wrongType.statusCode).toBe(400);
      expect(wrongType.json().errors).toHaveProperty('name');
    });

    it('two creates racing for one name: one wins, the other gets 409', async () => {
      const body = { name: 'Racing Co', industry: 'other', timezone: 'America/Chicago' };
      const [a, b] = await Promise.all([send('POST', '/api/create-client', body), send('POST', '/api/create-client', body)]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
      const rows = await ctx.database.db.select().from(clients).where(eq(clients.name, 'Racing Co'));
      expect(rows).toHaveLength(1);
    });

    it('edits with a stale-write check and an audited before/after', async () => {
      const created = (await send('POST', '/api/create-client', { name: 'Edit Me', industry: 'retail', timezone: 'America/Denver' })).json()
        .data;
      const ok = await send('PATCH', `/api/clients/${created.id}`, { city: 'Boulder', state: 'CO', updated_at: created.updated_at });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data).toMatchObject({ city: 'Boulder', state: 'CO', name: 'Edit Me' });
      const stale = await send('PATCH', `/api/clients/${created.id}`, { city: 'Denver', updated_at: created.updated_at });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().errors).toHaveProperty('updated_at');
      const bad = await send('PATCH', `/api/clients/${created.id}`, { website: 'nope' });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({ website: ['The Website field is not a valid URL'] });
      const [log] = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'client.update'), eq(systemLogs.entityId, String(created.id))));
      expect(log?.before).toMatchObject({ city: null });
      expect(log?.after).toMatchObject({ city: 'Boulder' });
      expect((await send('PATCH', '/api/clients/999999', { city: 'x' })).statusCode).toBe(404);
    });

    it('moves status only along the allowed transitions', async () => {
      const c = (await send('POST', '/api/create-client', { name: 'Status Co', industry: 'other', timezone: 'America/Denver' })).json()
        .data;
      const to = async (status: string) =>
        send('PATCH', `/api/clients/${c.id}/status`, { status, updated_at: await versionOf(`/api/clients/${c.id}`) });
      // Without the version it read, a change is refused, naming the stamp by its label.
      const blind = await send('PATCH', `/api/clients/${c.id}/status`, { status: 'paused' });
      expect(blind.statusCode).toBe(422);
      expect(blind.json().message).toBe('Please correct: Last updated.');
      expect((await to('paused')).json().data.status).toBe('paused');
      expect((await to('paused')).statusCode).toBe(409);
      expect((await to('active')).json().data.status).toBe('active');
      expect((await to('inactive')).json().data.status).toBe('inactive');
      const notAllowed = await to('paused');
      expect(notAllowed.statusCode).toBe(409);
      expect(notAllowed.json().errors.status).toEqual(['A Archived record cannot be made Paused']);
      const roots = (await get('/api/client-root-teams')).json().data;
      expect(roots.some((r: { clientId: number }) => r.clientId === c.id)).toBe(false);
      expect((await to('active')).json().data.status).toBe('active');
      expect((await to('deleted')).statusCode).toBe(400);
    });

    it('names the root team as asked, checks the coordinator is staff, and answers records with their names', async () => {
      const me = (await get('/api/user')).json().data.user;
      const res = await send('POST', '/api/create-client', {
        name: 'Team Name Co',
        industry: 'other',
        timezone: 'America/Denver',
        root_team_name: 'Team Name HQ',
        account_coordinator_id: me.id,
      });
      expect(res.statusCode).toBe(201);
      const client = res.json().data;
      expect(client).toMatchObject({ root_team_name: 'Team Name HQ', account_coordinator_name: me.name, users_count: 0 });
      expect((await get(`/api/clients/${client.id}`)).json().data).toMatchObject({ id: client.id, root_team_name: 'Team Name HQ' });
      // A client's portal user (no password) cannot sign in here, so cannot coordinate.
      const [portalUser] = await ctx.database.db.select({ id: users.id }).from(users).where(isNull(users.passwordHash)).limit(1);
      const notStaff = await send('PATCH', `/api/clients/${client.id}`, {
        account_coordinator_id: portalUser?.id,
        updated_at: client.updated_at,
      });
      expect(notStaff.statusCode).toBe(422);
      expect(notStaff.json().errors).toEqual({ account_coordinator_id: ['Choose a staff member'] });
    });

    it('pages the staff options on the server: search, chosen values with their names, more', async () => {
      const all = (await get('/api/staff-users')).json().data as { id: number; name: string }[];
      expect(all.length).toBeGreaterThan(1);
      const first = (await get('/api/staff-users/options?perPage=1')).json();
      expect(first).toEqual({ data: [{ value: String(all[0]?.id), label: all[0]?.name }], more: true });
      const last = all[all.length - 1];
      const withChosen = (await get(`/api/staff-users/options?perPage=1&value=${last?.id}`)).json();
      expect(withChosen.data.map((o: { value: string }) => o.value)).toEqual([String(all[0]?.id), String(last?.id)]);
      const found = (await get(`/api/staff-users/options?q=${encodeURIComponent(last?.name.slice(1, 5) ?? '')}`)).json();
      expect(found.data.some((o: { label: string }) => o.label === last?.name)).toBe(true);
      expect((await get('/api/staff-users/options?perPage=101')).statusCode).toBe(400);
      // A chosen value is an id, as the filter's: anything else is refused, not silently dropped.
      for (const value of ['junk', '0', '2147483648']) {
        expect((await get(`/api/staff-users/options?value=${value}`)).json().errors).toHaveProperty(['value.0']);
      }
    });

    it('exports the chosen columns as CSV', async () => {
      const res = await get('/api/create-client/export?columns=name,industry&industry=automotive');
      expect(res.statusCode).toBe(200);
      // The CSV holds what the table shows (the column's format): industries by their labels.
      expect(res.body).toBe('\uFEFFName,Industry\r\nLakeside Honda,Automotive\r\nNorthstar Toyota,Automotive\r\n');
      expect((await get('/api/create-client/export?columns=password')).statusCode).toBe(400);
    });
  });
}
