import type { ReputationKpis } from '@admin/shared';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { rowsOf } from '../src/db/client.ts';
import { amplifications, clients, locations, personnel, reviews, surveyResponses } from '../src/db/schema/index.ts';
import { amplificationCountsRaw } from '../src/modules/reputation/kpi-counts.ts';
import { bearer, type DbKind, login, startTestApp, type TestContext } from './helpers.ts';

/**
 * The KPI summary tests' world (docs/decisions/053): the demo client moved to Asia/Kolkata
 * (+5:30, so a range of its days has partial UTC days at both ends), its Healthgrades invitations
 * cleared, four reviews to match; and the check that the route's counts (the summary for whole
 * UTC days, raw rows for the edges) equal the amplifications counted one by one.
 */
export const SITE = 'healthgrades' as const;
export const ZONE = 'Asia/Kolkata';

/** Ranges of the client's days: none, one day, a few, open at either end. */
const RANGES = [
  '',
  '&startDate=2025-03-02&endDate=2025-03-02',
  '&startDate=2025-03-02&endDate=2025-03-03',
  '&startDate=2025-03-02&endDate=2025-03-05',
  '&startDate=2025-03-01&endDate=2025-03-10',
  '&startDate=2025-03-03',
  '&endDate=2025-03-04',
  '&startDate=2025-03-05&endDate=2025-03-05',
];

export type KpiBed = {
  ctx: TestContext;
  clientId: number;
  places: string[];
  person: number;
  reviewIds: number[];
  /** The KPI cards as the route answers them for the site and a query string. */
  route(query: string): Promise<ReputationKpis>;
  /** A survey response with no invitation on the site yet, for an invitation made by hand. */
  nextResponseId(): number;
  /** A new invitation at `at`, its location, personnel and so on varied by `i`. */
  invite(at: string, i: number): Promise<number>;
  /** Every range, alone and with a status, a location and a personnel filter: the route equals the raw count. */
  expectSameEverywhere(): Promise<void>;
  /** The site's summaries: invitations and reviews counted, delta rows not folded yet, folded rows left all zero. */
  summary(): Promise<{ invited: number; deltas: number; empty: number; reviews: number }>;
};

