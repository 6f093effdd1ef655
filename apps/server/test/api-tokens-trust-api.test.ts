import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, clients, clientUsers, users } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * What API Token Generation and API Managers say is what they do (issue 19, items 7, 9 and 12):
 * a refused body names its fields by their labels, a rate limit out of range is refused rather
 * than clamped, Regenerate keeps the expiry it was given, and the Client column names the client
 * a token is bound to.
 */
for (const kind of testDatabaseKinds()) {
  describe(`API tokens and endpoints say what they do (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let adminId: number;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
      ctx.app.inject({ method, url, headers, payload });
    const rowOf = async (email: string) => (await get(`/api/api-token?perPage=5&q=${encodeURIComponent(email)}`)).json().data[0];
    /** A new user of exactly the given clients. */
    const newUser = async (label: string, clientIds: number[]) => {
      const email = `${label.toLowerCase().replace(/\W+/g, '.')}.${kind}@example.com`;
      const [user] = await ctx.database.db
        .insert(users)
        .values({ name: `${label} ${kind}`, email })
        .returning();
      if (!user) throw new Error('no user');
      for (const clientId of clientIds) await ctx.database.db.insert(clientUsers).values({ clientId, userId: user.id });
      return user;
    };

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const [admin] = await ctx.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@example.com'));
      adminId = admin?.id ?? 0;
    });
    afterAll(() => ctx.close());

    it('names a refused list item by its field label (a bad Allowed IP), with the field key the form places it by', async () => {
      const user = await newUser('Bad address', [1]);
      const res = await send('POST', '/api/api-token', { user_id: user.id, name: 'Feed', scopes: ['feeds:write'], allowed_ips: ['nope'] });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Please correct: Allowed IPs.');
      expect(Object.keys(res.json().errors)).toEqual(['allowed_ips.0']);
      expect(res.json().errors['allowed_ips.0'][0]).toMatch(/^The Allowed IPs field must hold IPv4 or IPv6 addresses/);
      // A name too long and an expiry that is no date: one 422 names both.
      const both = await send('POST', '/api/api-token', {
        user_id: user.id,
        name: 'N'.repeat(61),
        scopes: ['feeds:write'],
        expires_at: 'soon',
      });
      expect(both.statusCode).toBe(422);
      expect(both.json()).toEqual({
        message: 'Please correct: Token name, Expires.',
        statusCode: 422,
        errors: {
          name: ['The Token name field may not be greater than 60 characters'],
          expires_at: ['The Expires field must be in the format yyyy-MM-dd or be "never"'],
        },
      });
    });

    it('refuses a rate limit per minute out of 1–6000 with the "between" message, keeping the one stored', async () => {
      const [endpoint] = (await get('/api/api-endpoints?perPage=1')).json().data as { _id: string }[];
      const id = endpoint?._id ?? '';
      const surveys = (await get(`/api/api-endpoints/${id}/survey-options`)).json().data as { value: string }[];
      const survey_id = Number(surveys[0]?.value);
      const first = await send('PUT', `/api/api-endpoints/${id}`, { survey_id, rate_limit_per_min: 120 });
      expect(first.statusCode, first.body).toBe(200);
      const updated_at = first.json().data.endpoint.updated_at;
      for (const rate of [0, 99999, 6001, '0']) {
        const res = await send('PUT', `/api/api-endpoints/${id}`, { survey_id, rate_limit_per_min: rate, updated_at });
        expect(res.statusCode, String(rate)).toBe(422);
        expect(res.json().errors).toEqual({ rate_limit_per_min: ['The Rate limit per minute field must be between 1 and 6000'] });
      }
      expect((await get(`/api/api-endpoints/${id}`)).json().data.rate_limit_per_min).toBe(120);
    });

    it('regenerates with the expiry the token had (a chosen date, or never) unless another is asked for', async () => {
      const user = await newUser('Rotates', [1]);
      const chosen = inDays(200);
      const made = await send('POST', '/api/api-token', { user_id: user.id, name: 'Rotated', scopes: ['feeds:write'], expires_at: chosen });
      expect(made.statusCode, made.body).toBe(201);
      const regen = await send('POST', `/api/api-token/${made.json().data.id}/regenerate`, { grace_hours: 0 });
      expect(regen.statusCode, regen.body).toBe(201);
      expect(regen.json().data.expires_at.slice(0, 10)).toBe(chosen);
      // A blank expiry (the dialog's box left empty) is none asked for, as left out.
      const blank = await send('POST', `/api/api-token/${regen.json().data.id}/regenerate`, { grace_hours: 0, expires_at: '' });
      expect(blank.statusCode, blank.body).toBe(201);
      expect(blank.json().data.expires_at.slice(0, 10)).toBe(chosen);
      const asked = await send('POST', `/api/api-token/${blank.json().data.id}/regenerate`, { grace_hours: 0, expires_at: 'never' });
      expect(asked.json().data.expires_at).toBeNull();
      const again = await send('POST', `/api/api-token/${asked.json().data.id}/regenerate`, { grace_hours: 0 });
      expect(again.json().data.expires_at).toBeNull();
      // An empty grace period is asked for, never taken as 0 (revoked at once).
      const noGrace = await send('POST', `/api/api-token/${again.json().data.id}/regenerate`, { grace_hours: null });
      expect(noGrace.statusCode).toBe(400);
      expect(noGrace.json()).toMatchObject({
        message: 'Please correct: Grace period (hours).',
        errors: { grace_hours: ['The Grace period (hours) field is required'] },
      });
    });

    it("shows the client a token is bound to: a client user's own client, whatever their current one; a super-admin's token feeds all clients", async () => {
      const [first, second] = await ctx.database.db
        .select({ id: clients.id, name: clients.name })
        .from(clients)
        .orderBy(clients.id)
        .limit(2);
      if (!first || !second) throw new Error('the demo data has fewer than two clients');
      const user = await newUser('Bound', [first.id]);
      // Their current client (the switcher's last choice) is another: the token is still the first's.
      await ctx.database.db.update(users).set({ currentClientId: second.id }).where(eq(users.id, user.id));
      expect(await rowOf(user.email)).toMatchObject({ client_name: first.name, all_clients: false });
      const made = await send('POST', '/api/api-token', { user_id: user.id, name: 'Bound feed', scopes: ['feeds:write'] });
      expect(made.statusCode, made.body).toBe(201);
      expect(await rowOf(user.email)).toMatchObject({ client_id: first.id, client_name: first.name, all_clients: false });
      // Moved to the second client: the token stays bound to the first (and is suspended), and says so.
      await ctx.database.db.update(clientUsers).set({ clientId: second.id }).where(eq(clientUsers.userId, user.id));
      expect(await rowOf(user.email)).toMatchObject({ client_name: first.name, state: 'suspended' });

      const admin = await send('POST', '/api/api-token', { user_id: adminId, name: 'Admin feed', scopes: ['feeds:write'] });
      expect(admin.statusCode, admin.body).toBe(201);
      const [stored] = await ctx.database.db.select().from(apiTokens).where(eq(apiTokens.id, admin.json().data.id));
      expect(stored?.clientId).toBeNull();
      expect(await rowOf('admin@example.com')).toMatchObject({ all_clients: true });
      const csv = (await get('/api/api-token/export?q=admin%40example.com')).body;
      expect(csv).toContain('All clients');
    });
  });
}
