import { bigIdText, dataEnvelope, systemLogDetailSchema, systemLogResource } from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readOnlyRoutes } from '../../kit/read-only-routes.ts';
import { exportBatch, exportStatement } from './export.ts';
import { actorOptions, clientOptions, countLogs, findLog, listActors, listPage } from './repository.ts';

const def = systemLogResource;

/**
 * System Logs: read-only over the audit trail and the server's own warnings and errors. The
 * definition (packages/shared resources/system-logs.ts) gives the schemas, sorts, columns and CSV
 * headers; the routes are the kit's read-only ones (kit/read-only-routes.ts), over the module's plain-SQL
 * keyset query (the console's busiest read) whose columns already are the API's fields (list) or
 * the CSV's text (export), see repository.ts. No create, edit or status routes: entries are
 * written only by the server itself.
 */
export const systemLogRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(
    readOnlyRoutes(def, {
      list: listPage,
      count: countLogs,
      exportAudit: { action: 'system_logs.export', message: 'Exported system logs as CSV' },
      exportPage: exportBatch,
      exportStatement,
      // The Users and Clients filters page on the server as the user types.
      options: { actor: actorOptions, client: clientOptions },
      detail: { schema: systemLogDetailSchema, params: z.object({ id: bigIdText }), find: findLog, what: 'Log entry' },
    }),
  );

  /** Every actor at once; kept for API clients (the screen's Users filter pages on the server). */
  app.get(
    `${def.path}/filter-options`,
    {
      config: { access: 'superadmin' },
      schema: { response: { 200: dataEnvelope(z.object({ actors: z.array(z.object({ id: z.number(), name: z.string() })) })) } },
    },
    async () => ({ data: { actors: await listActors(app.db) } }),
  );
};
