import { parseCsv } from '@admin/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

type Group = { key: string; personnel_ids: number[]; reasons: string[]; people: { id: number; name: string }[] };
type Person = { id: number; name: string; status: string; merged_into_id: number | null; employee_code: string | null };

for (const kind of testDatabaseKinds()) {
  describe(`merge personnel API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let locationIds: string[];
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const post = (url: string, payload: unknown) =>
      ctx.app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
    const groups = async (q = '') => (await get(`/api/get-merge-personnel?perPage=200${q}`)).json().data as Group[];
    const person = async (id: number) =>
      ((await get(`/api/personnel?perPage=200&status=active,paused,inactive`)).json().data as Person[]).find((p) => p.id === id);
    let seq = 0;
    async function createPerson(fields: Record<string, unknown>): Promise<Person & { location_ids: string[]; aliases: string[] }> {
      seq += 1;
      const res = await post('/api/personnel', {
        first_name: 'Test',
        last_name: `Person${seq}`,
        location_ids: [locationIds[0]],
        ...fields,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data;
    }

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      locationIds = (await get('/api/endpoints')).json().data.map((l: { _id: string }) => l._id);
    });
    afterAll(() => ctx.close());

    it("suggests the demo client's feed duplicates with the reason they match", async () => {
      const found = await groups();
      const byEmail = found.find((g) => g.reasons.includes('email'));
      expect(byEmail?.people).toHaveLength(2);
      // The re-hire: same name, the phone written another way.
      const byName = found.find((g) => g.reasons.includes('name') && g.reasons.includes('phone'));
      expect(byName?.people).toHaveLength(2);
      expect(byName?.people[0]?.name).toBe(byName?.people[1]?.name);
    });

    it('pages the groups by cursor (every group once, in order) and finds the groups of one person', async () => {
      const all = (await get('/api/get-merge-personnel?perPage=200')).json();
      expect(all.nextCursor).toBeNull();
      const keys: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { data: Group[]; total: number; nextCursor: string | null } = (
          await get(`/api/get-merge-personnel?perPage=1${cursor ? `&cursor=${cursor}` : ''}`)
        ).json();
        expect(page.total).toBe(all.total);
        keys.push(...page.data.map((g) => g.key));
        cursor = page.nextCursor;
      } while (cursor);
      expect(keys).toEqual(all.data.map((g: Group) => g.key));
      expect((await get('/api/get-merge-personnel?cursor=nonsense')).statusCode).toBe(400);

      const [first] = all.data as Group[];
      const someone = first?.personnel_ids[0] ?? 0;
      const of = (await get(`/api/get-merge-personnel?person=${someone}`)).json().data as Group[];
      expect(of.map((g) => g.key)).toEqual([first?.key]);
    });

    it('refuses selections that break the rules, naming the field', async () => {
      const a = await createPerson({});
      const none = await post('/api/get-merge-personnel/preview', { survivor_id: a.id, duplicate_ids: [] });
      expect(none.statusCode).toBe(422);
      expect(none.json().errors).toEqual({ duplicate_ids: ['Choose at least one duplicate'] });
      const self = await post('/api/get-merge-personnel/preview', { survivor_id: a.id, duplicate_ids: [a.id] });
      expect(self.json().errors).toEqual({ duplicate_ids: ['The survivor cannot also be a duplicate'] });
      const missing = await post('/api/get-merge-personnel/preview', { survivor_id: a.id, duplicate_ids: [999_999] });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().errors).toEqual({ duplicate_ids: ['All people must belong to the current client'] });
      const unknownField = await post('/api/get-merge-personnel/preview', { survivor_id: a.id, duplicate_ids: [1], extra: 1 });
      expect(unknownField.statusCode).toBe(400);
      const badType = await post('/api/get-merge-personnel', { survivor_id: 'x', duplicate_ids: 'y', confirm_name: 3 });
      expect(badType.statusCode).toBe(400);
    });

    it('previews, refuses a wrong confirmation without changing anything, then merges in one go', async () => {
      const survivor = await createPerson({
        first_name: 'Maria',
        last_name: 'Gonzalez',
        employee_code: 'MG-1',
        email: 'maria@example.com',
        location_ids: [locationIds[0]],
        aliases: ['Mari G'],
      });
      const dup = await createPerson({
        first_name: 'Mary',
        last_name: 'Gonzales',
        employee_code: 'MG-2',
        phone: '+15550102000',
        title: 'Technician',
        location_ids: [locationIds[1], locationIds[0]],
      });
      const selection = { survivor_id: survivor.id, duplicate_ids: [dup.id] };
      const preview = (await post('/api/get-merge-personnel/preview', selection)).json().data;
      expect(preview).toMatchObject({
        filled: [
          { field: 'title', value: 'Technician', from_id: dup.id },
          { field: 'phone', value: '+15550102000', from_id: dup.id },
        ],
        conflicts: [{ field: 'employee_code', survivor_value: 'MG-1', others: [{ id: dup.id, value: 'MG-2' }] }],
        aliases_added: ['Mary Gonzales', 'MG-2'],
        aliases_total: 3,
        moved_counts: { location_links: 1 },
      });

      const wrong = await post('/api/get-merge-personnel', { ...selection, confirm_name: 'Mary Gonzales' });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors).toEqual({ confirm_name: ["Type the survivor's name exactly as shown: Maria Gonzalez"] });
      expect((await person(dup.id))?.status).toBe('active');

      const done = await post('/api/get-merge-personnel', { ...selection, confirm_name: ' Maria Gonzalez ' });
      expect(done.statusCode, done.body).toBe(201);
      const after = (await get(`/api/personnel?q=Gonzalez&perPage=200&status=active`)).json().data as (Person & {
        aliases: string[];
        location_ids: string[];
        phone: string;
        title: string;
      })[];
      const merged = after.find((p) => p.id === survivor.id);
      expect(merged).toMatchObject({
        employee_code: 'MG-1',
        phone: '+15550102000',
        title: 'Technician',
        aliases: ['Mari G', 'Mary Gonzales', 'MG-2'],
      });
      expect([...(merged?.location_ids ?? [])].sort()).toEqual([locationIds[0], locationIds[1]].sort());
      expect(await person(dup.id)).toMatchObject({ status: 'inactive', merged_into_id: survivor.id, employee_code: null });

      // The duplicate's code is free again, and merging the same people twice is a conflict.
      const again = await post('/api/get-merge-personnel', { ...selection, confirm_name: 'Maria Gonzalez' });
      expect(again.statusCode).toBe(409);

      const history = (await get('/api/get-merge-personnel/history')).json();
      expect(history.total).toBe(1);
      expect(history.data[0]).toMatchObject({
        survivor_name: 'Maria Gonzalez',
        merged_names: ['Mary Gonzales'],
        performed_by: expect.any(String),
        moved_counts: { location_links: 1 },
      });
      const csv = parseCsv((await get('/api/get-merge-personnel/history/export')).body);
      expect(csv[0]).toEqual(['Date', 'By', 'Survivor', 'Merged names', 'Moved']);
      expect(csv[1]?.slice(2)).toEqual(['Maria Gonzalez', 'Mary Gonzales', 'Location links: 1']);
      // A list is one text in the table and the CSV: the column's format joins it with ", ".
      const chosen = parseCsv((await get('/api/get-merge-personnel/history/export?columns=survivor_name,aliases_added')).body);
      expect(chosen).toEqual([
        ['Survivor', 'Aliases added'],
        ['Maria Gonzalez', 'Mary Gonzales, MG-2'],
      ]);
      const exports = (await get('/api/system-logs?q=Exported%20the%20merge%20history&level=info')).json();
      expect(exports.data[0]).toMatchObject({ action: 'personnel_merge.export' });

      const logs = (await get('/api/system-logs?q=Merged%20Mary&level=info')).json();
      expect(logs.data[0]?.action).toBe('personnel.merge');
    });

    it("moves the duplicate's survey responses and their invitations to the survivor", async () => {
      const survivor = await createPerson({ first_name: 'Rosa', last_name: 'Keeper' });
      const dup = await createPerson({ first_name: 'Rosie', last_name: 'Keeper' });
      const clientId = ((await get('/api/personnel?perPage=1')).json().data as { client_id: number }[])[0]?.client_id;
      const [response] = (await get(`/api/survey-responses?perPage=1&client=${clientId}`)).json().data as { id: number }[];
      expect(response).toBeDefined();
      const reassign = await post(`/api/survey-responses/${response?.id}/personnel`, { personnel_id: dup.id });
      expect(reassign.statusCode, reassign.body).toBe(200);

      const selection = { survivor_id: survivor.id, duplicate_ids: [dup.id] };
      const preview = (await post('/api/get-merge-personnel/preview', selection)).json().data;
      expect(preview.moved_counts).toMatchObject({ survey_responses: 1, survey_processing_items: 1 });
      const done = await post('/api/get-merge-personnel', { ...selection, confirm_name: 'Rosa Keeper' });
      expect(done.statusCode, done.body).toBe(201);
      const after = (await get(`/api/survey-responses/${response?.id}`)).json().data;
      expect(after).toMatchObject({ personnel_id: survivor.id, personnel_name: 'Rosa Keeper' });
      const history = (await get('/api/get-merge-personnel/history/export')).body;
      expect(history).toContain('Survey responses: 1, Survey invitations: 1');
    });

    it('when two merges race over the same people, one wins and the other gets 409 with nothing half-done', async () => {
      const c = await createPerson({ first_name: 'Chris', last_name: 'Race', location_ids: [locationIds[0]] });
      const d = await createPerson({ first_name: 'Kris', last_name: 'Race', location_ids: [locationIds[1]] });
      const merges = (await get('/api/get-merge-personnel/history')).json().total as number;
      const [one, two] = await Promise.all([
        post('/api/get-merge-personnel', { survivor_id: c.id, duplicate_ids: [d.id], confirm_name: 'Chris Race' }),
        post('/api/get-merge-personnel', { survivor_id: d.id, duplicate_ids: [c.id], confirm_name: 'Kris Race' }),
      ]);
      expect([one.statusCode, two.statusCode].sort()).toEqual([201, 409]);
      const [pc, pd] = [await person(c.id), await person(d.id)];
      const loser = one.statusCode === 201 ? pd : pc;
      const winner = one.statusCode === 201 ? pc : pd;
      expect(winner).toMatchObject({ status: 'active', merged_into_id: null });
      expect(loser).toMatchObject({ status: 'inactive', merged_into_id: winner?.id });
      expect((await get('/api/get-merge-personnel/history')).json().total).toBe(merges + 1);
    });

    it('the personnel list flags possible duplicates; a merged person reads back but cannot be restored', async () => {
      const flagged = (await get('/api/personnel?duplicates=yes&perPage=200&status=active,paused,inactive')).json().data as Person[];
      const suggested = new Set((await groups()).flatMap((g) => g.personnel_ids));
      expect(flagged.length).toBeGreaterThan(0);
      for (const id of suggested) expect(flagged.some((p) => p.id === id)).toBe(true);
      expect(flagged.every((p) => p.merged_into_id === null)).toBe(true);
      expect((await get('/api/personnel?duplicates=maybe')).statusCode).toBe(400);

      const history = (await get('/api/get-merge-personnel/history')).json().data as { merged_ids: number[] }[];
      const mergedId = history[0]?.merged_ids[0] ?? 0;
      const merged = (await get(`/api/personnel/${mergedId}`)).json().data;
      expect(merged).toMatchObject({ id: mergedId, status: 'inactive', merged_into_id: expect.any(Number) });
      const restore = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/personnel/${mergedId}/status`,
        headers,
        payload: { status: 'active', updated_at: merged.updated_at },
      });
      expect(restore.statusCode).toBe(409);
      expect((await get('/api/personnel/999999')).statusCode).toBe(404);
    });

    it('dismissing a suggestion hides it; merged people are never suggested', async () => {
      const before = await groups();
      const target = before[0];
      expect(target).toBeDefined();
      const foreign = await post('/api/get-merge-personnel/dismissals', { personnel_ids: [1, 999_999] });
      expect(foreign.statusCode).toBe(422);
      const res = await post('/api/get-merge-personnel/dismissals', { personnel_ids: target?.personnel_ids });
      expect(res.statusCode).toBe(201);
      const after = await groups();
      expect(after.find((g) => g.key === target?.key)).toBeUndefined();
      // Nor are they flagged as possible duplicates on the Personnel screen any more.
      const flagged = (await get('/api/personnel?duplicates=yes&perPage=200')).json().data as Person[];
      expect(flagged.some((p) => target?.personnel_ids.includes(p.id))).toBe(false);
      expect(after).toHaveLength(before.length - 1);
      // Gonzalez/Gonzales and the racers share a normalised name only with people now merged.
      expect(after.some((g) => g.people.some((p) => p.name.includes('Race') || p.name.includes('Gonzal')))).toBe(false);
    });
  });
}
