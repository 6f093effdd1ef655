import { locationResource, personnelResource, productResource } from '@admin/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/** The resources' CSV import (apps/server/src/kit/csv-import.ts) refuses a file that is not CSV, naming the line. */
for (const kind of testDatabaseKinds()) {
  describe(`CSV import of a file with an unclosed quote (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;

    beforeAll(async () => {
      ctx = await startTestApp(kind, { demoData: true });
      headers = bearer(await login(ctx.app, 'admin@example.com'));
    });
    afterAll(() => ctx.close());

    const files: [string, string][] = [
      [locationResource.path, 'locationname,external_code\nNorth,N-1\n"South,S-1\nEast,E-1\n'],
      [personnelResource.path, 'name,employee_code\nAda,E-1\n"Bo,E-2\nCy,E-3\n'],
      [productResource.path, 'name,code\nGutter cleaning,GUT-1\n"Roof wash,GUT-2\nSiding,GUT-3\n'],
    ];

    it.each(files)('%s/import answers 422 naming the line, and imports nothing', async (path, csv) => {
      const total = async () =>
        (await ctx.app.inject({ method: 'GET', url: `${path}?status=active,paused,inactive`, headers })).json().total;
      const before = await total();
      const res = await ctx.app.inject({ method: 'POST', url: `${path}/import`, headers, payload: { csv } });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({
        message: 'Nothing was imported: Line 3 opens a quote that is never closed.',
        errors: { csv: ['Line 3 opens a quote that is never closed'] },
      });
      expect(await total()).toBe(before);
    });
  });
}
