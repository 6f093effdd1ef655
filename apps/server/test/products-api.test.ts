import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

for (const kind of testDatabaseKinds()) {
  describe(`products API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) =>
      ctx.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(() => ctx.close());

    it("lists the current client's products and follows a switch", async () => {
      const first = (await get('/api/product')).json();
      expect(first.total).toBeGreaterThan(0);
      const clientId = first.data[0].client_id;
      expect(first.data.every((p: { client_id: number }) => p.client_id === clientId)).toBe(true);
      await send('PUT', '/api/users/switch-client/2');
      const other = (await get('/api/product')).json();
      expect(other.data.every((p: { client_id: number }) => p.client_id === 2)).toBe(true);
      expect(other.data.map((p: { name: string }) => p.name)).toContain('Oil change');
    });

    it('creates with the form rules, unique codes per client, edits and archives', async () => {
      const bad = await send('POST', '/api/product', { name: '', code: 'has space', description: 'x'.repeat(501) });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({
        name: ['The Name field is required'],
        code: ['The Code field may contain alpha-numeric characters as well as dashes and underscores'],
        description: ['The Description field may not be greater than 500 characters'],
      });
      const created = await send('POST', '/api/product', { name: 'Tire rotation', code: 'TIRE-ROT', category: 'Service' });
      expect(created.statusCode).toBe(201);
      const product = created.json().data;
      expect((await send('POST', '/api/product', { name: 'Again', code: 'tire-rot' })).statusCode).toBe(409);
      const edited = await send('PATCH', `/api/product/${product.id}`, { description: 'Four tires', updated_at: product.updated_at });
      expect(edited.json().data.description).toBe('Four tires');
      const version = async () => (await get(`/api/product/${product.id}`)).json().data.updated_at;
      expect((await send('PATCH', `/api/product/${product.id}`, { code: 'OIL', updated_at: await version() })).statusCode).toBe(409);
      expect(
        (await send('PATCH', `/api/product/${product.id}/status`, { status: 'inactive', updated_at: await version() })).json().data.status,
      ).toBe('inactive');
      expect((await send('PATCH', `/api/product/${product.id}/status`, { status: 'paused', updated_at: await version() })).statusCode).toBe(
        409,
      );
      expect((await get('/api/product?status=inactive')).json().data.map((p: { code: string }) => p.code)).toEqual(['TIRE-ROT']);
      const csv = (await get('/api/product/export?columns=code,name&status=inactive')).body;
      expect(csv).toBe('\uFEFFCode,Name\r\nTIRE-ROT,Tire rotation\r\n');
    });

    it("offers the categories the client's products use as filter options, searched on the server", async () => {
      await send('POST', '/api/product', { name: 'Alignment', code: 'ALIGN-OPT', category: 'Wheel work' });
      const all = (await get('/api/product/options/category')).json();
      expect(all.data).toContainEqual({ value: 'Wheel work', label: 'Wheel work' });
      expect(all.data.map((o: { value: string }) => o.value)).toEqual([...all.data.map((o: { value: string }) => o.value)].sort());
      const found = (await get('/api/product/options/category?q=wheel')).json();
      expect(found).toEqual({ data: [{ value: 'Wheel work', label: 'Wheel work' }], more: false });
      // A chosen value is answered with its label even when the search does not match it.
      const chosen = (await get('/api/product/options/category?q=wheel&value=Elsewhere&perPage=1')).json();
      expect(chosen.data.map((o: { value: string }) => o.value)).toEqual(['Wheel work', 'Elsewhere']);
      expect((await get('/api/product?category=Wheel%20work')).json().data.map((p: { code: string }) => p.code)).toEqual(['ALIGN-OPT']);
      expect((await get('/api/product/options/category?perPage=0')).statusCode).toBe(400);
    });

    it('imports a CSV all or nothing, with codes unique in the file and in the client', async () => {
      const count = async () => (await get('/api/product?status=active,paused,inactive')).json().total as number;
      const before = await count();
      const existing = (await get('/api/product?perPage=1')).json().data[0].code as string;
      const bad = ['name,code,category', 'Gutter cleaning,GUT-1,Exterior', ',GUT-2,', `Roof check,${existing},`, 'Roof wash,gut-1,'].join(
        '\n',
      );
      const refused = await ctx.app.inject({ method: 'POST', url: '/api/product/import', headers, payload: { csv: bad } });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual({
        'line 3': ['The Name field is required'],
        'line 4': ['The Code has already been taken'],
        'line 5': ['The Code is also on line 2'],
      });
      expect(await count()).toBe(before);
      const good = ['name,code,category', 'Gutter cleaning,GUT-1,Exterior', 'Roof wash,GUT-2,'].join('\n');
      const done = await ctx.app.inject({ method: 'POST', url: '/api/product/import', headers, payload: { csv: good } });
      expect(done.statusCode, done.body).toBe(201);
      expect(await count()).toBe(before + 2);
      expect((await get('/api/product?q=GUT-1')).json().data[0]).toMatchObject({ name: 'Gutter cleaning', category: 'Exterior' });
    });
  });
}
