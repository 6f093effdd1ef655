import { bigIdText, sesEventDetailSchema, sesEventResource } from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readOnlyRoutes } from '../../kit/read-only-routes.ts';
import { countEvents, findEvent, listPage } from './repository.ts';

/**
 * SES Logs (domain.md §24): read-only over `ses_events`, which the SES ingest writes. The definition
 * (packages/shared resources/ses-events.ts) gives the schemas, sort, columns and CSV headers; the
 * list, export and detail (the raw JSON) are the kit's read-only routes; the Clients filter's
 * options are Tracking Logs' (the definition's `optionsPath`).
 */
export const sesLogRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(
    readOnlyRoutes(sesEventResource, {
      list: listPage,
      count: countEvents,
      exportAudit: { action: 'ses_events.export', message: 'Exported SES logs as CSV' },
      detail: { schema: sesEventDetailSchema, params: z.object({ id: bigIdText }), find: findEvent, what: 'SES event' },
    }),
  );
};
