import { dataEnvelope, errorEnvelopeSchema } from '@admin/shared';
import { answerProblems, answersSchema, commentOf, keyScoreOf } from '@admin/shared/surveys/questions';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../lib/http-error.ts';
import { reviewLinksForPage } from '../reputation/amplify/invite.ts';
import { findInvitation, type Invitation, optOut, recordResponse } from './repository.ts';
import { SAMPLE_TOKEN } from './sample-link.ts';
import { answersFromForm, expiredPage, notFoundPage, samplePage, surveyPage, thankYouPage, unsubscribePage } from './survey-page.ts';

/**
 * Pages of the public pages: no script at all, so scripts are refused outright; images may come
 * from the client's logo host (Survey Admin's logo URL); forms post only to this origin.
 */
const PUBLIC_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src https: http: data:',
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Any text up to the router's own bound: a token of the wrong shape is simply not found (a 404 page). */
const tokenParams = z.object({ token: z.string().max(100) });
/** A posted form: `q<id>` fields (several for a multiple choice) and the consent box. */
const formBody = z.record(z.string().max(20), z.union([z.string().max(5000), z.array(z.string().max(5000)).max(20)]));
const responseBody = z.strictObject({ answers: answersSchema, testimonial_consent: z.boolean().optional() });
const responseAnswer = z.object({
  id: z.number().int(),
  key_score: z.number().int().nullable(),
  nps_class: z.enum(['promoter', 'passive', 'detractor']).nullable(),
});

const PAGE_REFUSALS: Record<number, string> = {
  404: 'Survey link not found.',
  409: 'This survey has already been answered.',
  410: 'This survey link has expired.',
};

type Outcome =
  | { kind: 'not-found' }
  | { kind: 'expired'; invitation: Invitation }
  | { kind: 'answered'; invitation: Invitation }
  | { kind: 'open'; invitation: Invitation };

/**
 * The public survey page `/s/{token}`, its JSON twin `POST /api/public/responses/{token}`, and the
 * unsubscribe page `/u/{token}`. The token (survey_processing_items.token, decision 023) is the
 * whole credential; the pages show only that invitation's survey and the respondent's first name.
 */