export async function openKpiBed(kind: DbKind): Promise<KpiBed> {
  const ctx = await startTestApp(kind);
  const headers = bearer(await login(ctx.app, 'admin@example.com'));
  const user = await ctx.app.inject({ method: 'GET', url: '/api/user', headers });
  const clientId = (user.json() as { data: { user: { current_client_id: number } } }).data.user.current_client_id;
  const db = ctx.database.db;
  await db.update(clients).set({ timezone: ZONE }).where(eq(clients.id, clientId));
  await db.delete(amplifications).where(and(eq(amplifications.clientId, clientId), eq(amplifications.site, SITE)));
  const places = (
    await db
      .select({ id: locations.id })
      .from(locations)
      .where(and(eq(locations.clientId, clientId), ne(locations.status, 'inactive')))
      .orderBy(asc(locations.id))
      .limit(2)
  ).map((p) => p.id);
  const [p] = await db.select({ id: personnel.id }).from(personnel).where(eq(personnel.clientId, clientId)).limit(1);
  const person = Number(p?.id);
  // Any response will do (the panel never reads them), as long as it has no invitation on the site.
  const used = db.select({ id: amplifications.responseId }).from(amplifications).where(eq(amplifications.site, SITE));
  const responseIds = (
    await db
      .select({ id: surveyResponses.id })
      .from(surveyResponses)
      .where(sql`${surveyResponses.id} not in (${used})`)
      .orderBy(asc(surveyResponses.id))
      .limit(200)
  ).map((r) => r.id);
  const reviewIds: number[] = [];
  for (const [i, rating] of [5, 3, 4, 1].entries()) {
    const [r] = await db
      .insert(reviews)
      .values({
        clientId,
        locationId: places[0] ?? '',
        site: SITE,
        externalId: `kpi-summary-${i}`,
        authorName: `Author ${i}`,
        rating,
        text: 'Kind people.',
        reviewCreatedAt: new Date('2025-02-01T00:00:00Z'),
        source: 'api',
        fetchedAt: new Date('2025-02-01T00:00:00Z'),
      })
      .returning({ id: reviews.id });
    reviewIds.push(Number(r?.id));
  }
  if (places.length < 2 || !person || responseIds.length < 100) throw new Error('the demo lacks what this test needs');

  let next = 0;
  const nextResponseId = () => {
    const id = responseIds[next++];
    if (id === undefined) throw new Error('out of responses');
    return id;
  };
  const filtersOf = (query: string) => {
    const q = new URLSearchParams(query.replace(/^&/, ''));
    const startDate = q.get('startDate');
    const endDate = q.get('endDate');
    const status = q.getAll('status').filter((s) => s === 'posted' || s === 'clicked');
    return {
      site: SITE,
      ...(startDate ? { startDate } : {}),
      ...(endDate ? { endDate } : {}),
      ...(status.length ? { status } : {}),
      ...(q.getAll('location').length ? { location: q.getAll('location') } : {}),
      ...(q.getAll('personnel').length ? { personnel: q.getAll('personnel') } : {}),
    };
  };
  const route = async (query: string): Promise<ReputationKpis> => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/v1/reputation/kpis?site=${SITE}&clientId=${clientId}${query}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: ReputationKpis }).data;
  };
  return {
    ctx,
    clientId,
    places,
    person,
    reviewIds,
    route,
    nextResponseId,
    async invite(at, i) {
      const responseId = nextResponseId();
      const [row] = await db
        .insert(amplifications)
        .values({
          clientId,
          locationId: places[i % 2] ?? '',
          personnelId: i % 3 === 0 ? person : null,
          responseId,
          site: SITE,
          channel: 'email',
          token: `kpi-${kind}-${responseId}`,
          customerName: `Customer ${i}`,
          invitedAt: new Date(at),
        })
        .returning({ id: amplifications.id });
      return Number(row?.id);
    },
    async expectSameEverywhere() {
      for (const range of RANGES) {
        for (const filter of ['', '&status=posted&status=clicked', `&location=${places[0]}`, `&personnel=${person}`]) {
          const query = `${range}${filter}`;
          const raw = await amplificationCountsRaw(db, { clientId, timezone: ZONE }, filtersOf(query));
          // New reviews counted one by one: the site's, with the location filter and the range in the client's days.
          const f = filtersOf(query);
          const [counted] = rowsOf(
            await db.execute(sql`select count(*)::int as n from reviews where client_id = ${clientId} and site = ${SITE}
              ${f.location ? sql`and location_id = ${f.location[0]}` : sql``}
              ${f.startDate ? sql`and review_created_at >= ((${f.startDate}::date)::timestamp at time zone ${ZONE})` : sql``}
              ${f.endDate ? sql`and review_created_at < ((${f.endDate}::date + 1)::timestamp at time zone ${ZONE})` : sql``}`),
          );
          const got = await route(query);
          const average = raw.rated === 0 ? null : Math.round((raw.ratingSum / raw.rated) * 100) / 100;
          expect({ query, ...got }).toEqual({
            query,
            invited: raw.invited,
            clicked: raw.clicked,
            posted: raw.posted,
            average_rating: average,
            new_reviews: Number(counted?.n),
          });
        }
      }
    },
    async summary() {
      const [row] = rowsOf(
        await db.execute(sql`select coalesce(sum(invited), 0)::int as invited, count(*) filter (where not folded)::int as deltas,
          count(*) filter (where folded and invited = 0 and clicked = 0 and posted = 0 and rating_sum = 0 and rated = 0)::int as empty
          from amplification_day_counts where client_id = ${clientId} and site = ${SITE}`),
      );
      const [r] = rowsOf(
        await db.execute(sql`select coalesce(sum(reviews), 0)::int as reviews, count(*) filter (where not folded)::int as deltas,
          count(*) filter (where folded and reviews = 0)::int as empty
          from review_day_counts where client_id = ${clientId} and site = ${SITE}`),
      );
      return {
        invited: Number(row?.invited),
        deltas: Number(row?.deltas) + Number(r?.deltas),
        empty: Number(row?.empty) + Number(r?.empty),
        reviews: Number(r?.reviews),
      };
    },
  };
}
