import type { Db } from '../src/db/client.ts';
import { amplifications, reviews } from '../src/db/schema/index.ts';
import { newReviewToken } from '../src/reputation/amplify/invite.ts';
import { enqueueReviewJobs } from '../src/reputation/ingest/ingest.ts';
import type { AlertWorld } from './alerts-fixture.ts';
import { makeResponse } from './alerts-fixture.ts';

export type AmpInput = {
  name: string;
  invitedAt: Date;
  clickedAt?: Date | null;
  comment?: string | null;
  site?: string;
  locationId?: string;
  status?: string;
};

/** An invitation to review as the thank-you page makes it (reputation/amplify/invite.ts), on a real response. */
export async function makeAmp(db: Db, world: AlertWorld, input: AmpInput): Promise<number> {
  const locationId = input.locationId ?? world.locationId;
  const responseId = await makeResponse(db, world, { score: 9, comment: input.comment ?? null, locationId }, input.invitedAt);
  const [row] = await db
    .insert(amplifications)
    .values({
      clientId: world.clientId,
      locationId,
      responseId,
      site: input.site ?? 'google',
      channel: 'email',
      token: newReviewToken(),
      customerName: input.name,
      surveyScore: 9,
      invitedAt: input.invitedAt,
      clickedAt: input.clickedAt ?? null,
      clickCount: input.clickedAt ? 1 : 0,
      status: input.status ?? (input.clickedAt ? 'clicked' : 'invited'),
    })
    .returning({ id: amplifications.id });
  return row?.id ?? 0;
}

let serial = 0;

export type ReviewInput = { author: string; createdAt: Date; text?: string | null; site?: string; locationId?: string; rating?: number };

/** A review stored as the ingest stores it, with its jobs (`match-review`, …) enqueued the ingest's way. */
export async function makeReview(db: Db, world: AlertWorld, input: ReviewInput, now: Date): Promise<number> {
  const [row] = await db
    .insert(reviews)
    .values({
      clientId: world.clientId,
      locationId: input.locationId ?? world.locationId,
      site: input.site ?? 'google',
      externalId: `amp-test-${Date.now()}-${++serial}`,
      authorName: input.author,
      rating: input.rating ?? 5,
      text: input.text ?? null,
      reviewCreatedAt: input.createdAt,
      source: 'api',
      fetchedAt: now,
    })
    .returning({ id: reviews.id });
  const id = row?.id ?? 0;
  await enqueueReviewJobs(db, [id], now);
  return id;
}