export const publicRoutes: FastifyPluginAsyncZod<{ now?: () => Date }> = async (app, opts) => {
  const now = opts.now ?? (() => new Date());
  // Form posts are parsed here, for these routes only (the console's API speaks JSON).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    const form: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(String(body))) {
      const seen = form[key];
      form[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
    }
    done(null, form);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/api/')) reply.header('content-security-policy', PUBLIC_CSP);
    return payload;
  });

  async function outcomeOf(token: string): Promise<Outcome> {
    const invitation = await findInvitation(app.db, token);
    if (!invitation) return { kind: 'not-found' };
    if (invitation.responseId !== null) return { kind: 'answered', invitation };
    if (invitation.status === 'expired' || invitation.expiresAt.getTime() <= now().getTime()) return { kind: 'expired', invitation };
    return { kind: 'open', invitation };
  }

  /**
   * A page for a browser; a refusal to anything else (a script, a probe) is the API's error
   * envelope, as every other error answer of the server.
   */
  function sendPage(reply: FastifyReply, status: number, body: string, refusal?: { message: string; errors?: Record<string, string[]> }) {
    if (status >= 400 && !(reply.request.headers.accept ?? '').includes('text/html'))
      throw new HttpError(status, refusal?.message ?? PAGE_REFUSALS[status] ?? 'Request refused.', refusal?.errors);
    return reply.code(status).type('text/html; charset=utf-8').send(body);
  }

  /** The thank-you page of a recorded response, with its `/r/` review links. */
  async function thanks(invitation: Invitation, responseId: number | null, justAnswered: boolean) {
    return thankYouPage(invitation, justAnswered, await reviewLinksForPage(app.db, invitation, responseId, invitation.keyScore));
  }

  async function closedPage(reply: FastifyReply, outcome: Exclude<Outcome, { kind: 'open' }>) {
    if (outcome.kind === 'not-found') return sendPage(reply, 404, notFoundPage());
    if (outcome.kind === 'expired') return sendPage(reply, 410, expiredPage(outcome.invitation));
    return sendPage(reply, 409, await thanks(outcome.invitation, outcome.invitation.responseId, false));
  }

  const page = { config: { access: 'public' as const } };
  const action = (token: string) => `/s/${encodeURIComponent(token)}`;

  app.get('/s/:token', { ...page, schema: { params: tokenParams } }, async (request, reply) => {
    if (request.params.token === SAMPLE_TOKEN) return sendPage(reply, 200, samplePage('survey'));
    const outcome = await outcomeOf(request.params.token);
    // An answered link is not an error when opened again: the thank-you page, with its review links.
    if (outcome.kind === 'answered') return sendPage(reply, 200, await thanks(outcome.invitation, outcome.invitation.responseId, false));
    if (outcome.kind !== 'open') return closedPage(reply, outcome);
    return sendPage(
      reply,
      200,
      surveyPage(outcome.invitation, action(request.params.token), { answers: {}, problems: {}, consent: false }),
    );
  });

  app.post('/s/:token', { ...page, schema: { params: tokenParams, body: formBody } }, async (request, reply) => {
    const outcome = await outcomeOf(request.params.token);
    if (outcome.kind !== 'open') return closedPage(reply, outcome);
    const { invitation } = outcome;
    const answers = answersFromForm(invitation.questions, request.body);
    const consent = request.body.testimonial_consent === 'yes';
    const problems = answerProblems(invitation.questions, answers);
    if (Object.keys(problems).length > 0)
      return sendPage(reply, 422, surveyPage(invitation, action(request.params.token), { answers, problems, consent }), {
        message: 'Some answers need attention.',
        errors: Object.fromEntries(Object.entries(problems).map(([id, message]) => [`q${id}`, [message]])),
      });
    const id = await record(invitation, answers, consent);
    if (id === null) {
      // Another submit won the race: its thank-you page, with its review links.
      const now = await outcomeOf(request.params.token);
      return now.kind === 'open' ? sendPage(reply, 409, thankYouPage(invitation, false, [])) : closedPage(reply, now);
    }
    const keyScore = keyScoreOf(invitation.questions, answers)?.score ?? null;
    return sendPage(reply, 200, await thanks({ ...invitation, keyScore }, id, true));
  });

  app.post(
    '/api/public/responses/:token',
    {
      ...page,
      schema: {
        params: tokenParams,
        body: responseBody,
        response: { 201: dataEnvelope(responseAnswer), 404: errorEnvelopeSchema, 409: errorEnvelopeSchema, 410: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const outcome = await outcomeOf(request.params.token);
      if (outcome.kind === 'not-found') throw new HttpError(404, 'Survey link not found.');
      if (outcome.kind === 'expired') throw new HttpError(410, 'This survey link has expired.');
      if (outcome.kind === 'answered') throw new HttpError(409, 'This survey has already been answered.');
      const { invitation } = outcome;
      const { answers } = request.body;
      const problems = answerProblems(invitation.questions, answers);
      if (Object.keys(problems).length > 0)
        throw new HttpError(
          422,
          'Some answers need attention.',
          Object.fromEntries(Object.entries(problems).map(([id, message]) => [`answers.${id}`, [message]])),
        );
      const consent = request.body.testimonial_consent ?? false;
      const id = await record(invitation, answers, consent);
      if (id === null) throw new HttpError(409, 'This survey has already been answered.');
      const key = keyScoreOf(invitation.questions, answers);
      return reply.code(201).send({ data: { id, key_score: key?.score ?? null, nps_class: key?.npsClass ?? null } });
    },
  );

  async function record(invitation: Invitation, answers: z.infer<typeof answersSchema>, consent: boolean) {
    const key = keyScoreOf(invitation.questions, answers);
    const comment = commentOf(invitation.questions, answers);
    return recordResponse(app.db, invitation, {
      answers,
      keyScore: key?.score ?? null,
      npsClass: key?.npsClass ?? null,
      comment,
      // Consent means something only with a comment to quote.
      testimonialConsent: consent && comment !== null,
      submittedAt: now(),
    });
  }

  const unsubscribeAction = (token: string) => `/u/${encodeURIComponent(token)}`;

  // Unsubscribe links keep working after the survey link expires or is answered.
  app.get('/u/:token', { ...page, schema: { params: tokenParams } }, async (request, reply) => {
    if (request.params.token === SAMPLE_TOKEN) return sendPage(reply, 200, samplePage('unsubscribe'));
    const invitation = await findInvitation(app.db, request.params.token);
    if (!invitation) return sendPage(reply, 404, notFoundPage());
    return sendPage(reply, 200, unsubscribePage(invitation, unsubscribeAction(request.params.token), false));
  });

  app.post('/u/:token', { ...page, schema: { params: tokenParams } }, async (request, reply) => {
    const invitation = await findInvitation(app.db, request.params.token);
    if (!invitation) return sendPage(reply, 404, notFoundPage());
    await optOut(app.db, invitation, now());
    return sendPage(reply, 200, unsubscribePage(invitation, unsubscribeAction(request.params.token), true));
  });
};
