import { and, asc, eq, ne } from 'drizzle-orm';
import { amplifications, clients, locations, personnel, reviews, surveyResponses } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext } from './helpers.ts';

/**
 * The Reputation Panel's hand-made world: on the demo client, six amplifications and three reviews
 * on one site no other part of the demo uses (Healthgrades), so its counts are known exactly.
 * Times are noon UTC, the same day in every US zone.
 */
export const SITE = 'healthgrades';

export type PanelBed = {
  ctx: TestContext;
  headers: Record<string, string>;
  clientId: number;
  otherClientId: number;
  l1: string;
  l2: string;
  p1: number;
  /** Amplification ids by customer first name. */
  ids: Record<string, number>;
  reviewIds: { r1: number; r2: number; r3: number };
  get(url: string): Promise<{ statusCode: number; json(): unknown; body: string; headers: Record<string, unknown> }>;
};

const noon = (day: string) => new Date(`${day}T12:00:00Z`);

export async function openPanelBed(kind: 'pglite' | 'pg'): Promise<PanelBed> {
  const ctx = await startTestApp(kind);
  const headers = bearer(await login(ctx.app, 'admin@example.com'));
  const user = await ctx.app.inject({ method: 'GET', url: '/api/user', headers });
  const clientId = (user.json() as { data: { user: { current_client_id: number } } }).data.user.current_client_id;
  const db = ctx.database.db;
  const [other] = await db.select({ id: clients.id }).from(clients).where(ne(clients.id, clientId)).limit(1);
  const places = await db
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.clientId, clientId), ne(locations.status, 'inactive')))
    .orderBy(asc(locations.id))
    .limit(2);
  const [person] = await db
    .select({ id: personnel.id })
    .from(personnel)
    .where(and(eq(personnel.clientId, clientId), ne(personnel.status, 'inactive')))
    .limit(1);
  const responses = await db
    .select({ id: surveyResponses.id })
    .from(surveyResponses)
    .where(eq(surveyResponses.clientId, clientId))
    .orderBy(asc(surveyResponses.id))
    .limit(6);
  const [l1, l2] = places.map((p) => p.id);
  if (!other || !l1 || !l2 || !person || responses.length < 6) throw new Error('the demo lacks what the panel bed needs');
  await db.delete(amplifications).where(and(eq(amplifications.clientId, clientId), eq(amplifications.site, SITE)));

  const review = async (externalId: string, locationId: string, rating: number, created: string, text: string) => {
    const [row] = await db
      .insert(reviews)
      .values({
        clientId,
        locationId,
        site: SITE,
        externalId,
        authorName: `Author ${externalId}`,
        rating,
        text,
        url: `https://www.healthgrades.com/review/${externalId}`,
        reviewCreatedAt: noon(created),
        source: 'api',
        fetchedAt: noon(created),
      })
      .returning({ id: reviews.id });
    if (!row) throw new Error('no review');
    return Number(row.id);
  };
  const r1 = await review('panel-r1', l1, 5, '2025-03-02', 'Wonderful care, thank you Ann!');
  const r2 = await review('panel-r2', l2, 3, '2025-03-06', `Fine. ${'Long text. '.repeat(30)}`);
  const r3 = await review('panel-r3', l1, 1, '2025-03-10', 'Waited an hour.');

  const rows = [
    {
      first: 'Ann',
      customer: 'Ann Able',
      loc: l1,
      per: person.id,
      score: 10,
      ch: 'email',
      day: '2025-03-01',
      clicked: true,
      status: 'posted',
      review: r1,
      conf: 92,
    },
    {
      first: 'Bob',
      customer: 'Bob Baker',
      loc: l1,
      per: person.id,
      score: 9,
      ch: 'sms',
      day: '2025-03-02',
      clicked: true,
      status: 'clicked',
    },
    {
      first: 'Cy',
      customer: 'Cy Cole',
      loc: l2,
      per: null,
      score: 8,
      ch: 'email',
      day: '2025-03-03',
      clicked: false,
      status: 'invited',
      suggest: r3,
    },
    {
      first: 'Di',
      customer: 'Di Dunn',
      loc: l2,
      per: null,
      score: 9,
      ch: 'email',
      day: '2025-03-04',
      clicked: true,
      status: 'posted',
      review: r2,
      conf: 75,
    },
    {
      first: 'Ed',
      customer: 'Ed East',
      loc: l1,
      per: null,
      score: 10,
      ch: 'email',
      day: '2025-03-05',
      clicked: false,
      status: 'not_posted',
    },
    {
      first: 'Flo',
      customer: 'Flo Fay',
      loc: l2,
      per: person.id,
      score: 7,
      ch: 'sms',
      day: '2025-04-10',
      clicked: false,
      status: 'opted_out',
    },
  ];
  const ids: Record<string, number> = {};
  for (const [i, r] of rows.entries()) {
    const response = responses[i];
    if (!response) throw new Error('no response');
    const [made] = await db
      .insert(amplifications)
      .values({
        clientId,
        locationId: r.loc,
        personnelId: r.per,
        responseId: response.id,
        site: SITE,
        channel: r.ch,
        token: `panel-bed-${i}`,
        customerName: r.customer,
        surveyScore: r.score,
        invitedAt: noon(r.day),
        clickedAt: r.clicked ? noon(r.day) : null,
        clickCount: r.clicked ? 1 : 0,
        reviewId: r.review ?? null,
        matchConfidence: r.conf ?? null,
        matchedBy: r.review ? 'auto' : null,
        suggestedReviewId: r.suggest ?? null,
        suggestedConfidence: r.suggest ? 55 : null,
        status: r.status,
      })
      .returning({ id: amplifications.id });
    if (!made) throw new Error('no amplification');
    ids[r.first] = Number(made.id);
  }
  return {
    ctx,
    headers,
    clientId,
    otherClientId: other.id,
    l1,
    l2,
    p1: person.id,
    ids,
    reviewIds: { r1, r2, r3 },
    get: (url) => ctx.app.inject({ method: 'GET', url, headers }),
  };
}
