import { dataEnvelope, idParamSchema, matchCandidateSchema, REPUTATION_PATH, reviewSiteLabel } from '@admin/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { requireCurrentClientId } from '../../kit/current-client.ts';
import { candidatesOf } from './candidates.ts';
import { dismissSuggestion, MATCH_LABELS, matchByHand, unmatch } from './manual.ts';
import { type Amp, findAmp } from './one.ts';
import { resendInvite } from './resend.ts';

const params = idParamSchema;
const answer = { 200: dataEnvelope(z.object({ id: z.number().int() })) };
const matchBody = z.strictObject({ reviewId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/**
 * The Reputation Panel's row actions on one review invitation (issue 21, items 2–3), on the
 * reputation host's prefix: Resend invite, the candidates for Match review manually, Match, Unmatch,
 * Dismiss suggestion. Staff only (no `access`: default), the tab's current client's invitations
 * only (another's is not found); every write audited in its transaction; each answers its id.
 */
export const amplificationStaffRoutes: FastifyPluginAsyncZod = async (app) => {
  const now = () => app.clock.now();
  const ampOf = (request: FastifyRequest, id: string | number) => findAmp(app.db, requireCurrentClientId(request), Number(id));
  const who = (amp: Amp) => `${amp.customerName || 'a customer'}'s ${reviewSiteLabel(amp.site)} invitation ${amp.id}`;
  const entry = (amp: Amp, action: string, message: string, extra: { before?: unknown; after?: unknown } = {}) => ({
    action: `amplifications.${action}`,
    message,
    clientId: amp.clientId,
    entityType: 'amplification',
    entityId: amp.id,
    ...extra,
  });

  app.post(`${REPUTATION_PATH}/:id/resend`, { schema: { params, response: answer } }, async (request) => {
    const amp = await ampOf(request, request.params.id);
    const by = amp.channel === 'sms' ? 'SMS' : 'e-mail';
    await resendInvite(app.db, app.messenger, amp, now(), (tx: Db, to: string, notSent?: string) =>
      request.audit(
        notSent === undefined
          ? entry(amp, 'resend', `Sent a review reminder for ${who(amp)} by ${by}`, { after: { to } })
          : entry(amp, 'resend', `The review reminder for ${who(amp)} by ${by} was not sent: ${notSent}`, { after: { to, sent: false } }),
        tx,
      ),
    );
    return { data: { id: amp.id } };
  });

  app.get(
    `${REPUTATION_PATH}/:id/candidates`,
    { schema: { params, response: { 200: dataEnvelope(z.array(matchCandidateSchema)) } } },
    async (request) => ({ data: await candidatesOf(app.db, await ampOf(request, request.params.id)) }),
  );

  app.post(
    `${REPUTATION_PATH}/:id/match`,
    { config: { labels: MATCH_LABELS }, schema: { params, body: matchBody, response: answer } },
    async (request) => {
      const amp = await ampOf(request, request.params.id);
      const { reviewId } = request.body;
      await matchByHand(app.db, amp, reviewId, request.auth?.user.id ?? null, now(), (tx) =>
        request.audit(entry(amp, 'match', `Matched review ${reviewId} to ${who(amp)} by hand`, { after: { reviewId } }), tx),
      );
      return { data: { id: amp.id } };
    },
  );

  app.post(`${REPUTATION_PATH}/:id/unmatch`, { schema: { params, response: answer } }, async (request) => {
    const amp = await ampOf(request, request.params.id);
    await unmatch(app.db, amp, now(), (tx) =>
      request.audit(entry(amp, 'unmatch', `Unmatched review ${amp.reviewId} from ${who(amp)}`, { before: { reviewId: amp.reviewId } }), tx),
    );
    return { data: { id: amp.id } };
  });

  app.post(`${REPUTATION_PATH}/:id/dismiss-suggestion`, { schema: { params, response: answer } }, async (request) => {
    const amp = await ampOf(request, request.params.id);
    await dismissSuggestion(app.db, amp, now(), (tx) =>
      request.audit(
        entry(amp, 'dismiss_suggestion', `Dismissed suggested review ${amp.suggestedReviewId} for ${who(amp)}`, {
          before: { suggestedReviewId: amp.suggestedReviewId },
        }),
        tx,
      ),
    );
    return { data: { id: amp.id } };
  });
};
