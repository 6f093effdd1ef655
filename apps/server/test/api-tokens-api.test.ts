import { TOKEN_HOLDER_RULE } from '@admin/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, clients, clientUsers, systemLogs, users } from '../src/db/schema/index.ts';
import { authenticateToken } from '../src/modules/api-tokens/authenticate.ts';
import { storedParts } from '../src/modules/api-tokens/token.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

for (const kind of testDatabaseKinds()) {
  describe(`API Token Generation API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let staffId: number;
    let adminId: number;
    /** A client's portal user: belongs to exactly one client, so may hold a token that feeds it. */
    let portalId: number;
    let portalClientId: number;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown> = {}) =>
      ctx.app.inject({ method, url, headers, payload });
    /** A new user, of the given clients (none: one of the provider's staff). */
    const newUser = async (label: string, clientIds: number[], extra: Partial<typeof users.$inferInsert> = {}) => {
      const [user] = await ctx.database.db
        .insert(users)
        .values({ name: `${label} ${kind}`, email: `${label.toLowerCase().replace(/\W+/g, '.')}.${kind}@example.com`, ...extra })
        .returning();
      if (!user) throw new Error('no user');
      for (const clientId of clientIds) await ctx.database.db.insert(clientUsers).values({ clientId, userId: user.id });
      return user;
    };
    const check = (now = new Date()) => ({
      ip: '203.0.113.9',
      scope: 'feeds:write' as const,
      now,
      retiredMasterEmail: ctx.config.retiredMasterEmail,
    });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const all = await ctx.database.db.select({ id: users.id, email: users.email }).from(users);
      staffId = all.find((u) => u.email === 'staff@example.com')?.id ?? 0;
      adminId = all.find((u) => u.email === 'admin@example.com')?.id ?? 0;
      const [portal] = await ctx.database.db.select().from(clientUsers).limit(1);
      portalId = portal?.userId ?? 0;
      portalClientId = portal?.clientId ?? 0;
    });
    afterAll(() => ctx.close());

    it('creates a token: the plaintext once in the 201, only its hash stored, never in the list, export or audit', async () => {
      const res = await send('POST', '/api/api-token', {
        user_id: portalId,
        name: 'DMS export',
        scopes: ['feeds:write'],
        allowed_ips: ['203.0.113.0/24'],
      });
      expect(res.statusCode, res.body).toBe(201);
      const { token, ...meta } = res.json().data;
      expect(token).toMatch(/^rp_[0-9A-Za-z]{46}$/);
      expect(meta).toMatchObject({ name: 'DMS export', prefix: token.slice(0, 7), last4: token.slice(-4), state: 'active' });
      // Default expiry: 90 days from today.
      expect(meta.expires_at.slice(0, 10)).toBe(inDays(90));

      const [row] = await ctx.database.db.select().from(apiTokens).where(eq(apiTokens.id, meta.id));
      expect(row?.tokenHash).toBe(storedParts(token).tokenHash);
      // Issued for the one client the user belongs to: it feeds only that client.
      expect(row?.clientId).toBe(portalClientId);
      expect(JSON.stringify(row)).not.toContain(token);
      const [user] = await ctx.database.db.select().from(users).where(eq(users.id, portalId));
      expect(user?.apiToken).toBe(row?.tokenHash);

      const list = await get('/api/api-token?perPage=200');
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(token);
      expect(list.body).not.toContain(row?.tokenHash);
      const portal = (await get(`/api/api-token?perPage=200&q=${encodeURIComponent(user?.email ?? '')}`)).json().data[0];
      expect(portal).toMatchObject({
        api_token: `${token.slice(0, 7)}…${token.slice(-4)}`,
        token_name: 'DMS export',
        state: 'active',
        client_id: portalClientId,
        may_hold_token: true,
      });
      const exported = await get('/api/api-token/export');
      expect(exported.statusCode).toBe(200);
      expect(exported.body).not.toContain(token);
      const logs = await ctx.database.db.select().from(systemLogs);
      expect(JSON.stringify(logs)).not.toContain(token);
      expect(logs.some((l) => l.action === 'api_token.create')).toBe(true);

      const again = await send('POST', '/api/api-token', { user_id: portalId, name: 'Second', scopes: ['feeds:write'] });
      expect(again.statusCode).toBe(409);
    });

    it('issues no token to an account the console refuses, nor to a user of no client or of several', async () => {
      const [firstClient, secondClient] = await ctx.database.db.select({ id: clients.id }).from(clients).limit(2);
      const twoClients = await newUser('Two clients', [firstClient?.id ?? 0, secondClient?.id ?? 0]);
      const inactive = await newUser('Left the client', [firstClient?.id ?? 0], { status: 'inactive' });
      const [master] = await ctx.database.db.select().from(users).where(eq(users.email, ctx.config.retiredMasterEmail));
      const refusal = { user_id: [`The User may not hold a token. ${TOKEN_HOLDER_RULE}.`] };
      for (const id of [staffId, master?.id, twoClients.id, inactive.id]) {
        const res = await send('POST', '/api/api-token', { user_id: id, name: 'Not allowed', scopes: ['feeds:write'] });
        expect(res.statusCode, `user ${id}`).toBe(422);
        expect(res.json().errors).toEqual(refusal);
        expect(res.json().message).toBe('Please correct: User.');
      }
      expect(await ctx.database.db.select().from(apiTokens).where(eq(apiTokens.name, 'Not allowed'))).toEqual([]);
      // A client's users are listed under it (the Clients filter), the one they belong to.
      const ofClient = (await get(`/api/api-token?client=${portalClientId}&perPage=200`)).json().data as { id: number }[];
      expect(ofClient.map((u) => u.id)).toContain(portalId);
      const rows = (await get('/api/api-token?perPage=200')).json().data as { id: number; may_hold_token: boolean }[];
      const mayHold = new Map(rows.map((r) => [r.id, r.may_hold_token]));
      expect([staffId, master?.id, twoClients.id, adminId, portalId].map((id) => mayHold.get(id ?? 0))).toEqual([
        false,
        false,
        false,
        true,
        true,
      ]);
    });

    it('refuses bad input naming the field: name, scopes, expiry, allowed IPs, user', async () => {
      const bad = await send('POST', '/api/api-token', { user_id: adminId, name: '', scopes: ['feeds:write'], expires_at: inDays(0) });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors.name).toEqual(['The Token name field is required']);
      const past = await send('POST', '/api/api-token', { user_id: adminId, name: 'A', scopes: ['feeds:write'], expires_at: inDays(0) });
      expect(past.json().errors).toEqual({ expires_at: ['The Expires must be after today'] });
      const shape = await send('POST', '/api/api-token', {
        user_id: adminId,
        name: 'A',
        scopes: ['feeds:write'],
        expires_at: '12/01/2030',
      });
      expect(shape.statusCode).toBe(422);
      const scopes = await send('POST', '/api/api-token', { user_id: adminId, name: 'A', scopes: [] });
      expect(scopes.statusCode).toBe(400);
      expect(JSON.stringify(scopes.json())).toContain('Scopes');
      const ips = await send('POST', '/api/api-token', {
        user_id: adminId,
        name: 'A',
        scopes: ['feeds:write'],
        allowed_ips: ['example.com'],
      });
      expect(ips.statusCode).toBe(400);
      expect(JSON.stringify(ips.json())).toContain('Allowed IPs');
      const nobody = await send('POST', '/api/api-token', { user_id: 999_999, name: 'A', scopes: ['feeds:write'] });
      expect(nobody.json().errors).toEqual({ user_id: ['The User does not exist'] });
    });

    it('edits, regenerates with a grace period, and revokes; the list filters by token and expiry', async () => {
      const made = (
        await send('POST', '/api/api-token', { user_id: adminId, name: 'Admin tools', scopes: ['feeds:write'], expires_at: 'never' })
      ).json().data;
      expect(made.expires_at).toBeNull();
      const edit = { name: 'Admin tooling', scopes: ['feeds:write', 'reports:read'] };
      // An edit says which version it changes: none is 422 naming Last updated, an older one 409.
      const blind = await send('PATCH', `/api/api-token/${made.id}`, edit);
      expect(blind.statusCode).toBe(422);
      expect(blind.json()).toMatchObject({ message: 'Please correct: Last updated.' });
      // The version is the user's row's, as the list (and GET /api/api-token/<user id>) shows it.
      const listed = (await get(`/api/api-token/${adminId}`)).json().data;
      expect(listed).toMatchObject({ token_id: made.id, updated_at: made.updated_at });
      const edited = await send('PATCH', `/api/api-token/${made.id}`, { ...edit, updated_at: listed.updated_at });
      expect(edited.json().data).toMatchObject({ name: 'Admin tooling', scopes: ['feeds:write', 'reports:read'] });
      const stale = await send('PATCH', `/api/api-token/${made.id}`, { name: 'Late', updated_at: made.updated_at });
      expect(stale.statusCode).toBe(409);

      const regen = await send('POST', `/api/api-token/${made.id}/regenerate`, { grace_hours: 24 });
      expect(regen.statusCode).toBe(201);
      const fresh = regen.json().data;
      expect(fresh.token).not.toBe(made.token);
      // A token made to never expire stays so.
      expect(fresh.expires_at).toBeNull();
      const [old] = await ctx.database.db.select().from(apiTokens).where(eq(apiTokens.id, made.id));
      expect(old?.revokedAt?.getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
      expect((await send('POST', `/api/api-token/${made.id}/regenerate`, { grace_hours: 73 })).statusCode).toBe(400);

      const withToken = (await get('/api/api-token?has_token=yes&perPage=200')).json().data.map((u: { id: number }) => u.id);
      expect(withToken).toContain(adminId);
      const revoked = await send('POST', `/api/api-token/${fresh.id}/revoke`);
      expect(revoked.json().data.state).toBe('revoked');
      const [oldAfter] = await ctx.database.db.select().from(apiTokens).where(eq(apiTokens.id, made.id));
      expect(oldAfter?.revokedAt?.getTime()).toBeLessThanOrEqual(Date.now());
      const without = (await get('/api/api-token?has_token=no&perPage=200')).json().data.map((u: { id: number }) => u.id);
      expect(without).toContain(adminId);
      expect((await get('/api/api-token?expired=yes')).json().data).toEqual([]);
      // After a revoke the user may be given a new token.
      expect((await send('POST', '/api/api-token', { user_id: adminId, name: 'Next', scopes: ['feeds:write'] })).statusCode).toBe(201);
    });

    it('regenerates an expired token only with a fresh expiry asked for: none asked is refused naming Expires, never a silent default', async () => {
      const db = ctx.database.db;
      const [live] = await db
        .select()
        .from(apiTokens)
        .where(and(eq(apiTokens.userId, portalId), isNull(apiTokens.revokedAt)));
      if (!live) throw new Error('no portal user token');
      await db
        .update(apiTokens)
        .set({ expiresAt: new Date(Date.now() - 86_400_000) })
        .where(eq(apiTokens.id, live.id));
      const unasked = await send('POST', `/api/api-token/${live.id}/regenerate`, { grace_hours: 0 });
      expect(unasked.statusCode, unasked.body).toBe(422);
      expect(unasked.json().message).toBe('Please correct: Expires.');
      expect(unasked.json().errors.expires_at[0]).toMatch(/^The Expires field is required: the current token expired on /);
      const regen = await send('POST', `/api/api-token/${live.id}/regenerate`, { grace_hours: 0, expires_at: inDays(90) });
      expect(regen.statusCode, regen.body).toBe(201);
      const fresh = regen.json().data;
      expect(fresh.state).toBe('active');
      expect(fresh.expires_at.slice(0, 10)).toBe(inDays(90));
      // It works where a token is checked (the ingest endpoint's check).
      const auth = await authenticateToken(db, fresh.token, check());
      expect(auth.token.id).toBe(fresh.id);
      expect(auth.clientId).toBe(portalClientId);

      const bad = await send('POST', `/api/api-token/${fresh.id}/regenerate`, { grace_hours: 0, expires_at: inDays(0) });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({ expires_at: ['The Expires must be after today'] });
      const asked = await send('POST', `/api/api-token/${fresh.id}/regenerate`, { grace_hours: 0, expires_at: inDays(30) });
      expect(asked.statusCode, asked.body).toBe(201);
      expect(asked.json().data.expires_at.slice(0, 10)).toBe(inDays(30));
    });

    it('checks the holder again on every call: a token whose user lost the right stops working, and works again when it is back', async () => {
      const db = ctx.database.db;
      const [first, second] = await db.select({ id: clients.id }).from(clients).limit(2);
      const user = await newUser('Moves around', [first?.id ?? 0]);
      const made = (await send('POST', '/api/api-token', { user_id: user.id, name: 'Mover', scopes: ['feeds:write'] })).json().data;
      expect((await authenticateToken(db, made.token, check())).clientId).toBe(first?.id);
      const stateOf = async () => (await get(`/api/api-token?perPage=5&q=${encodeURIComponent(user.email)}`)).json().data[0].state;

      // A second client: no longer "a user of one client".
      await db.insert(clientUsers).values({ clientId: second?.id ?? 0, userId: user.id });
      await expect(authenticateToken(db, made.token, check())).rejects.toMatchObject({ statusCode: 403 });
      expect(await stateOf()).toBe('suspended');
      const regen = await send('POST', `/api/api-token/${made.id}/regenerate`, { grace_hours: 0 });
      expect(regen.statusCode).toBe(409);
      expect(regen.json().message).toContain('may no longer hold it');
      // Moved to the other client: the token was issued for the first, so it stays refused.
      await db.delete(clientUsers).where(and(eq(clientUsers.userId, user.id), eq(clientUsers.clientId, first?.id ?? 0)));
      await expect(authenticateToken(db, made.token, check())).rejects.toMatchObject({ statusCode: 403 });
      // Back with the first client only: it works again.
      await db.delete(clientUsers).where(eq(clientUsers.userId, user.id));
      await db.insert(clientUsers).values({ clientId: first?.id ?? 0, userId: user.id });
      expect((await authenticateToken(db, made.token, check())).token.id).toBe(made.id);
      expect(await stateOf()).toBe('active');
      await db.update(users).set({ status: 'inactive' }).where(eq(users.id, user.id));
      await expect(authenticateToken(db, made.token, check())).rejects.toMatchObject({ statusCode: 403 });

      // A super-admin's token feeds any client, until they are no longer one.
      const boss = await newUser('Second admin', [], { isSuperadmin: 1 });
      const bossToken = (await send('POST', '/api/api-token', { user_id: boss.id, name: 'Boss', scopes: ['feeds:write'] })).json().data;
      expect((await authenticateToken(db, bossToken.token, check())).clientId).toBeNull();
      await db.update(users).set({ isSuperadmin: 0 }).where(eq(users.id, boss.id));
      await expect(authenticateToken(db, bossToken.token, check())).rejects.toMatchObject({ statusCode: 403 });
    });
  });
}
