import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../lib/http-error.ts';
import { recordClick } from './click.ts';
import { reviewLinkNotFoundPage } from './pages.ts';

/** The same policy as the survey pages (apps/server/src/public/routes.ts): no script, no forms. */
const PUBLIC_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** Any text up to the router's bound: a token of the wrong shape is simply not found. */
const tokenParams = z.object({ token: z.string().max(200) });

/**
 * The thank-you page's review link `/r/{token}` (issue 21, item 2): records the click and redirects
 * to the location's stored link for that site (reputation/amplify/click.ts). An unknown token is a
 * plain 404 page, never a redirect. No referrer leaves with the respondent (the token is in the URL).
 */
export const reviewLinkRoutes: FastifyPluginAsyncZod<{ now: () => Date }> = async (app, { now }) => {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-security-policy', PUBLIC_CSP);
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cache-control', 'no-store');
    return payload;
  });

  app.get('/r/:token', { config: { access: 'public' }, schema: { params: tokenParams } }, async (request, reply) => {
    const url = await recordClick(app.db, request.params.token, now());
    if (url !== null) return reply.redirect(url, 302);
    if (!(request.headers.accept ?? '').includes('text/html')) throw new HttpError(404, 'Review link not found.');
    return reply.code(404).type('text/html; charset=utf-8').send(reviewLinkNotFoundPage());
  });
};
