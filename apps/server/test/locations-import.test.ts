import type { Location } from '@admin/shared';
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clients, clientUsers, locations, systemLogs, users } from '../src/db/schema/index.ts';
import { testDatabaseKinds } from './helpers.ts';
import { locationsBed, valid } from './locations-bed.ts';

/** Locations made by the form and by CSV import, then offered as options and exported. */
for (const kind of testDatabaseKinds()) {
  describe(`locations API: creating, importing and choosing (${kind})`, () => {
    const bed = locationsBed(kind);
    const { get, send, versionOf, countFor } = bed;

    it('creates, edits and changes status, audited; rules and store codes enforced', async () => {
      const created = await send('POST', '/api/endpoints', valid);
      expect(created.statusCode).toBe(201);
      const loc = created.json().data;
      expect(loc).toMatchObject({ ...valid, client_id: bed.currentClient, status: 'active', country: 'US' });
      const dup = await send('POST', '/api/endpoints', { ...valid, locationname: 'Other', external_code: 'sum-900' });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().errors).toEqual({ external_code: ['The Store code has already been taken'] });
      const bad = await send('POST', '/api/endpoints', {
        ...valid,
        external_code: 'has space',
        state: 'Colorado',
        postal_code: '8022',
        phone: 'call me',
        google_place_id: 'short',
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({
        external_code: ['The Store code field may contain alpha-numeric characters as well as dashes and underscores'],
        state: ['The State field format is invalid'],
        postal_code: ['The Postal code field format is invalid'],
        phone: ['The Phone field format is invalid'],
        google_place_id: ['The Google Place ID field must be at least 10 characters'],
      });
      const edited = await send('PATCH', `/api/endpoints/${loc._id}`, { city: 'Golden', updated_at: loc.updated_at });
      expect(edited.json().data.city).toBe('Golden');
      expect((await send('PATCH', `/api/endpoints/${loc._id}`, { city: 'Arvada', updated_at: loc.updated_at })).statusCode).toBe(409);
      const pause = async () =>
        send('PATCH', `/api/endpoints/${loc._id}/status`, { status: 'paused', updated_at: await versionOf(`/api/endpoints/${loc._id}`) });
      expect((await pause()).json().data.status).toBe('paused');
      expect((await pause()).statusCode).toBe(409);
      expect((await get('/api/endpoints/not-an-id')).statusCode).toBe(400);
      expect((await get('/api/endpoints/aaaaaaaaaaaaaaaaaaaaaaaa')).statusCode).toBe(404);
      const logs = await bed.ctx.database.db
        .select({ action: systemLogs.action })
        .from(systemLogs)
        .where(and(eq(systemLogs.entityType, 'location'), eq(systemLogs.entityId, loc._id)));
      expect(logs.map((l) => l.action).sort()).toEqual(['location.create', 'location.status.paused', 'location.update']);
    });

    it('imports a CSV all or nothing, reporting each bad line', async () => {
      const before = await countFor(bed.currentClient);
      const header = 'locationname,external_code,address1,city,state,postal_code,phone,timezone';
      const good = (i: number) => `"Imported, ${i}",IMP-${i},${i} Elm St,Denver,CO,80202,+1303555${String(1000 + i)},America/Denver`;
      const badCsv = [header, good(1), 'Broken,IMP-2,1 Elm St,Denver,colorado,80202,+13035551002,America/Denver', good(3), good(1)].join(
        '\r\n',
      );
      const rejected = await send('POST', '/api/endpoints/import', { csv: badCsv });
      expect(rejected.statusCode).toBe(422);
      expect(rejected.json().message).toBe('Nothing was imported: 2 of 4 lines have errors.');
      expect(rejected.json().errors).toEqual({
        'line 3': ['The State field format is invalid'],
        'line 5': ['The Store code is also on line 2'],
      });
      expect(await countFor(bed.currentClient)).toBe(before);

      const accepted = await send('POST', '/api/endpoints/import', { csv: [header, good(1), good(2), good(3)].join('\n') });
      expect(accepted.statusCode).toBe(201);
      expect(accepted.json().data.imported).toBe(3);
      expect(await countFor(bed.currentClient)).toBe(before + 3);
      const names = (await get('/api/endpoints?q=Imported&perPage=10')).json().data.map((l: { locationname: string }) => l.locationname);
      expect(names).toEqual(['Imported, 1', 'Imported, 2', 'Imported, 3']);

      const again = await send('POST', '/api/endpoints/import', { csv: [header, good(1)].join('\n') });
      expect(again.json().errors).toEqual({ 'line 2': ['The Store code has already been taken'] });
      const wrongHeader = await send('POST', '/api/endpoints/import', { csv: 'name,colour\nx,y' });
      expect(wrongHeader.statusCode).toBe(422);
      expect(wrongHeader.json().errors.csv[0]).toContain('Unknown columns: name, colour');
    });

    it("serves the current client's locations as options paged on the server: search, chosen values, archived only when chosen", async () => {
      const mine = await bed.ctx.database.db
        .select({ id: locations.id, name: locations.locationname, status: locations.status })
        .from(locations)
        .where(eq(locations.clientId, bed.currentClient));
      const open = mine.filter((l) => l.status !== 'inactive');
      // Ordered as the list orders by name (the database's collation), archived left out.
      const byName = (await get('/api/endpoints?status=active,paused&sort=locationname&perPage=2')).json().data as Location[];

      const first = await get('/api/endpoints/options?perPage=2');
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({
        data: byName.map((l) => ({ value: l._id, label: l.locationname })),
        more: open.length > 2,
      });
      const every = (await get('/api/endpoints/options?perPage=100')).json();
      expect(every.data).toHaveLength(Math.min(open.length, 100));

      // `q` finds names case-insensitively; the Imported rows above are of this client.
      const found = (await get('/api/endpoints/options?q=iMPORTED&perPage=2')).json();
      expect(found.data.map((o: { label: string }) => o.label)).toEqual(['Imported, 1', 'Imported, 2']);
      expect(found.more).toBe(true);

      // A chosen value is answered with its label even when it does not match, and when archived.
      const chosen = mine.find((l) => !l.name.startsWith('Imported'));
      if (!chosen) throw new Error('seed has no location to choose');
      await bed.ctx.database.db.update(locations).set({ status: 'inactive' }).where(eq(locations.id, chosen.id));
      try {
        const withChosen = (await get(`/api/endpoints/options?q=Imported&perPage=2&value=${chosen.id}`)).json();
        expect(withChosen.data).toHaveLength(3);
        expect(withChosen.data[2]).toEqual({ value: chosen.id, label: chosen.name });
        const all = (await get('/api/endpoints/options?perPage=100')).json();
        expect(all.data.some((o: { value: string }) => o.value === chosen.id)).toBe(false);
      } finally {
        await bed.ctx.database.db.update(locations).set({ status: chosen.status }).where(eq(locations.id, chosen.id));
      }
      // Another client's location is never an option, chosen or not.
      const [foreign] = await bed.ctx.database.db
        .select({ id: locations.id })
        .from(locations)
        .where(sql`${locations.clientId} <> ${bed.currentClient}`)
        .limit(1);
      expect((await get(`/api/endpoints/options?q=zzzz-nothing&value=${foreign?.id}`)).json()).toEqual({ data: [], more: false });

      expect((await get('/api/endpoints/options?perPage=0')).statusCode).toBe(400);
      expect((await get('/api/endpoints/options?perPage=101')).statusCode).toBe(400);
      expect((await get('/api/endpoints/options?other=1')).statusCode).toBe(400);

      await bed.ctx.database.db.update(users).set({ currentClientId: null }).where(eq(users.email, 'admin@example.com'));
      try {
        const none = await get('/api/endpoints/options');
        expect(none.statusCode).toBe(409);
        expect(none.json().message).toBe('Choose a client first (client switcher).');
      } finally {
        await bed.ctx.database.db.update(users).set({ currentClientId: bed.currentClient }).where(eq(users.email, 'admin@example.com'));
      }
    });

    it("serves the Manager's options paged on the server: the location's client's users, search, chosen values", async () => {
      const db = bed.ctx.database.db;
      const other = bed.currentClient === 2 ? 3 : 2;
      const made = await db
        .insert(users)
        .values([
          ...Array.from({ length: 150 }, (_, i) => {
            const n = String(i + 1).padStart(3, '0');
            return { name: `Manager option ${n}`, email: `manager-option-${n}@example.test` };
          }),
          { name: 'Manager option other', email: 'manager-option-other@example.test' },
        ])
        .returning({ id: users.id, name: users.name });
      const otherUser = made.find((u) => u.name === 'Manager option other');
      const last = made.find((u) => u.name === 'Manager option 150');
      if (!otherUser || !last) throw new Error('users not made');
      await db
        .insert(clientUsers)
        .values([
          ...made.filter((u) => u !== otherUser).map((u) => ({ clientId: bed.currentClient, userId: u.id })),
          { clientId: other, userId: otherUser.id },
        ]);
      try {
        const first = await get('/api/endpoints/options/manager?q=manager%20OPTION&perPage=100');
        expect(first.statusCode).toBe(200);
        const page = first.json() as { data: { value: string; label: string }[]; more: boolean };
        expect(page.data).toHaveLength(100);
        expect(page.data[0]?.label).toBe('Manager option 001');
        // More than a page matched: a narrower search reaches the rest.
        expect(page.more).toBe(true);
        expect((await get('/api/endpoints/options/manager?q=option%20150')).json()).toEqual({
          data: [{ value: String(last.id), label: 'Manager option 150' }],
          more: false,
        });
        // Another client's user is no option here, even chosen; this client's chosen user keeps its label.
        expect((await get('/api/endpoints/options/manager?q=option%20other')).json().data).toEqual([]);
        const chosen = await get(`/api/endpoints/options/manager?q=zzzz-nothing&value=${last.id}&value=${otherUser.id}`);
        expect(chosen.json()).toEqual({ data: [{ value: String(last.id), label: 'Manager option 150' }], more: false });

        // An existing location's options are its own client's users, which a save accepts.
        const [foreign] = await db.select({ id: locations.id }).from(locations).where(eq(locations.clientId, other)).limit(1);
        const theirs = (await get(`/api/endpoints/${foreign?.id}/options/manager?q=manager%20option`)).json();
        expect(theirs).toEqual({ data: [{ value: String(otherUser.id), label: 'Manager option other' }], more: false });
        const saved = await send('PATCH', `/api/endpoints/${foreign?.id}`, {
          manager_user_id: otherUser.id,
          updated_at: await versionOf(`/api/endpoints/${foreign?.id}`),
        });
        expect(saved.statusCode).toBe(200);
        expect(saved.json().data.manager_user_id).toBe(otherUser.id);
        await db.update(locations).set({ managerUserId: null }).where(eq(locations.managerUserId, otherUser.id));

        expect((await get('/api/endpoints/aaaaaaaaaaaaaaaaaaaaaaaa/options/manager')).statusCode).toBe(404);
        expect((await get('/api/endpoints/nope/options/manager')).statusCode).toBe(400);
        expect((await get('/api/endpoints/options/manager?perPage=101')).statusCode).toBe(400);
      } finally {
        const ids = made.map((u) => u.id);
        await db.update(locations).set({ managerUserId: null }).where(inArray(locations.managerUserId, ids));
        await db.delete(clientUsers).where(inArray(clientUsers.userId, ids));
        await db.delete(users).where(like(users.email, 'manager-option-%@example.test'));
      }
    });

    it("gives new locations, created or imported, their client's root team", async () => {
      const [client] = await bed.ctx.database.db
        .select({ root: clients.rootTeamId })
        .from(clients)
        .where(eq(clients.id, bed.currentClient));
      const teams = await bed.ctx.database.db
        .select({ team: locations.teamId })
        .from(locations)
        .where(sql`${locations.locationname} like 'Imported, %' or ${locations.locationname} = ${valid.locationname}`);
      expect(teams.length).toBe(4);
      expect(teams.every((t) => t.team === client?.root)).toBe(true);
    });

    it('exports the current filter as CSV', async () => {
      const res = await get('/api/endpoints/export?q=Imported&columns=locationname,city_state');
      expect(res.body).toBe(
        '\uFEFFLocation name,City/State\r\n"Imported, 1","Denver, CO"\r\n"Imported, 2","Denver, CO"\r\n"Imported, 3","Denver, CO"\r\n',
      );
    });
  });
}
