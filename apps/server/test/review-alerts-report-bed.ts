import { asc, eq } from 'drizzle-orm';
import { clients, locations, reviewAlertDeliveries, reviewAlertRules, reviews } from '../src/db/schema/index.ts';
import { bearer, type DbKind, login, startTestApp, type TestContext } from './helpers.ts';

/** The bed's days: March 2024, before any of the demo's alerts, so a range of them holds only the bed's rows. */
export const FROM = '2024-03-01';
export const TO = '2024-03-10';
const HOUR = 3_600_000;

export type ReportWorld = {
  ctx: TestContext;
  headers: Record<string, string>;
  clientId: number;
  otherClientId: number;
  locationId: string;
  otherLocationId: string;
  /** Deliveries by name: r1Email, r1Sms, r2Email, r3Email, r4Email, r4Test. */
  ids: Record<string, number>;
};

type ReviewSeed = { key: string; rating: number; site: string; at: string; repliedAfterHours: number | null };
const REVIEWS: ReviewSeed[] = [
  { key: 'r1', rating: 1, site: 'google', at: '2024-03-02T12:00:00Z', repliedAfterHours: 12 },
  { key: 'r2', rating: 2, site: 'yelp', at: '2024-03-03T12:00:00Z', repliedAfterHours: 72 },
  { key: 'r3', rating: 5, site: 'google', at: '2024-03-04T12:00:00Z', repliedAfterHours: null },
  { key: 'r4', rating: 2, site: 'google', at: '2024-03-05T12:00:00Z', repliedAfterHours: null },
];
/** [name, review, channel, recipient, status, test] */
const DELIVERIES: [string, string, string, string, string, boolean][] = [
  ['r1Email', 'r1', 'email', 'owner@bed.example', 'sent', false],
  ['r1Sms', 'r1', 'sms', '+15555550100', 'failed', false],
  ['r2Email', 'r2', 'email', 'owner@bed.example', 'sent', false],
  ['r3Email', 'r3', 'email', 'owner@bed.example', 'failed', false],
  ['r4Email', 'r4', 'email', 'owner@bed.example', 'pending', false],
  ['r4Test', 'r4', 'email', 'tester@bed.example', 'failed', true],
];

/**
 * The demo plus, for its first client, four reviews (1★ replied in 12 h, 2★ replied in 72 h, 5★
 * and 2★ unreplied) alerted by six deliveries (two failed, one pending, one a test send) in March
 * 2024, on the demo's first review alert rule of that client.
 */
export async function openReportWorld(kind: DbKind): Promise<ReportWorld> {
  const ctx = await startTestApp(kind);
  const db = ctx.database.db;
  const headers = bearer(await login(ctx.app, 'admin@example.com'));
  const clientRows = await db.select({ id: clients.id }).from(clients).orderBy(asc(clients.id)).limit(2);
  const clientId = clientRows[0]?.id ?? 0;
  const otherClientId = clientRows[1]?.id ?? 0;
  const firstLocation = async (id: number) =>
    (await db.select({ id: locations.id }).from(locations).where(eq(locations.clientId, id)).orderBy(asc(locations.id)).limit(1))[0]?.id ??
    '';
  const locationId = await firstLocation(clientId);
  const otherLocationId = await firstLocation(otherClientId);
  const [rule] = await db
    .select({ id: reviewAlertRules.id })
    .from(reviewAlertRules)
    .where(eq(reviewAlertRules.clientId, clientId))
    .orderBy(asc(reviewAlertRules.id))
    .limit(1);
  if (!rule || !locationId || !otherLocationId) throw new Error('the demo has no rule or location for the bed');
  const reviewIds: Record<string, number> = {};
  for (const r of REVIEWS) {
    const at = new Date(r.at);
    const [row] = await db
      .insert(reviews)
      .values({
        clientId,
        locationId,
        site: r.site,
        externalId: `bed-${r.key}`,
        authorName: `Reviewer ${r.key}`,
        rating: r.rating,
        text: `Review ${r.key}: ${'a long review text '.repeat(12)}`,
        url: `https://reviews.example/${r.key}`,
        reviewCreatedAt: at,
        repliedAt: r.repliedAfterHours === null ? null : new Date(at.getTime() + r.repliedAfterHours * HOUR),
        replyText: r.repliedAfterHours === null ? null : 'Thank you',
        source: 'api',
        fetchedAt: at,
      })
      .returning({ id: reviews.id });
    reviewIds[r.key] = Number(row?.id);
  }
  const ids: Record<string, number> = {};
  for (const [name, review, channel, recipient, status, test] of DELIVERIES) {
    const reviewAt = new Date(REVIEWS.find((r) => r.key === review)?.at ?? FROM);
    const createdAt = new Date(reviewAt.getTime() + 60_000);
    const [row] = await db
      .insert(reviewAlertDeliveries)
      .values({
        ruleId: rule.id,
        clientId,
        reviewId: reviewIds[review] ?? null,
        channel,
        recipient,
        status,
        reason: status === 'failed' ? 'provider_error' : null,
        attempts: status === 'pending' ? 0 : 5,
        sentAt: status === 'sent' ? createdAt : null,
        test,
        createdAt,
        updatedAt: createdAt,
      })
      .returning({ id: reviewAlertDeliveries.id });
    ids[name] = Number(row?.id);
  }
  return { ctx, headers, clientId, otherClientId, locationId, otherLocationId, ids };
}
