import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/db/client.ts';
import { locations, surveyProcessingItems } from '../src/db/schema/index.ts';
import { type AlertWorld, makeWorld } from './alerts-fixture.ts';

/** The stored review links of the world's first location (the second has none). */
export const LINKS = {
  google: 'https://search.google.test/local/writereview?placeid=abc',
  facebook: 'https://facebook.test/downtown/reviews',
  // Not a web address: never offered.
  yelp: 'javascript:alert(1)',
};

/** The alerts' world (alerts-fixture.ts) with review links on its first location. */
export async function makeReviewWorld(db: Db, tag: string): Promise<AlertWorld> {
  const world = await makeWorld(db, tag);
  await db.update(locations).set({ reviewLinks: LINKS }).where(eq(locations.id, world.locationId));
  return world;
}

type InviteInput = {
  firstName?: string;
  lastName?: string | null;
  email?: string;
  phone?: string | null;
  channel?: 'email' | 'sms';
  locationId?: string;
  surveyId?: number;
  test?: boolean;
};

/** A sent survey invitation of the world's client; its link token. */
export async function makeSurveyLink(db: Db, world: AlertWorld, input: InviteInput, at: Date): Promise<string> {
  const token = randomBytes(16).toString('base64url');
  await db.insert(surveyProcessingItems).values({
    clientId: world.clientId,
    surveyId: input.surveyId ?? world.surveyId,
    locationId: input.locationId ?? world.locationId,
    firstName: input.firstName ?? 'Dana',
    lastName: input.lastName === undefined ? 'Lee' : input.lastName,
    email: input.email ?? `dana-${token.slice(0, 6)}@customer.test`,
    phone: input.phone === undefined ? '+13125559999' : input.phone,
    channel: input.channel ?? 'email',
    status: 'sent',
    sentAt: at,
    expiresAt: new Date(at.getTime() + 30 * 86_400_000),
    source: input.test ? 'manual_test' : 'api',
    token,
  });
  return token;
}

/** Answers the survey behind `token` on the public page as a browser does; the thank-you page. */
export async function answer(app: FastifyInstance, token: string, score: number, comment = ''): Promise<{ status: number; body: string }> {
  const res = await app.inject({
    method: 'POST',
    url: `/s/${token}`,
    headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ q1: String(score), q2: comment }).toString(),
  });
  return { status: res.statusCode, body: res.body };
}

/** The `/r/…` hrefs of a page, in order. */
export const reviewHrefs = (body: string): string[] => [...body.matchAll(/href="(\/r\/[^"]+)"/g)].map((m) => m[1] ?? '');
