import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../lib/http-error.ts';
import { acknowledge, eventOfToken, type LinkedEvent, unsubscribeAddress } from './links.ts';
import { acknowledgePage, alertUnsubscribePage, linkRefusedPage } from './public-pages.ts';
import { unsubscriberOfToken } from './unsubscribe.ts';

/** The same policy as the survey pages (apps/server/src/public/routes.ts): no script, forms to this origin only. */
const PUBLIC_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const tokenParams = z.object({ token: z.string().max(100) });
const REFUSALS = {
  unknown: [404, 'Alert link not found.'],
  expired: [410, 'This alert link has expired.'],
  used: [409, 'This alert was already acknowledged.'],
} as const;

/**
 * An alert's two public links, each a small page of its own (not the console): the acknowledge
 * link `/a/{token}` and the one-click unsubscribe `/alerts/unsubscribe/{token}` of survey and review alerts (RFC 8058: a mail
 * client POSTs `List-Unsubscribe=One-Click` there). A GET only shows a button, so a mail scanner
 * that opens links acknowledges or unsubscribes nothing; the POST does it.
 */
export const alertPublicRoutes: FastifyPluginAsyncZod<{ now: () => Date }> = async (app, { now }) => {
  app.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'multipart/form-data'],
    { parseAs: 'string', bodyLimit: 4096 },
    (_r, _b, done) => done(null, {}),
  );
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-security-policy', PUBLIC_CSP);
    return payload;
  });
  const route = { config: { access: 'public' as const }, schema: { params: tokenParams } };

  function send(reply: FastifyReply, status: number, body: string, refusal?: string) {
    if (status >= 400 && !(reply.request.headers.accept ?? '').includes('text/html'))
      throw new HttpError(status, refusal ?? 'Request refused.');
    return reply.code(status).type('text/html; charset=utf-8').send(body);
  }
  function refuse(reply: FastifyReply, kind: keyof typeof REFUSALS) {
    const [status, message] = REFUSALS[kind];
    return send(reply, status, linkRefusedPage(kind), message);
  }
  async function open(token: string): Promise<LinkedEvent | 'unknown' | 'expired'> {
    const event = await eventOfToken(app.db, token, now());
    if (!event) return 'unknown';
    return event.expired ? 'expired' : event;
  }
  const ackAction = (token: string) => `/a/${encodeURIComponent(token)}`;
  const unsubscribeAction = (token: string) => `/alerts/unsubscribe/${encodeURIComponent(token)}`;

  app.get('/a/:token', route, async (request, reply) => {
    const event = await open(request.params.token);
    if (typeof event === 'string') return refuse(reply, event);
    if (event.acknowledgedAt) return refuse(reply, 'used');
    return send(reply, 200, acknowledgePage(event.clientName, ackAction(request.params.token), false));
  });
  app.post('/a/:token', route, async (request, reply) => {
    const event = await open(request.params.token);
    if (typeof event === 'string') return refuse(reply, event);
    if (!(await acknowledge(app.db, event.id, now()))) return refuse(reply, 'used');
    return send(reply, 200, acknowledgePage(event.clientName, ackAction(request.params.token), true));
  });

  app.get('/alerts/unsubscribe/:token', route, async (request, reply) => {
    const who = await unsubscriberOfToken(app.db, request.params.token, now());
    if (!who) return refuse(reply, 'unknown');
    if (who.expired) return refuse(reply, 'expired');
    if (who.channel !== 'email') return refuse(reply, 'unknown');
    return send(reply, 200, alertUnsubscribePage(who.kind, who.clientName, who.address, unsubscribeAction(request.params.token), false));
  });
  // Works after the link's 30 days too: an unsubscribe must never stop working (CAN-SPAM).
  app.post('/alerts/unsubscribe/:token', route, async (request, reply) => {
    const who = await unsubscriberOfToken(app.db, request.params.token, now());
    if (who?.channel !== 'email') return refuse(reply, 'unknown');
    await unsubscribeAddress(app.db, who.address, who.clientId, now());
    return send(reply, 200, alertUnsubscribePage(who.kind, who.clientName, who.address, unsubscribeAction(request.params.token), true));
  });
};
