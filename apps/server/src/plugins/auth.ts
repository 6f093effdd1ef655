import type { ApiTokenScope } from '@admin/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { users } from '../db/schema/index.ts';
import { HttpError } from '../lib/http-error.ts';
import { isApiPath } from '../lib/request-path.ts';

/**
 * Who may call a route. Every route may declare it in `config.access`:
 * - `public`: anyone (sign-in, sign-out, the console's files, health check);
 * - `superadmin`: a valid bearer token of an active super-admin who is not the retired master.
 * - `{ token: scope }`: a machine route (the ingest endpoint): only an API token (`Bearer rp_…`)
 *   with that scope, from an allowed IP; a console session never opens it, and an API token
 *   never opens a console route (it is no session). With `secret`, a request that carries no
 *   Authorization header but the secret's header is let in when the route's own secret matches
 *   (a vendor's webhook that can send a fixed header, not a token), and refused with 401 otherwise.
 *   With `gate`, the route may refuse a caller before any credential is looked up (e.g. 429 for an
 *   address refused too often: modules/api-endpoints/refusals.ts).
 * - `{ signed: check }`: a provider's callback (SNS, SMS status and inbound): no session or token
 *   opens it; the route's own signature check decides once the body is read, and a refusal is a 403
 *   carrying the check's reason (docs/decisions/058-provider-callbacks-signed.md).
 * A route that declares nothing is `superadmin` (default deny).
 */
export type Access =
  | 'public'
  | 'superadmin'
  | { token: ApiTokenScope; secret?: SecretCheck; gate?: (request: FastifyRequest, reply: FastifyReply) => void }
  | { signed: SignatureCheck };

/**
 * A provider callback's proof: `verify` answers null when the request is the provider's, else the
 * reason it is refused (said in the 403); `refused` may record the refusal (System Logs).
 */
export type SignatureCheck = {
  provider: string;
  verify(request: FastifyRequest): Promise<string | null>;
  refused?(request: FastifyRequest, reason: string): Promise<void>;
};

/** A machine route's shared-secret credential: the header it comes in, and whether it is the one for this request's route and parameters. */
export type SecretCheck = { header: string; verify(request: FastifyRequest, secret: string): Promise<boolean> };

/** An authenticated API token, as the api-tokens module's decorator (`app.apiTokens`) answers it. */
type TokenAuth = Awaited<ReturnType<FastifyInstance['apiTokens']['authenticate']>>;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth: { user: typeof users.$inferSelect; sessionId: number; token: string } | null;
    /** The API token of a machine route's request (`{ token: scope }` access), with the caller's address. */
    apiToken: TokenAuth | null;
    /** Whether a machine route's request came in with the route's secret instead of a token. */
    viaSecret: boolean;
  }
}

/** Reads `Authorization: Bearer <token>`; returns null when absent or malformed. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * The access of the route the router matched: decided from the route, never from the URL string
 * (docs/conventions.md, rule 8), so `/%61pi/…`, `//api/…` or an absolute-form request line reach the
 * same decision as `/api/…`. A request that matched no route runs nothing but the 404 handler;
 * for `/api` paths (read leniently) strangers get 401, so they cannot probe the API's shape.
 */
export function accessOf(request: FastifyRequest): Access {
  if (request.is404) return isApiPath(request.url) ? 'superadmin' : 'public';
  return request.routeOptions.config.access ?? 'superadmin';
}

/** Authentication lives here, once, as a hook on every request (docs/conventions.md, rule 8). */
export const authPlugin = fp<{ retiredMasterEmail: string; session: { idleMinutes: number; absoluteHours: number } }>(
  async (app, opts) => {
    app.decorateRequest('auth', null);
    app.decorateRequest('apiToken', null);
    app.decorateRequest('viaSecret', false);
    app.addHook('onRequest', async (request, reply) => {
      const access = accessOf(request);
      if (access === 'public') return;
      // Checked once the body is read (the preHandler below): the signature covers it.
      if (typeof access === 'object' && 'signed' in access) return;
      if (typeof access === 'object') {
        access.gate?.(request, reply);
        const secret = access.secret ? request.headers[access.secret.header] : undefined;
        if (access.secret && typeof secret === 'string' && request.headers.authorization === undefined) {
          if (secret.length > 256 || !(await access.secret.verify(request, secret))) {
            throw new HttpError(401, `The ${access.secret.header} header does not hold this endpoint's secret.`);
          }
          request.viaSecret = true;
          return;
        }
        request.apiToken = await app.apiTokens.authenticate(bearerToken(request), request.ip, access.token, app.clock.now());
        return;
      }
      const token = bearerToken(request);
      if (!token || token.length > 512) throw new HttpError(401, 'Sign-in required.');
      const found = await app.identity.findSession(token);
      if (!found) throw new HttpError(401, 'Your session has expired or is not valid. Please sign in again.');
      if (!app.identity.isAllowed(found.user, opts.retiredMasterEmail)) {
        throw new HttpError(403, 'This account may not use the admin console.');
      }
      request.auth = { user: found.user, sessionId: found.sessionId, token };
      // One query per request in the common case: the write happens only once a minute.
      if (app.identity.touchDue(found.lastSeenAt)) await app.identity.touchSession(found.sessionId, opts.session);
    });
    app.addHook('preHandler', async (request) => {
      const access = accessOf(request);
      if (typeof access !== 'object' || !('signed' in access)) return;
      const refusal = await access.signed.verify(request);
      if (refusal === null) return;
      await access.signed.refused?.(request, refusal);
      throw new HttpError(403, refusal);
    });
  },
  { name: 'auth', dependencies: ['db', 'pipeline', 'identity-repository', 'api-tokens-repository'] },
);
