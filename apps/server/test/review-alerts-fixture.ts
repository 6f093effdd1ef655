import { DEFAULT_USER_ENTRY } from '@admin/shared';
import type { Db } from '../src/db/client.ts';
import { reviewAlertRecipients, reviewAlertRules, reviews } from '../src/db/schema/index.ts';
import { insertJob } from '../src/pipeline/queue.ts';
import type { AlertWorld } from './alerts-fixture.ts';

let serial = 0;

type ReviewInput = {
  site?: string;
  rating?: number | null;
  recommend?: boolean | null;
  text?: string | null;
  author?: string;
  location?: 'one' | 'two';
  /** How long before `now` the review was written on the site (default: an hour). */
  ageMs?: number;
  url?: string | null;
};

/**
 * A review stored and its `evaluate-review-alerts` job enqueued in one transaction, as the ingest
 * function does (apps/server/src/pipeline/response-stored.ts is the idiom); the caller runs the jobs.
 */
export async function makeReview(db: Db, world: AlertWorld, input: ReviewInput, now: Date): Promise<number> {
  serial++;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(reviews)
      .values({
        clientId: world.clientId,
        locationId: input.location === 'two' ? world.otherLocationId : world.locationId,
        site: input.site ?? 'google',
        externalId: `ext-${now.getTime()}-${serial}-${Math.random().toString(36).slice(2)}`,
        authorName: input.author ?? 'Robin Reviewer',
        rating: input.rating === undefined ? 1 : input.rating,
        recommend: input.recommend ?? null,
        text: input.text === undefined ? 'Terrible service' : input.text,
        url: input.url === undefined ? null : input.url,
        reviewCreatedAt: new Date(now.getTime() - (input.ageMs ?? 3_600_000)),
        source: 'api',
        fetchedAt: now,
      })
      .returning({ id: reviews.id });
    if (!row) throw new Error('insert returned nothing');
    await insertJob(tx, now, 'evaluate-review-alerts', { reviewId: row.id }, { singletonKey: `evaluate-review-alerts:${row.id}` });
    return row.id;
  });
}

type RuleInput = Partial<typeof reviewAlertRules.$inferInsert> & { userIds?: number[]; defaultForNewUsers?: boolean };

/** A review rule of the world's client with its recipient users. */
export async function makeReviewRule(db: Db, world: AlertWorld, input: RuleInput, now: Date): Promise<number> {
  const { userIds = [], defaultForNewUsers = false, ...values } = input;
  const [rule] = await db
    .insert(reviewAlertRules)
    .values({ clientId: world.clientId, name: 'Review rule', sites: ['google', 'facebook'], createdAt: now, updatedAt: now, ...values })
    .returning({ id: reviewAlertRules.id });
  if (!rule) throw new Error('insert returned nothing');
  const ids = [...userIds, ...(defaultForNewUsers ? [DEFAULT_USER_ENTRY.id] : [])];
  if (ids.length > 0) await db.insert(reviewAlertRecipients).values(ids.map((userId) => ({ ruleId: rule.id, userId })));
  return rule.id;
}
