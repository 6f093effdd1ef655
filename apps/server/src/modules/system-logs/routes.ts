import {
  bigIdText,
  dataEnvelope,
  listEnvelope,
  optionsAnswerSchema,
  optionsQuerySchema,
  systemLogDetailSchema,
  systemLogResource,
} from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvFileName, exportColumns, sendCsv } from '../../kit/csv.ts';
import { notFound } from '../../lib/http-error.ts';
import { actorOptions, clientOptions, countLogs, exportBatch, findLog, listActors, listPage } from './repository.ts';

const def = systemLogResource;

/**
 * Rows per export query. On PGlite (one connection) short queries let other requests through
 * between batches; a PostgreSQL server takes bigger ones.
 */
const EXPORT_BATCH = { pglite: 2000, pg: 10_000 } as const;

/**
 * System Logs: read-only over the audit trail and the server's own warnings and errors. The
 * definition (packages/shared resources/system-logs.ts) gives the schemas, sorts, columns and CSV
 * headers; the list and the export are this module's own rather than the kit's `resourceRoutes`,
 * since this is the console's busiest read: one plain-SQL keyset query whose columns already are
 * the API's fields (list) or the CSV's text (export), see repository.ts. No create, edit or status
 * routes: entries are written only by the server itself.
 */
export const systemLogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    def.path,
    {
      config: { access: 'superadmin' },
      schema: {
        querystring: def.listQuerySchema,
        response: { 200: listEnvelope(def.record).extend({ totalIsEstimate: z.boolean() }) },
      },
    },
    async (request) => {
      const q = request.query;
      const [{ rows, nextCursor }, totals] = await Promise.all([listPage(app.db, q, q.perPage), countLogs(app.db, q)]);
      return { data: rows, nextCursor, ...totals };
    },
  );

  app.get(
    `${def.path}/export`,
    { config: { access: 'superadmin' }, schema: { querystring: def.exportQuerySchema } },
    async (request, reply) => {
      const { columns: chosen, cursor: _ignored, perPage: _perPage, ...q } = request.query;
      const columns = exportColumns(def.columns, chosen);
      const db = app.db;
      async function* batches(): AsyncGenerator<Record<string, string | null>[]> {
        let cursor: string | undefined;
        do {
          const page = await exportBatch(db, { ...q, ...(cursor ? { cursor } : {}) }, EXPORT_BATCH[app.database.kind]);
          yield page.rows;
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      }
      await request.audit({ action: 'system_logs.export', message: 'Exported system logs as CSV', entityType: 'system_log', after: q });
      return sendCsv(reply, csvFileName(def.screen), columns, batches());
    },
  );

  // The Users and Clients filters page on the server as the user types (`optionsQuerySchema`).
  const options = { actor: actorOptions, client: clientOptions } as const;
  for (const [filter, find] of Object.entries(options)) {
    app.get(
      `${def.path}/options/${filter}`,
      { config: { access: 'superadmin' }, schema: { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } } },
      async (request) => find(app.db, request.query),
    );
  }

  /** Every actor at once; kept for API clients (the screen's Users filter pages on the server). */
  app.get(
    `${def.path}/filter-options`,
    {
      config: { access: 'superadmin' },
      schema: { response: { 200: dataEnvelope(z.object({ actors: z.array(z.object({ id: z.number(), name: z.string() })) })) } },
    },
    async () => ({ data: { actors: await listActors(app.db) } }),
  );

  app.get(
    `${def.path}/:id`,
    {
      config: { access: 'superadmin' },
      schema: {
        params: z.object({ id: bigIdText }),
        response: { 200: dataEnvelope(systemLogDetailSchema) },
      },
    },
    async (request) => {
      const log = await findLog(app.db, request.params.id);
      if (!log) throw notFound('Log entry');
      return { data: log };
    },
  );
};
