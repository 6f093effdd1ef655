import { CLIENT_HEADER, CURRENT_CLIENT_HEADER } from '@admin/shared/constants';
import fp from 'fastify-plugin';

/** What a console on another origin sends: its bearer token, JSON or a CSV file, and the tab's client. */
const ALLOW_HEADERS = ['authorization', 'content-type', CLIENT_HEADER].join(', ');
const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE';
/** What it must read back: the client a 409 names (client-scope.ts) and an export's file name. */
const EXPOSE_HEADERS = [CURRENT_CLIENT_HEADER, 'content-disposition', 'x-request-id'].join(', ');
/** How long a browser may keep a preflight's answer (Chromium caps it at two hours). */
const MAX_AGE_SECONDS = 7200;

/**
 * Cross-origin calls from the consoles listed in CORS_ORIGINS (exact origins; none by default):
 * for a deployment whose API, reputation or identity host (API_BASE_URL, REPUTATION_BASE_URL,
 * IDENTITY_BASE_URL) is another origin than the console's. A listed origin's preflight is answered
 * here, before sign-in and access are decided, since a preflight carries no credentials; the real
 * call then goes through access as any other. Any other origin gets no CORS headers, so the browser
 * refuses it (docs/decisions/050-reputation-panel.md).
 */
export const corsPlugin = fp<{ origins: string[] }>(
  async (app, { origins }) => {
    if (origins.length === 0) return;
    const allowed = new Set(origins);
    app.addHook('onRequest', async (request, reply) => {
      reply.header('vary', 'Origin');
      const origin = request.headers.origin;
      if (origin === undefined || !allowed.has(origin)) return;
      // No Allow-Credentials: the console's calls carry a bearer token, never cookies (apps/web/src/lib/http.ts).
      reply.header('access-control-allow-origin', origin);
      if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
        reply
          .header('access-control-allow-methods', ALLOW_METHODS)
          .header('access-control-allow-headers', ALLOW_HEADERS)
          .header('access-control-max-age', String(MAX_AGE_SECONDS))
          .code(204)
          .send();
        return reply;
      }
      reply.header('access-control-expose-headers', EXPOSE_HEADERS);
    });
  },
  { name: 'cors' },
);
