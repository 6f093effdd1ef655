import { bigIdText, dataEnvelope, reviewAlertReportCardsSchema, reviewAlertReportResource } from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readOnlyRoutes } from '../../kit/read-only-routes.ts';
import { validated } from '../../kit/validated.ts';
import { type Filters, readFilters } from './filters.ts';
import { countDeliveries, listPage, reportCards } from './repository.ts';
import { resendFailed } from './resend.ts';

const def = reviewAlertReportResource;
const resendAnswer = dataEnvelope(z.object({ id: z.number().int(), status: z.string(), reason: z.string().nullable() }));

/**
 * The Review Alerts Report (domain.md §27; issue 23): the list and its audited CSV export are the
 * kit's read-only routes over review_alert_deliveries (kit/read-only-routes.ts), the cards are
 * `GET <path>/cards` over the same filters, and Resend re-queues one failed delivery for the review
 * alert engine (apps/server/src/review-alerts/deliver.ts). Staff only: the access plugin's
 * default for /api routes (plugins/auth.ts).
 */
export const reviewAlertsReportRoutes: FastifyPluginAsyncZod = async (app) => {
  // Before the kit's own query check (a 400), so a bad filter is the 422 naming it (filters.ts).
  app.addHook('preValidation', async (request) => {
    if (request.method !== 'GET' || !request.url.startsWith(def.path)) return;
    const schema = request.url.startsWith(`${def.path}/export`) ? def.exportQuerySchema : def.listQuerySchema;
    await readFilters(app.db, schema, request.query);
  });

  await app.register(
    readOnlyRoutes(def, {
      list: listPage,
      count: countDeliveries,
      exportAudit: { action: 'review_alert_report.export', message: 'Exported the Review Alerts Report as CSV' },
    }),
  );

  app.get(
    `${def.path}/cards`,
    { schema: { querystring: def.listQuerySchema, response: { 200: dataEnvelope(reviewAlertReportCardsSchema) } } },
    async (request) => ({ data: await reportCards(app.db, validated<Filters>(request.query)) }),
  );

  app.post(
    `${def.path}/:id/resend`,
    { schema: { params: z.object({ id: bigIdText }), response: { 200: resendAnswer } } },
    async (request) => {
      const id = validated<{ id: number }>(request.params).id;
      return { data: await resendFailed(app.db, id, app.clock.now(), (entry, tx) => request.audit(entry, tx)) };
    },
  );
};
