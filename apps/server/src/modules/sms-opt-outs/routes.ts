import { smsOptOutResource } from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readOnlyRoutes } from '../../kit/read-only-routes.ts';
import { countOptOuts, listPage } from './repository.ts';

/**
 * SMS Text's opted-out phones (`GET /api/sms-opt-outs`, its CSV export audited): read by the kit's
 * read-only routes; the phones are written by an inbound STOP (apps/server/src/deliverability/sms)
 * and by surveys' unsubscribe links (apps/server/src/public/repository.ts).
 */
export const smsOptOutRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(
    readOnlyRoutes(smsOptOutResource, {
      list: listPage,
      count: countOptOuts,
      exportAudit: { action: 'sms_opt_outs.export', message: 'Exported opted-out phones as CSV' },
    }),
  );
};
