import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personnel } from '../src/db/schema/index.ts';
import { phoneDigits } from '../src/modules/personnel-merge/merge.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

type Preview = {
  filled: { field: string; value: string; from_id: number }[];
  conflicts: { field: string; survivor_value: string; others: { id: number; value: string }[] }[];
};

describe('phoneDigits', () => {
  it('keeps the digits and drops a leading US country code', () => {
    expect(phoneDigits('+18085558288')).toBe('8085558288');
    expect(phoneDigits('(808) 555-8288')).toBe('8085558288');
    expect(phoneDigits('1-808-555-8288')).toBe('8085558288');
    expect(phoneDigits('808.555.8288')).toBe('8085558288');
    // Not a US number with its country code: left as it is.
    expect(phoneDigits('+44 20 7946 0958')).toBe('442079460958');
    expect(phoneDigits('18085558')).toBe('18085558');
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`merge preview: phone numbers written differently (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    let seq = 0;

    /** People as a data feed writes them, phone formatting and all (the API accepts only `+digits`). */
    async function person(phone: string | null): Promise<number> {
      seq += 1;
      const [row] = await ctx.database.db
        .insert(personnel)
        .values({ clientId, firstName: 'Kai', lastName: `Phone${seq}`, phone })
        .returning({ id: personnel.id });
      if (!row) throw new Error('insert returned nothing');
      return row.id;
    }

    async function preview(survivorId: number, duplicateIds: number[]): Promise<Preview> {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/get-merge-personnel/preview',
        headers,
        payload: { survivor_id: survivorId, duplicate_ids: duplicateIds },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as Preview;
    }

    const phoneConflicts = (p: Preview) => p.conflicts.filter((c) => c.field === 'phone');

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const me = await ctx.app.inject({ method: 'GET', url: '/api/user', headers });
      clientId = me.json().data.user.current_client_id;
    });
    afterAll(() => ctx.close());

    it('does not call +18085558288 and (808) 555-8288 a conflict', async () => {
      const survivor = await person('+18085558288');
      const duplicate = await person('(808) 555-8288');
      const other = await person('1-808-555-8288');
      expect(phoneConflicts(await preview(survivor, [duplicate, other]))).toEqual([]);
    });

    it('still reports a different number, with the survivor and the other value as written', async () => {
      const survivor = await person('+18085558288');
      const same = await person('(808) 555-8288');
      const different = await person('(808) 555-8289');
      expect(phoneConflicts(await preview(survivor, [same, different]))).toEqual([
        { field: 'phone', survivor_value: '+18085558288', others: [{ id: different, value: '(808) 555-8289' }] },
      ]);
    });

    it('fills an empty survivor phone from the first duplicate without a conflict for the same number written another way', async () => {
      const survivor = await person(null);
      const first = await person('(808) 555-8288');
      const second = await person('+1 808 555 8288');
      const p = await preview(survivor, [first, second]);
      expect(p.filled).toContainEqual({ field: 'phone', value: '(808) 555-8288', from_id: first });
      expect(phoneConflicts(p)).toEqual([]);
    });
  });
}
