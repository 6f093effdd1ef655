import {
  dataEnvelope,
  type ErrorEnvelope,
  errorEnvelopeSchema,
  INVALID_CREDENTIALS_MESSAGE,
  loginBodySchema,
  loginRejectionMessage,
  loginResultSchema,
  SSO_COOKIE,
  userSchema,
} from '@admin/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { dummyPasswordHash, verifyPassword } from '../../lib/crypto.ts';
import { HttpError } from '../../lib/http-error.ts';
import { bearerToken } from '../../plugins/auth.ts';
import { createSession, findUserByEmail, isAllowed, markLoggedIn, revokeSession, toUser } from './repository.ts';
import { admitLoginAttempt, markAttemptSucceeded, recordRefusal } from './throttle.ts';

type Options = Pick<Config, 'retiredMasterEmail' | 'cookieDomain' | 'session' | 'loginLimits' | 'passwordHashCost'>;

const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many failed sign-in attempts. Please wait a few minutes and try again.';

/** The identity host: sign-in, the signed-in user, sign-out (docs/overview.md, Signing in). */
export const identityRoutes: FastifyPluginAsyncZod<Options> = async (app, opts) => {
  // Made now rather than on the first unknown e-mail, so that first answer is not slower either.
  await dummyPasswordHash(opts.passwordHashCost);

  function setSsoCookie(request: FastifyRequest, reply: FastifyReply, value: string, expires: Date) {
    reply.setCookie(SSO_COOKIE, value, {
      path: '/',
      domain: opts.cookieDomain ?? undefined,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      // The browser reads this cookie to start the single-sign-on flow (docs/overview.md, Signing in), so not HttpOnly.
      httpOnly: false,
      expires,
    });
  }

  app.post(
    '/api/login',
    {
      config: { access: 'public' },
      schema: { body: loginBodySchema, response: { 200: dataEnvelope(loginResultSchema), 429: errorEnvelopeSchema } },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const refusal = { ip: request.ip, email, requestId: request.id, windowMinutes: opts.loginLimits.windowMinutes } as const;
      // Throttled per account-and-address and per address (docs/decisions/012-sign-in-throttling.md).
      const admission = await admitLoginAttempt(app.db, email, request.ip, opts.loginLimits);
      if (!admission.admitted) {
        await recordRefusal(app.db, { ...refusal, kind: 'throttled', now: new Date() });
        // Answered here, not thrown: a refused attempt must stay this cheap (no password check,
        // no log row of its own; the summary above is the record).
        const body: ErrorEnvelope = { message: TOO_MANY_ATTEMPTS_MESSAGE, statusCode: 429 };
        return reply.code(429).header('retry-after', String(admission.retryAfterSeconds)).send(body);
      }
      const user = await findUserByEmail(app.db, email);
      // Unknown accounts and accounts without a password check against the dummy hash: one KDF
      // run on every path, so timing does not tell which e-mails have accounts.
      const passwordOk = await verifyPassword(
        password,
        user?.passwordHash ?? (await dummyPasswordHash(opts.passwordHashCost)),
        opts.passwordHashCost,
      );
      if (!user?.passwordHash || !passwordOk) {
        await recordRefusal(app.db, { ...refusal, kind: 'failed', now: new Date() });
        throw new HttpError(401, INVALID_CREDENTIALS_MESSAGE);
      }
      await markAttemptSucceeded(app.db, admission.attemptId);
      if (!isAllowed(user, opts.retiredMasterEmail)) {
        await request.audit({
          action: 'auth.login.refused',
          level: 'warn',
          service: 'auth',
          message: `Sign-in refused for ${user.email}`,
          actorUserId: user.id,
          entityType: 'user',
          entityId: user.id,
        });
        throw new HttpError(403, loginRejectionMessage(user.email));
      }
      const session = await createSession(app.db, user.id, request.ip, opts.session);
      await markLoggedIn(app.db, user.id);
      await request.audit({
        action: 'auth.login',
        service: 'auth',
        message: `${user.name} signed in`,
        actorUserId: user.id,
        entityType: 'user',
        entityId: user.id,
      });
      setSsoCookie(request, reply, session.token, session.expiresAt);
      return { data: { token: session.token } };
    },
  );

  app.get(
    '/api/user',
    { config: { access: 'superadmin', anyClient: true }, schema: { response: { 200: dataEnvelope(z.object({ user: userSchema })) } } },
    async (request) => {
      const auth = request.auth;
      if (!auth) throw new HttpError(401, 'Sign-in required.');
      return { data: { user: toUser(auth.user) } };
    },
  );

  // Public on purpose: signing out must work with an expired token too. It only revokes the
  // token the caller presents, so it gives nothing to someone without one.
  app.post('/api/logout', { config: { access: 'public' } }, async (request, reply) => {
    // The session is the bearer token's or, for a browser signing out with only its cookie, the ssoToken cookie's.
    const token = bearerToken(request) ?? request.cookies[SSO_COOKIE] ?? null;
    if (token && token.length <= 512) {
      const userId = await revokeSession(app.db, token);
      if (userId !== undefined) {
        await request.audit({
          action: 'auth.logout',
          service: 'auth',
          message: 'Signed out',
          actorUserId: userId,
          entityType: 'user',
          entityId: userId,
        });
      }
    }
    setSsoCookie(request, reply, '', new Date(0));
    return reply.code(204).send();
  });
};
