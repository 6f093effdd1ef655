import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shapeOf } from './fuzz/shape.ts';
import { addScheduledReport, bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

/**
 * Every edit of a versioned record requires the version it read (issue 18, item 5): a PATCH or PUT
 * without `updated_at` used to overwrite blindly. The route table is walked, so a new edit route
 * that forgets the stamp fails here unless it is one of the writes listed below, each with why
 * (the kinds are apps/server/src/kit/status.ts `assertFresh`'s).
 */
const MAY_SKIP: Readonly<Record<string, string>> = {
  'PUT /api/users/switch-client/:clientId': "the signed-in user's own current client: no one else writes it",
  'PUT /api/preferences/:key': "the signed-in user's own column choices: no one else writes them",
  'PUT /api/reviews/google': 'replaces the connection whole with a refresh token typed anew each time: nothing read is written back',
  'PUT /api/reviews/google/locations/:locationId':
    "sets one field, the location's Google location, to the value typed, as a row action does: nothing read is written back",
  'PUT /api/test-clock': 'the browser tests’ clock (CLOCK_CONTROL only), not a record',
};

const fieldNames = (schema: unknown): string[] => {
  const shape = shapeOf(schema);
  return shape?.kind === 'object' ? shape.fields.map((f) => f.name) : [];
};

for (const kind of testDatabaseKinds()) {
  describe(`edits require the version they read (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    beforeAll(async () => {
      ctx = await startTestApp(kind, { clockControl: true });
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      await addScheduledReport(ctx.app, headers);
      // One API token, so its edit has a version to require (the list's rows are users; a user's
      // row, GET /api/api-token/<user id>, carries their token's version).
      const me = (await ctx.app.inject({ method: 'GET', url: '/api/user', headers })).json().data.user;
      const token = { user_id: me.id, name: 'Versioned', scopes: ['feeds:write'] };
      expect((await ctx.app.inject({ method: 'POST', url: '/api/api-token', headers, payload: token })).statusCode).toBe(201);
      // One API endpoint set up, so its save and status change have a version to require.
      const endpoints = (await ctx.app.inject({ method: 'GET', url: '/api/api-endpoints', headers })).json().data as { _id: string }[];
      for (const { _id: id } of endpoints) {
        const surveys = (await ctx.app.inject({ method: 'GET', url: `/api/api-endpoints/${id}/survey-options`, headers })).json().data;
        if (surveys.length === 0) continue;
        const payload = { survey_id: Number(surveys[0].value) };
        expect((await ctx.app.inject({ method: 'PUT', url: `/api/api-endpoints/${id}`, headers, payload })).statusCode).toBe(200);
        break;
      }
    });
    afterAll(() => ctx.close());

    const lists = new Map<string, Record<string, unknown>[]>();
    async function rowsOf(url: string): Promise<Record<string, unknown>[]> {
      const cached = lists.get(url);
      if (cached) return cached;
      const res = await ctx.app.inject({ method: 'GET', url: `${url}?perPage=20`, headers });
      // A list route may answer CSV (a fix list, an export under another name): not rows to edit.
      const json = res.statusCode === 200 && String(res.headers['content-type']).startsWith('application/json');
      const data: unknown = json ? res.json().data : [];
      const rows = Array.isArray(data) ? (data as Record<string, unknown>[]) : [];
      lists.set(url, rows);
      return rows;
    }

    /**
     * A record the route edits, with its version ('' for Survey Admin settings never saved), as `GET <record path>/<id>` answers it: found
     * through the lists, nearest path first (Client Manager lists `/api/create-client`, its records
     * live at `/api/clients/<id>`).
     */
    async function someRecord(url: string): Promise<{ id: string; record: Record<string, unknown> } | undefined> {
      const recordPath = url.slice(0, url.indexOf('/:'));
      const byPost = POST_LISTS[recordPath];
      if (byPost) {
        const res = await ctx.app.inject({ method: 'POST', url: byPost.url, headers, payload: byPost.payload });
        const rows = res.statusCode === 200 ? (res.json().data as Record<string, unknown>[]) : [];
        const row = rows.find((r) => typeof r.updated_at === 'string');
        return row ? { id: String(row.id), record: row } : undefined;
      }
      const shared = (a: string) => [...a].findIndex((c, i) => c !== url[i]);
      const candidates = ctx.app.routeTable
        .filter((r) => r.method === 'GET' && !r.url.includes(':') && !r.url.endsWith('/export') && r.schema.querystring)
        .map((r) => r.url)
        .sort((a, b) => shared(b) - shared(a));
      for (const list of candidates) {
        for (const row of (await rowsOf(list)).slice(0, 20)) {
          const id = row._id ?? row.id;
          if (typeof id !== 'string' && typeof id !== 'number') continue;
          const res = await ctx.app.inject({ method: 'GET', url: `${recordPath}/${id}`, headers });
          const record = res.statusCode === 200 ? (res.json().data as Record<string, unknown>) : undefined;
          if (typeof record?.updated_at === 'string') return { id: String(id), record };
        }
      }
      return undefined;
    }

    /**
     * Records listed only by a POST (the spec's Testimonials Tool call, `POST survey-comments-testimonials`):
     * its rows are the records, versions included. Every demo testimonial lies within the last year.
     */
    const today = new Date();
    const POST_LISTS: Record<string, { url: string; payload: Record<string, unknown> }> = {
      '/api/testimonials': {
        url: '/api/survey-comments-testimonials',
        payload: {
          startDate: new Date(today.getTime() - 365 * 86_400_000).toISOString().slice(0, 10),
          endDate: new Date(today.getTime() + 86_400_000).toISOString().slice(0, 10),
        },
      },
    };

    it('answers an edit without updated_at with 422 naming Last updated, on every PATCH and PUT route', async () => {
      const edits = ctx.app.routeTable.filter((r) => (r.method === 'PATCH' || r.method === 'PUT') && r.url.startsWith('/api/'));
      const checked: string[] = [];
      for (const route of edits) {
        const op = `${route.method} ${route.url}`;
        if (MAY_SKIP[op]) continue;
        expect({ op, fields: fieldNames(route.schema.body) }).toEqual({ op, fields: expect.arrayContaining(['updated_at']) });
        const found = await someRecord(route.url);
        expect({ op, found: found !== undefined }).toEqual({ op, found: true });
        const url = route.url.replace(/:[A-Za-z_]+/, found?.id ?? '');
        const body = route.url.endsWith('/status') ? { status: found?.record.status } : {};
        const res = await ctx.app.inject({ method: route.method as 'PATCH', url, headers, payload: body });
        expect({ op, status: res.statusCode, body: res.json() }).toEqual({
          op,
          status: 422,
          body: expect.objectContaining({ message: 'Please correct: Last updated.', errors: { updated_at: [expect.any(String)] } }),
        });
        checked.push(op);
      }
      // The kit's edits and status changes, Survey Admin's save, API Managers' status.
      expect(checked.length).toBeGreaterThanOrEqual(18);
      expect(checked).toEqual(
        expect.arrayContaining(['PATCH /api/surveys/:id', 'PATCH /api/surveys-admin/:id', 'PATCH /api/api-endpoints/:id/status']),
      );
    });

    it('lists only routes that exist among the writes that may skip it', () => {
      const ops = new Set(ctx.app.routeTable.map((r) => `${r.method} ${r.url}`));
      expect(Object.keys(MAY_SKIP).filter((op) => !ops.has(op))).toEqual([]);
    });
  });
}
