import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

for (const kind of testDatabaseKinds()) {
  describe(`personnel API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let locationIds: string[];
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH', url: string, payload: unknown) =>
      ctx.app.inject({ method, url, headers, payload: payload as Record<string, unknown> });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      locationIds = (await get('/api/endpoints')).json().data.map((l: { _id: string }) => l._id);
    });
    afterAll(() => ctx.close());

    it("lists the current client's personnel with their locations; filters by location", async () => {
      const body = (await get('/api/personnel')).json();
      expect(body.total).toBeGreaterThanOrEqual(15);
      expect(body.data[0]).toMatchObject({ location_ids: expect.any(Array), location_names: expect.any(Array), name: expect.any(String) });
      const at = (await get(`/api/personnel?location=${locationIds[0]}&perPage=200`)).json();
      expect(at.total).toBeGreaterThan(0);
      expect(at.data.every((p: { location_ids: string[] }) => p.location_ids.includes(locationIds[0] ?? ''))).toBe(true);
    });

    it('creates with locations and rules, edits, archives and restores', async () => {
      const bad = await send('POST', '/api/personnel', {
        first_name: '',
        last_name: 'Ng',
        location_ids: [],
        email: 'x',
        aliases: ['a'.repeat(121)],
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({
        first_name: ['The First name field is required'],
        location_ids: ['The Locations field is required'],
        aliases: ['The Aliases field may not be greater than 120 characters'],
        email: ['The Email field must be a valid email'],
      });
      const foreign = await send('POST', '/api/personnel', { first_name: 'A', last_name: 'B', location_ids: ['f'.repeat(24)] });
      expect(foreign.statusCode).toBe(422);
      expect(foreign.json().errors).toEqual({ location_ids: ['Choose locations of the current client'] });

      const created = await send('POST', '/api/personnel', {
        first_name: 'Rosa',
        last_name: 'Diaz',
        title: 'Technician',
        employee_code: 'T-77',
        aliases: ['Rosie D'],
        location_ids: locationIds.slice(0, 2),
      });
      expect(created.statusCode).toBe(201);
      const rosa = created.json().data;
      expect(rosa).toMatchObject({
        name: 'Rosa Diaz',
        aliases: ['Rosie D'],
        location_ids: expect.arrayContaining(locationIds.slice(0, 2)),
      });
      // The list's plain-SQL row is the record the write answered, locations and their order included.
      expect((await get('/api/personnel?q=rosie')).json().data).toEqual([rosa]);
      expect(
        (await send('POST', '/api/personnel', { first_name: 'X', last_name: 'Y', employee_code: 't-77', location_ids: [locationIds[0]] }))
          .statusCode,
      ).toBe(409);
      const moved = await send('PATCH', `/api/personnel/${rosa.id}`, { location_ids: [locationIds[2]], updated_at: rosa.updated_at });
      expect(moved.json().data.location_ids).toEqual([locationIds[2]]);
      expect((await send('PATCH', `/api/personnel/${rosa.id}`, { title: 'Lead', updated_at: rosa.updated_at })).statusCode).toBe(409);
      const to = async (status: string) =>
        send('PATCH', `/api/personnel/${rosa.id}/status`, {
          status,
          updated_at: (await get(`/api/personnel/${rosa.id}`)).json().data.updated_at,
        });
      expect((await to('inactive')).json().data.status).toBe('inactive');
      expect((await to('active')).json().data.status).toBe('active');
      expect((await get('/api/personnel?q=rosie')).json().data.map((p: { id: number }) => p.id)).toEqual([rosa.id]);
    });

    it('exports personnel with their locations', async () => {
      const csv = (await get('/api/personnel/export?q=rosa%20diaz&columns=name,location_names,employee_code')).body;
      expect(csv.split('\r\n')[0]).toBe('\uFEFFName,Locations,Employee code');
      expect(csv).toContain('Rosa Diaz,');
      expect(csv).toContain(',T-77');
    });

    it('imports a CSV all or nothing: locations by id, code or name, aliases split by ";", each bad line reported', async () => {
      const locs = (await get('/api/endpoints?perPage=200')).json().data as { _id: string; locationname: string }[];
      const [a, b] = locs;
      const count = async () => (await get('/api/personnel?status=active,paused,inactive')).json().total as number;
      const before = await count();
      const existingCode = (await get('/api/personnel?perPage=1')).json().data[0].employee_code as string;
      const bad = [
        'first_name,last_name,employee_code,email,locations,aliases',
        `Ana,Lopez,IMP-1,ana@example.com,"${a?.locationname}",Annie L`,
        `,Lopez,IMP-2,not-an-email,Nowhere Street,`,
        `Ben,Ortiz,${existingCode},,${b?._id},`,
        `Cara,Ng,IMP-1,,${b?._id},`,
      ].join('\n');
      const refused = await send('POST', '/api/personnel/import', { csv: bad });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe('Nothing was imported: 3 of 4 lines have errors.');
      expect(refused.json().errors).toEqual({
        'line 3': ['The First name field is required', 'The Email field must be a valid email', 'Unknown locations: Nowhere Street'],
        'line 4': ['The Employee code has already been taken'],
        'line 5': ['The Employee code is also on line 2'],
      });
      expect(await count()).toBe(before);

      const unknownColumn = await send('POST', '/api/personnel/import', { csv: 'first_name,salary\nAna,1' });
      expect(unknownColumn.statusCode).toBe(422);
      expect(unknownColumn.json().errors.csv[0]).toMatch(/^Unknown columns: salary/);

      const good = [
        'first_name,last_name,employee_code,locations,aliases',
        `Ana,Lopez,IMP-1,"${a?.locationname}; ${b?._id}",Annie L;A. Lopez`,
        `Cara,Ng,IMP-3,${b?._id},`,
      ].join('\r\n');
      const done = await send('POST', '/api/personnel/import', { csv: good });
      expect(done.statusCode, done.body).toBe(201);
      expect(done.json().data.imported).toBe(2);
      expect(await count()).toBe(before + 2);
      const ana = (await get('/api/personnel?q=IMP-1')).json().data[0];
      expect(ana).toMatchObject({ name: 'Ana Lopez', aliases: ['Annie L', 'A. Lopez'] });
      expect([...ana.location_ids].sort()).toEqual([a?._id, b?._id].sort());
    });

    it('filters by role from the titles the client uses, paged on the server', async () => {
      const options = (await get('/api/personnel/options/title')).json();
      const titles = options.data.map((o: { value: string }) => o.value) as string[];
      expect(titles.length).toBeGreaterThan(1);
      expect(titles).toEqual([...titles].sort());
      const [first] = titles;
      const found = (await get(`/api/personnel/options/title?q=${encodeURIComponent(first ?? '')}&perPage=1`)).json();
      expect(found.data[0]).toEqual({ value: first, label: first });
      const [title] = titles;
      const list = (await get(`/api/personnel?title=${encodeURIComponent(title ?? '')}&perPage=200`)).json();
      expect(list.total).toBeGreaterThan(0);
      expect(list.data.every((p: { title: string }) => p.title === title)).toBe(true);
    });
  });
}
