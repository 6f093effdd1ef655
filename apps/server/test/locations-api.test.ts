import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clients, locations } from '../src/db/schema/index.ts';
import { testDatabaseKinds } from './helpers.ts';
import { locationsBed } from './locations-bed.ts';

for (const kind of testDatabaseKinds()) {
  describe(`locations API, the spec's endpoints (${kind})`, () => {
    const bed = locationsBed(kind);
    const { get, send, countFor } = bed;

    it("lists the current client's locations with _id and locationname", async () => {
      const res = await get('/api/endpoints');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.total).toBe(await countFor(bed.currentClient));
      expect(body.total).toBeGreaterThanOrEqual(3);
      for (const l of body.data) {
        expect(l._id).toMatch(/^[a-f0-9]{24}$/);
        expect(l).toMatchObject({ client_id: bed.currentClient, locationname: expect.any(String) });
      }
    });

    it('counts the personnel linked to each location (archived people left out), in the list and on one location', async () => {
      const rows = (await get('/api/endpoints?perPage=200')).json().data as { _id: string; personnel_count: number }[];
      const linked = rows.find((r) => r.personnel_count > 0);
      expect(linked).toBeDefined();
      const people = (await get(`/api/personnel?location=${linked?._id}&status=active,paused&perPage=200`)).json().total;
      expect(linked?.personnel_count).toBe(people);
      expect((await get(`/api/endpoints/${linked?._id}`)).json().data.personnel_count).toBe(people);
      const states = (await get('/api/endpoints?state=ZZ')).json();
      expect(states.total).toBe(0);
    });

    it('follows the current client after a switch', async () => {
      const other = bed.currentClient === 2 ? 3 : 2;
      await send('PUT', `/api/users/switch-client/${other}`);
      const body = (await get('/api/endpoints')).json();
      expect(body.data.every((l: { client_id: number }) => l.client_id === other)).toBe(true);
      await send('PUT', `/api/users/switch-client/${bed.currentClient}`);
      expect((await get(`/api/endpoints?client=${other}`)).json().data[0].client_id).toBe(other);
    });

    it("client=all lists every client (the Clients filter's Selected All); no client still means the current one", async () => {
      const everyone = (await bed.ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(locations))[0]?.n ?? 0;
      const all = await get('/api/endpoints?client=all&status=active,paused,inactive&perPage=200');
      expect(all.statusCode).toBe(200);
      const body = all.json();
      expect(body.total).toBe(everyone);
      expect(new Set(body.data.map((l: { client_id: number }) => l.client_id)).size).toBeGreaterThan(2);
      expect(everyone).toBeGreaterThan(await countFor(bed.currentClient));

      const current = (await get('/api/endpoints?status=active,paused,inactive')).json();
      expect(current.total).toBe(await countFor(bed.currentClient));
      // "selected all" still means an omitted parameter (docs/overview.md, Shared vocabulary): the current client.
      expect((await get('/api/endpoints?client=selected%20all&status=active,paused,inactive')).json().total).toBe(current.total);

      // Paging through every client keeps its cursor; the export takes the same value.
      const first = (await get('/api/endpoints?client=all&perPage=5')).json();
      const second = (await get(`/api/endpoints?client=all&perPage=5&cursor=${encodeURIComponent(first.nextCursor)}`)).json();
      expect(second.data[0]._id).not.toBe(first.data[0]._id);
      const csv = await get('/api/endpoints/export?client=all&status=active,paused,inactive&columns=_id');
      expect(csv.statusCode).toBe(200);
      expect(csv.body.trim().split('\r\n')).toHaveLength(everyone + 1);

      // `all` is a whole value, never one of several.
      expect((await get('/api/endpoints?client=all,2')).statusCode).toBe(400);
      expect((await get('/api/endpoints?client=all&client=2')).statusCode).toBe(400);
      expect((await get('/api/endpoints?client=ALL')).statusCode).toBe(400);
    });

    it('serves the Clients filter and the State filter options paged on the server', async () => {
      const every = await bed.ctx.database.db
        .select({ id: clients.id, name: clients.name, status: clients.status })
        .from(clients)
        .orderBy(sql`lower(${clients.name})`, clients.id);
      const open = every.filter((c) => c.status !== 'inactive');
      const first = (await get('/api/endpoints/client-options?perPage=2')).json();
      expect(first).toEqual({ data: open.slice(0, 2).map((c) => ({ value: String(c.id), label: c.name })), more: open.length > 2 });
      const target = open[open.length - 1];
      if (!target) throw new Error('no clients');
      const found = (await get(`/api/endpoints/client-options?q=${encodeURIComponent(target.name.toUpperCase())}`)).json();
      expect(found.data).toContainEqual({ value: String(target.id), label: target.name });
      const chosen = (await get(`/api/endpoints/client-options?q=zzzz-nothing&value=${target.id}`)).json();
      expect(chosen).toEqual({ data: [{ value: String(target.id), label: target.name }], more: false });
      expect((await get('/api/endpoints/client-options?perPage=500')).statusCode).toBe(400);
      // A chosen value is a client id, as the filter's: anything else is refused, not silently dropped.
      expect((await get(`/api/endpoints/client-options?value=${target.id}&value=x`)).json().errors).toHaveProperty(['value.1']);

      const states = (await get('/api/endpoints/options/state?q=c')).json();
      expect(states.data).toContainEqual({ value: 'CO', label: 'CO' });
    });

    it('keeps opening hours, review links and a manager from the client, each checked by the form rules', async () => {
      const base = {
        locationname: 'Hours Test',
        address1: '1 Main St',
        city: 'Austin',
        state: 'TX',
        postal_code: '73301',
        phone: '+15125550100',
        timezone: 'America/Chicago',
      };
      const bad = await send('POST', '/api/endpoints', {
        ...base,
        hours: { mon: { open: '8am', close: '17:00' }, tue: { open: '18:00', close: '09:00' } },
        review_links: { google: 'not a url' },
        manager_user_id: 'x',
      });
      expect(bad.statusCode).toBe(400);
      const invalid = await send('POST', '/api/endpoints', {
        ...base,
        hours: { mon: { open: '8am', close: '17:00' }, tue: { open: '18:00', close: '09:00' } },
        review_links: { google: 'not a url' },
      });
      expect(invalid.statusCode).toBe(422);
      expect(invalid.json().errors).toEqual({
        'hours.mon.open': ['The Monday opening time must be in the format HH:mm'],
        'hours.tue.close': ['The Tuesday closing time must be after the opening time'],
        'review_links.google': ['The Google review link field is not a valid URL'],
      });
      const stranger = await send('POST', '/api/endpoints', { ...base, manager_user_id: 1 });
      expect(stranger.statusCode).toBe(422);
      expect(stranger.json().errors).toEqual({ manager_user_id: ['Choose a user of this client'] });

      const users = (await get('/api/clients-user-list')).json().data as { id: number }[];
      const created = await send('POST', '/api/endpoints', {
        ...base,
        manager_user_id: users[0]?.id,
        hours: { mon: { open: '08:00', close: '17:00' }, sun: null },
        review_links: { google: 'https://g.page/hours-test', yelp: 'https://www.yelp.com/biz/hours-test' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const loc = created.json().data;
      expect(loc).toMatchObject({
        manager_user_id: users[0]?.id,
        hours: { mon: { open: '08:00', close: '17:00' }, sun: null },
        review_links: { google: 'https://g.page/hours-test', yelp: 'https://www.yelp.com/biz/hours-test' },
      });
      const patched = await send('PATCH', `/api/endpoints/${loc._id}`, {
        review_links: { yelp: null, facebook: 'https://facebook.com/hours-test' },
        updated_at: loc.updated_at,
      });
      expect(patched.json().data.review_links).toEqual({
        google: 'https://g.page/hours-test',
        facebook: 'https://facebook.com/hours-test',
      });
    });
  });
}
