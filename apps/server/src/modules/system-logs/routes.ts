import {
  bigIdText,
  dataEnvelope,
  listEnvelope,
  systemLogColumns,
  systemLogDetailSchema,
  systemLogExportQuerySchema,
  systemLogListQuerySchema,
  systemLogSchema,
} from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvFileName, sendCsv } from '../../kit/csv.ts';
import { notFound } from '../../lib/http-error.ts';
import { countLogs, exportBatch, findLog, listActors, listPage } from './repository.ts';

/**
 * Rows per export query. On PGlite (one connection) short queries let other requests through
 * between batches; a PostgreSQL server takes bigger ones.
 */
const EXPORT_BATCH = { pglite: 2000, pg: 10_000 } as const;

/** System Logs: read-only over the audit trail and the server's own warnings and errors. */
export const systemLogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/system-logs',
    {
      config: { access: 'superadmin' },
      schema: {
        querystring: systemLogListQuerySchema,
        response: { 200: listEnvelope(systemLogSchema).extend({ totalIsEstimate: z.boolean() }) },
      },
    },
    async (request) => {
      const q = request.query;
      const [{ rows, nextCursor }, totals] = await Promise.all([listPage(app.db, q, q.perPage), countLogs(app.db, q)]);
      return { data: rows, nextCursor, ...totals };
    },
  );

  app.get(
    '/api/system-logs/export',
    { config: { access: 'superadmin' }, schema: { querystring: systemLogExportQuerySchema } },
    async (request, reply) => {
      const { columns: chosen, cursor: _ignored, perPage: _perPage, ...q } = request.query;
      const columns = chosen
        ? chosen.map((key) => systemLogColumns.find((c) => c.key === key)).filter((c) => c !== undefined)
        : systemLogColumns.filter((c) => c.defaultVisible);
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
      return sendCsv(reply, csvFileName('system-logs'), columns, batches());
    },
  );

  app.get(
    '/api/system-logs/filter-options',
    {
      config: { access: 'superadmin' },
      schema: { response: { 200: dataEnvelope(z.object({ actors: z.array(z.object({ id: z.number(), name: z.string() })) })) } },
    },
    async () => ({ data: { actors: await listActors(app.db) } }),
  );

  app.get(
    '/api/system-logs/:id',
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
