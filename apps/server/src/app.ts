import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ErrorEnvelope } from '@admin/shared';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { alertPublicRoutes } from './alerts/public-routes.ts';
import { alertTestRoute } from './alerts/test-route.ts';
import { surveyAlertEventRoutes } from './alerts/unsent/routes.ts';
import type { Config } from './config.ts';
import { type Database, isEmpty, openDatabase } from './db/client.ts';
import { sesEventRoutes } from './deliverability/ses/routes.ts';
import { smsCallbackRoutes } from './deliverability/sms/routes.ts';
import { OneLineRequestLog } from './lib/request-log.ts';
import { serializerCompiler } from './lib/serializer.ts';
import { messagingPlugin } from './messaging/plugin.ts';
import { acPerformanceReportRoutes } from './modules/ac-performance-report/routes.ts';
import { apiEndpointRoutes } from './modules/api-endpoints/routes.ts';
import { apiTokensRepository } from './modules/api-tokens/repository.ts';
import { apiTokenRoutes } from './modules/api-tokens/routes.ts';
import { clientUserRoutes } from './modules/client-users/routes.ts';
import { clientsRepository } from './modules/clients/repository.ts';
import { clientRoutes } from './modules/clients/routes.ts';
import { dataFeedRoutes } from './modules/data-feeds/routes.ts';
import { identityRepository } from './modules/identity/repository.ts';
import { identityRoutes } from './modules/identity/routes.ts';
import { listingRoutes } from './modules/listings/routes.ts';
import { locationRoutes } from './modules/locations/routes.ts';
import { personnelRepository } from './modules/personnel/repository.ts';
import { personnelRoutes } from './modules/personnel/routes.ts';
import { personnelMergeRoutes } from './modules/personnel-merge/routes.ts';
import { preferenceRoutes } from './modules/preferences/routes.ts';
import { productRoutes } from './modules/products/routes.ts';
import { referralSourceRoutes } from './modules/referral-sources/routes.ts';
import { reputationRoutes } from './modules/reputation/routes.ts';
import { reviewAlertRuleRoutes } from './modules/review-alert-rules/routes.ts';
import { reviewAlertsReportRoutes } from './modules/review-alerts-report/routes.ts';
import { sesBounceRoutes } from './modules/ses-bounce/routes.ts';
import { sesLogRoutes } from './modules/ses-logs/routes.ts';
import { smsOptOutRoutes } from './modules/sms-opt-outs/routes.ts';
import { smsTemplateRoutes } from './modules/sms-templates/routes.ts';
import { surveyAlertRuleRoutes } from './modules/survey-alert-rules/routes.ts';
import { surveyManagerLogRoutes } from './modules/survey-manager-logs/routes.ts';
import { surveyProcessingRoutes } from './modules/survey-processing/routes.ts';
import { surveyResponseRoutes } from './modules/survey-responses/routes.ts';
import type { DnsResolver } from './modules/survey-settings/domain-check.ts';
import { surveySettingsRepository } from './modules/survey-settings/repository.ts';
import { surveySettingsRoutes } from './modules/survey-settings/routes.ts';
import { surveyRoutes } from './modules/surveys/routes.ts';
import { systemLogRoutes } from './modules/system-logs/routes.ts';
import { testClockRoutes } from './modules/test-clock/routes.ts';
import { testimonialRoutes } from './modules/testimonials/routes.ts';
import { trackingLogRoutes } from './modules/tracking-logs/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { type ControlledClock, controlledClock, systemClock } from './pipeline/clock.ts';
import { secretBox } from './pipeline/ingest/secret.ts';
import { pipelinePlugin } from './pipeline/plugin.ts';
import type { Clock } from './pipeline/types.ts';
import { auditPlugin } from './plugins/audit.ts';
import { type Access, authPlugin } from './plugins/auth.ts';
import { clientScopePlugin } from './plugins/client-scope.ts';
import { corsPlugin } from './plugins/cors.ts';
import { dbPlugin } from './plugins/db.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { inputGuardPlugin } from './plugins/input-guard.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { readIndexHtml, spaPlugin } from './plugins/spa.ts';
import { publicRoutes } from './public/routes.ts';
import { reportScheduleRoutes } from './report-schedules/routes.ts';
import { figuresByClient } from './reports/performance/by-client.ts';
import { reportRoutes } from './reports/routes.ts';
import { amplificationRoutes } from './reputation/amplify/routes.ts';
import { reviewIngestRoutes } from './reputation/ingest/routes.ts';
import { reviewAlertTestRoute } from './review-alerts/test-route.ts';
import { seedDemoData } from './seed/demo.ts';

