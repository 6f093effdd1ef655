import { dataEnvelope, MAX_REVIEWS_PER_BATCH, type ReviewCounts, reviewBatchAnswerSchema, reviewBatchSchema } from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../../lib/http-error.ts';
import { ingestReviews } from './ingest.ts';

/**
 * A batch of up to MAX_REVIEWS_PER_BATCH reviews with comments and replies at Google's 4,096
 * characters each is about 9 MB of JSON at worst: this route alone takes up to 10 MB (the app's
 * default is 1 MB).
 */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** How an audit entry and the answer sum a batch up: "2 new, 1 updated, 3 unchanged, 1 refused". */
export function countsText(c: ReviewCounts): string {
  return `${c.created} new, ${c.updated} updated, ${c.unchanged} unchanged, ${c.refused} refused`;
}

/**
 * `POST /api/v1/reviews` (issue 21, item 1): an API token with `reviews:write`; a client user's
 * token writes its client's locations only (a super-admin's, any location). Items are answered one
 * by one in the order given; a refused item is skipped alone, the accepted ones are written together.
 */
export const reviewApiRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/reviews',
    {
      bodyLimit: MAX_BODY_BYTES,
      config: { access: { token: 'reviews:write' }, labels: { reviews: 'Reviews' } },
      schema: { body: reviewBatchSchema, response: { 200: dataEnvelope(reviewBatchAnswerSchema) } },
    },
    async (request) => {
      const auth = request.apiToken;
      if (!auth) throw new HttpError(401, 'An API token is required: Authorization: Bearer rp_…');
      const items = request.body.reviews;
      if (items.length > MAX_REVIEWS_PER_BATCH) {
        throw new HttpError(413, `A batch may carry at most ${MAX_REVIEWS_PER_BATCH} reviews; this one has ${items.length}.`, {
          reviews: [`The Reviews field may hold at most ${MAX_REVIEWS_PER_BATCH} reviews`],
        });
      }
      if (items.length === 0)
        throw new HttpError(422, 'The batch has no reviews.', { reviews: ['The Reviews field needs at least one review'] });
      const result = await ingestReviews(
        app.db,
        {
          clientId: auth.clientId,
          source: 'api',
          now: app.clock.now(),
          onWritten: (tx, counts) =>
            request.audit(
              {
                action: 'reviews.ingest',
                message: `Reviews through the API: ${countsText(counts)}`,
                clientId: auth.clientId,
                entityType: 'review',
                actorUserId: auth.token.userId,
                after: { ...counts, tokenId: auth.token.id },
              },
              tx,
            ),
        },
        items,
      );
      return { data: result };
    },
  );
};
