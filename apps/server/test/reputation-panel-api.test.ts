import type { ReputationFilters, ReputationItem, ReputationKpis } from '@admin/shared';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemLogs } from '../src/db/schema/index.ts';
import { testDatabaseKinds } from './helpers.ts';
import { openPanelBed, type PanelBed, SITE } from './reputation-panel-bed.ts';

type ListAnswer = { data: ReputationItem[]; nextCursor: string | null; total: number; totalIsEstimate: boolean };
const BASE = '/api/v1/reputation';

for (const kind of testDatabaseKinds()) {
  describe(`Reputation Panel API (${kind})`, () => {
    let bed: PanelBed;
    const list = async (query: string) => {
      const res = await bed.get(`${BASE}?site=${SITE}&clientId=${bed.clientId}${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as ListAnswer;
    };
    const customers = (a: ListAnswer) => a.data.map((r) => r.customer_name.split(' ')[0] ?? '');
    const kpis = async (query: string) => {
      const res = await bed.get(`${BASE}/kpis?site=${SITE}&clientId=${bed.clientId}${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: ReputationKpis }).data;
    };

    beforeAll(async () => {
      bed = await openPanelBed(kind);
    });
    afterAll(() => bed.ctx.close());

    it('lists the client’s amplifications on the site, newest invitation first, with the matched review', async () => {
      const all = await list('');
      expect(customers(all)).toEqual(['Flo', 'Ed', 'Di', 'Cy', 'Bob', 'Ann']);
      expect(all).toMatchObject({ total: 6, totalIsEstimate: false, nextCursor: null });
      const ann = all.data.find((r) => r.customer_name === 'Ann Able');
      expect(ann).toMatchObject({
        status: 'posted',
        review_id: bed.reviewIds.r1,
        review_rating: 5,
        review_excerpt: 'Wonderful care, thank you Ann!',
        review_url: 'https://www.healthgrades.com/review/panel-r1',
        match_confidence: 92,
        survey_score: 10,
        channel: 'email',
        site: SITE,
        personnel_id: bed.p1,
      });
      expect(ann?.personnel_name).toBeTruthy();
      expect(ann?.location_name).toBeTruthy();
      expect(ann?.client_timezone).toBeTruthy();
      // A long review is cut to an excerpt that says so; a pending suggestion shows as such.
      const di = all.data.find((r) => r.customer_name === 'Di Dunn');
      expect(di?.review_excerpt?.endsWith('…')).toBe(true);
      expect(di?.review_excerpt?.length).toBe(161);
      expect(all.data.find((r) => r.customer_name === 'Cy Cole')).toMatchObject({
        review_id: null,
        suggested_review_id: bed.reviewIds.r3,
        suggested_confidence: 55,
      });
    });

    it('the site defaults to Google: none of these rows there', async () => {
      const res = await bed.get(`${BASE}?clientId=${bed.clientId}`);
      expect(res.statusCode).toBe(200);
      expect((res.json() as ListAnswer).data.every((r) => r.site === 'google')).toBe(true);
      const bare = await bed.get(BASE);
      expect(bare.statusCode).toBe(200);
    });

    it('pages by keyset in either order, each row once', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: ListAnswer = await list(`&perPage=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(page.data.length).toBeLessThanOrEqual(2);
        seen.push(...customers(page));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(['Flo', 'Ed', 'Di', 'Cy', 'Bob', 'Ann']);
      const asc = await list('&sort=invited_at&order=asc&perPage=4');
      expect(customers(asc)).toEqual(['Ann', 'Bob', 'Cy', 'Di']);
      const next = await list(`&sort=invited_at&order=asc&perPage=4&cursor=${encodeURIComponent(asc.nextCursor ?? '')}`);
      expect(customers(next)).toEqual(['Ed', 'Flo']);
    });

    it('narrows by each filter', async () => {
      expect(customers(await list(`&location=${bed.l2}`))).toEqual(['Flo', 'Di', 'Cy']);
      expect(customers(await list(`&endpoint=${bed.l1}`))).toEqual(['Ed', 'Bob', 'Ann']);
      expect(customers(await list(`&endpoint=${bed.l1}&location=${bed.l2}`))).toEqual([]);
      expect(customers(await list(`&personnel=${bed.p1}`))).toEqual(['Flo', 'Bob', 'Ann']);
      expect(customers(await list('&status=posted&status=clicked'))).toEqual(['Di', 'Bob', 'Ann']);
      expect(customers(await list('&status=posted,not_posted'))).toEqual(['Ed', 'Di', 'Ann']);
      expect(customers(await list('&startDate=2025-03-02&endDate=2025-03-04'))).toEqual(['Di', 'Cy', 'Bob']);
      expect(customers(await list('&q=di'))).toEqual(['Di']);
      expect(customers(await list('&q=%25'))).toEqual([]);
    });

    it('KPI cards count the same filters: invites, clicks, posted, the posted ratings, and the site’s new reviews', async () => {
      expect(await kpis('')).toEqual({ invited: 6, clicked: 3, posted: 2, average_rating: 4, new_reviews: 3 });
      expect(await kpis('&startDate=2025-03-01&endDate=2025-03-31')).toEqual({
        invited: 5,
        clicked: 3,
        posted: 2,
        average_rating: 4,
        new_reviews: 3,
      });
      expect(await kpis(`&location=${bed.l2}`)).toEqual({ invited: 3, clicked: 1, posted: 1, average_rating: 3, new_reviews: 1 });
      // New reviews count every review in the range, matched or not (r3 is nobody's).
      expect(await kpis('&startDate=2025-03-07&endDate=2025-03-31')).toEqual({
        invited: 0,
        clicked: 0,
        posted: 0,
        average_rating: null,
        new_reviews: 1,
      });
    });

    it('the filters call answers the client’s endpoints, locations and personnel', async () => {
      const res = await bed.get(`${BASE}/filters?site=google&clientId=${bed.clientId}`);
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json() as { data: ReputationFilters };
      expect(data.locations.map((l) => l.value)).toEqual(expect.arrayContaining([bed.l1, bed.l2]));
      expect(data.personnels.map((p) => p.value)).toContain(String(bed.p1));
      const locationIds = new Set(data.locations.map((l) => l.value));
      expect(data.apiEndpoints.every((e) => locationIds.has(e._id) && e.locationname.length > 0)).toBe(true);
    });

    it('the export is exactly the filtered list, with a BOM, labels and the client’s times, and is audited', async () => {
      const res = await bed.get(`${BASE}/export?site=${SITE}&clientId=${bed.clientId}&location=${bed.l2}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body.charCodeAt(0)).toBe(0xfeff);
      const lines = res.body.slice(1).trim().split(/\r?\n/);
      expect(lines[0]).toContain('Invited at');
      expect(lines[0]).toContain('API endpoint/Location');
      expect(lines).toHaveLength(4);
      expect(lines.slice(1).map((l) => /(Flo|Di|Cy) /.exec(l)?.[1])).toEqual(['Flo', 'Di', 'Cy']);
      expect(lines[2]).toContain('Posted');
      expect(lines[2]).toContain('3/5');
      // Site is hidden by default (one site per view); chosen in Columns, the export has it, by its label.
      expect(lines[0]).not.toContain('Site');
      const chosen = await bed.get(`${BASE}/export?site=${SITE}&clientId=${bed.clientId}&location=${bed.l2}&columns=customer_name,site`);
      expect(chosen.body.slice(1).trim().split(/\r?\n/)[2]).toMatch(/^Di\S* \S+,Healthgrades$/);
      const [audit] = await bed.ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'amplifications.export')))
        .orderBy(desc(systemLogs.id))
        .limit(1);
      expect(audit).toBeDefined();
    });

    it('refuses another client’s clientId (409) and bad values with a 4xx naming the field', async () => {
      const other = await bed.get(`${BASE}?site=google&clientId=${bed.otherClientId}`);
      expect(other.statusCode).toBe(409);
      expect(other.body).toContain('clientId');
      expect((await bed.get(`${BASE}/filters?clientId=${bed.otherClientId}`)).statusCode).toBe(409);
      expect((await bed.get(`${BASE}/kpis?clientId=${bed.otherClientId}`)).statusCode).toBe(409);
      const cases: [string, string][] = [
        ['?clientId=abc', 'clientId'],
        ['?site=myspace', 'site'],
        ['?status=gone', 'status'],
        ['?startDate=2025-02-30', 'startDate'],
        ['?startDate=2025-03-02&endDate=2025-03-01', 'endDate'],
        ['?perPage=0', 'perPage'],
        ['?sort=customer_name', 'sort'],
        [`?location=${'x'.repeat(65)}`, 'location'],
        ['?personnel=x', 'personnel'],
        ['?cursor=zzz', 'cursor'],
        ['/filters?site=nope', 'site'],
        ['/kpis?endDate=yesterday', 'endDate'],
      ];
      for (const [query, field] of cases) {
        const res = await bed.get(`${BASE}${query}`);
        expect(res.statusCode, query).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, query).toBeLessThan(500);
        expect(res.body, query).toContain(field);
      }
    });

    it('is staff only', async () => {
      const res = await bed.ctx.app.inject({ method: 'GET', url: `${BASE}?site=google` });
      expect(res.statusCode).toBe(401);
    });
  });
}