/** The zod schemas a route declared for its input; the fuzz suite generates requests from them. */
export type RouteSchemas = { params?: unknown; querystring?: unknown; body?: unknown };

export type RouteInfo = {
  method: string;
  url: string;
  /** Read when asked, so a plugin's own onRoute hook (the console's files) can declare its routes public. */
  readonly access: Access;
  schema: RouteSchemas;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, with its declared access; the auth-matrix test walks it. */
    routeTable: RouteInfo[];
  }
}

export type BuildOptions = {
  /** An already opened (and migrated) database, e.g. shared by a test file. Closed by the caller. */
  database?: Database;
  /** The DNS lookups of Survey Admin's sender domain check; tests pass a fake so they never touch the network. */
  dnsResolver?: DnsResolver;
  /** Fetches an SNS signing certificate (PEM) by URL; tests pass their own so they never touch the network. */
  snsCertificate?: (url: string) => Promise<string>;
  /** GETs an SNS SubscribeURL; tests pass their own. */
  snsConfirm?: (url: string) => Promise<string>;
  /** Where "now" comes from for the pipeline and the messenger; tests pass a clock they move. */
  clock?: Clock;
};

/**
 * Builds the whole server without listening: tests call `buildApp()` and `app.inject()`.
 * Opens the database, applies migrations and loads demo data into an empty database when asked.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    logController: new OneLineRequestLog(),
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Node's default leaves the body's arrival time unbounded (a body sent one byte every few
    // seconds would hold a connection forever); headers must arrive within the same bound.
    requestTimeout: config.requestTimeoutMs,
    frameworkErrors: answerRouterRefusal,
    http: {
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
      // Node checks the timeouts every 30 s by default, which would let a slow client overstay.
      connectionsCheckingInterval: Math.min(5_000, Math.ceil(config.requestTimeoutMs / 2)),
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const ownsDatabase = !options.database;
  const database = options.database ?? (await openDatabase(config.database, (err) => app.log.error({ err }, 'database pool error')));
  if (ownsDatabase) {
    await database.migrate();
    if (config.demoData && (await isEmpty(database.db))) {
      app.log.info('Empty database: loading demo data');
      await seedDemoData(database.db, config);
    }
    app.addHook('onClose', async () => database.close());
  }

  app.decorate('routeTable', [] as RouteInfo[]);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const schema = (route.schema ?? {}) as RouteSchemas;
      app.routeTable.push({
        method,
        url: route.url,
        get access() {
          return route.config?.access ?? 'superadmin';
        },
        schema: { params: schema.params, querystring: schema.querystring, body: schema.body },
      });
    }
  });

  await app.register(fastifyCookie);
  await app.register(dbPlugin, { database });
  await app.register(auditPlugin);
  await app.register(clientsRepository);
  await app.register(apiTokensRepository, { retiredMasterEmail: config.retiredMasterEmail });
  await app.register(identityRepository);
  await app.register(personnelRepository);
  await app.register(surveySettingsRepository);
  // CLOCK_CONTROL=on (browser tests): the system clock with an offset /api/test-clock moves.
  const controlled: ControlledClock | null = config.clockControl && !options.clock ? controlledClock() : null;
  const clock = options.clock ?? controlled ?? systemClock;
  await app.register(messagingPlugin, { config: config.messaging, options: { now: () => clock.now() } });
  // One key for the SFTP passwords the feeds store and the pulls read.
  const secrets = secretBox(config);
  await app.register(pipelinePlugin, {
    clock,
    workers: config.workers,
    ingest: { secrets, allowPrivateHosts: config.sftpAllowPrivate, providers: config.providers },
    retention: config.retention,
  });
  await app.register(errorsPlugin, { indexHtml: readIndexHtml(config.webDistDir) });
  await app.register(corsPlugin, { origins: config.corsOrigins });
  await app.register(inputGuardPlugin);
  await app.register(authPlugin, { retiredMasterEmail: config.retiredMasterEmail, session: config.session });
  await app.register(clientScopePlugin);
  await app.register(securityHeadersPlugin, {
    connectOrigins: [config.publicUrls.api, config.publicUrls.reputation, config.publicUrls.identity]
      .filter((u) => u !== '')
      .map((u) => new URL(u).origin),
  });

  await app.register(identityRoutes, {
    retiredMasterEmail: config.retiredMasterEmail,
    cookieDomain: config.cookieDomain,
    session: config.session,
    loginLimits: config.loginLimits,
    passwordHashCost: config.passwordHashCost,
  });
  await app.register(clientRoutes);
  await app.register(userRoutes);
  await app.register(clientUserRoutes);
  await app.register(systemLogRoutes);
  await app.register(trackingLogRoutes);
  await app.register(sesLogRoutes);
  await app.register(sesBounceRoutes);
  await app.register(sesEventRoutes, {
    topicArns: config.sesSnsTopicArns,
    ...(options.snsCertificate ? { certificate: options.snsCertificate } : {}),
    ...(options.snsConfirm ? { confirm: options.snsConfirm } : {}),
    now: () => clock.now(),
  });
  await app.register(smsCallbackRoutes, {
    authToken: config.smsAuthToken,
    baseUrl: config.messaging.publicBaseUrl,
    now: () => clock.now(),
  });
  await app.register(smsOptOutRoutes);
  await app.register(locationRoutes);
  await app.register(productRoutes);
  await app.register(personnelRoutes);
  await app.register(personnelMergeRoutes);
  await app.register(referralSourceRoutes);
  await app.register(smsTemplateRoutes);
  await app.register(surveySettingsRoutes, { resolver: options.dnsResolver });
  await app.register(surveyRoutes);
  await app.register(surveyAlertRuleRoutes);
  await app.register(alertTestRoute);
  await app.register(surveyAlertEventRoutes);
  await app.register(dataFeedRoutes, { secrets, allowPrivateHosts: config.sftpAllowPrivate });
  await app.register(preferenceRoutes);
  await app.register(publicRoutes, { now: () => clock.now() });
  await app.register(alertPublicRoutes, { now: () => clock.now() });
  await app.register(surveyResponseRoutes);
  await app.register(testimonialRoutes, { publicBaseUrl: config.messaging.publicBaseUrl });
  await app.register(surveyProcessingRoutes);
  await app.register(surveyManagerLogRoutes);
  await app.register(apiTokenRoutes);
  await app.register(apiEndpointRoutes);
  await app.register(reviewIngestRoutes, { secrets, providers: config.providers });
  await app.register(amplificationRoutes, { now: () => clock.now() });
  await app.register(reputationRoutes);
  await app.register(reviewAlertRuleRoutes);
  await app.register(reviewAlertTestRoute);
  await app.register(reportRoutes);
  await app.register(reviewAlertsReportRoutes);
  await app.register(acPerformanceReportRoutes, { figuresByClient });
  await app.register(reportScheduleRoutes);
  await app.register(listingRoutes);
  if (controlled) {
    app.log.warn('CLOCK_CONTROL is on: a signed-in administrator can move the pipeline clock (browser tests only)');
    await app.register(testClockRoutes, { clock: controlled });
  }

  app.get('/healthz', { config: { access: 'public' } }, async () => {
    await database.db.execute('select 1');
    return { data: { status: 'ok' } };
  });

  if (config.webDistDir)
    await app.register(spaPlugin, {
      distDir: config.webDistDir,
      publicUrls: config.publicUrls,
      retiredMasterEmail: config.retiredMasterEmail,
      cookieDomain: config.cookieDomain,
      apiCallLogRetentionDays: config.retention.apiCallLogsDays,
    });
  return app;
}

/** The router refuses a path it cannot decode or a parameter over 100 characters before any hook runs. */
function answerRouterRefusal(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  // Answered in the one envelope, without echoing the URL (it may carry data) back.
  const body: ErrorEnvelope =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? { message: 'A path parameter is too long (at most 100 characters).', statusCode: 414 }
      : { message: 'The path is not a valid URL: it has a broken percent-escape or invalid UTF-8.', statusCode: 400 };
  void reply.code(body.statusCode).send(body);
}

/** Trust the nearest `hops` addresses in the forwarding chain (the proxies in front of us). */
function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** Where `npm run build` puts the web app, relative to the server package. */
export function defaultWebDistDir(serverRoot: string): string {
  return join(serverRoot, '..', 'web', 'dist');
}
