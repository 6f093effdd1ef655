import {
  dataEnvelope,
  type FilterSpec,
  idParamSchema,
  type OptionsAnswer,
  type OptionsQuery,
  optionsAnswerSchema,
  optionsQuery,
  optionsQuerySchema,
} from '@admin/shared';
import type { SQL } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import { notFound } from '../lib/http-error.ts';
import { type ListDefinition, type ListPaging, listRoutes, type Page } from './list-routes.ts';
import { validated } from './validated.ts';

/**
 * What a read-only screen's module gives the kit (System Logs, Tracking Logs, Survey Manager):
 * how a page is read and counted, its filters' options and its detail. Records are never
 * created, edited or given a status here; a module adds its own few actions beside these routes.
 */
export type ReadOnlyStore<Rec, Query, Detail> = {
  /** A page of the list: `limit` rows after `q.cursor`, every client's unless a filter narrows them. */
  list(db: Db, q: Query, limit: number): Promise<Page<Rec>>;
  count(db: Db, q: Query): Promise<{ total: number; totalIsEstimate: boolean }>;
  /** The export's audit entry (its entity type is the definition's name); `after` holds the filters. */
  exportAudit: { action: string; message: string };
  /**
   * Export pages whose rows already are the CSV's cells, keyed by column (System Logs writes them
   * in SQL, its export's hot path); the list's pages through the columns' formats when absent.
   * `limit` is the kit's, paced to keep each page short (kit/csv-export.ts).
   */
  exportPage?(db: Db, q: Query, limit: number): Promise<Page<Record<string, unknown>>>;
  /** On PostgreSQL, the export as one statement of the chosen columns' cells, copied (kit/list-routes.ts). */
  exportStatement?(q: Query, columnKeys: readonly string[]): SQL;
  /** The filters whose options are served here, `GET <path>/options/<filter>`, paged as the user types. */
  options?: Record<string, (db: Db, q: OptionsQuery) => Promise<OptionsAnswer>>;
  /** `GET <path>/:id`: one record as the detail panel shows it, or a 404 that says `what` was not found. */
  detail?: {
    schema: z.ZodType<Detail>;
    /** The `:id` parameter; a positive int4 (`idParamSchema`) when absent. */
    params?: z.ZodType<{ id: number }>;
    find(db: Db, id: number): Promise<Detail | undefined>;
    what: string;
  };
};

/**
 * List, export, options and (when the store has a detail) get-one routes of a read-only resource,
 * under its collection path: the same list and export routes as `resourceRoutes`, with the export
 * audited, and none of its create, edit, status or import routes.
 */
export function readOnlyRoutes<Rec extends object, Query extends ListPaging, Detail>(
  def: ListDefinition<Rec, Query> & { name: string; filters: Readonly<Record<string, FilterSpec>> },
  // The types come from the definition; the store's functions are checked against them.
  store: ReadOnlyStore<NoInfer<Rec>, NoInfer<Query>, Detail>,
): FastifyPluginAsync {
  // Every filter whose options the screen asks this collection for has them here.
  for (const [key, filter] of Object.entries(def.filters)) {
    if ('item' in filter && !filter.optionsPath && !store.options?.[key]) {
      throw new Error(`${def.name}: the store gives no options for the ${key} filter`);
    }
  }
  return async (app) => {
    const { exportPage, exportStatement } = store;
    listRoutes(app, def, {
      page: (_request, q, limit) => store.list(app.db, q, limit),
      count: (_request, q) => store.count(app.db, q),
      ...(exportPage ? { exportPage: (_request, q) => (cursor, limit) => exportPage(app.db, { ...q, cursor }, limit) } : {}),
      ...(exportStatement ? { exportStatement: (_request, q, keys) => exportStatement(q, keys) } : {}),
      onExport: (request, filters) => request.audit({ ...store.exportAudit, entityType: def.name, after: filters }),
    });

    for (const [filter, find] of Object.entries(store.options ?? {})) {
      // A chosen value is checked as the list's filter checks it (an id in its column's range, a location id…).
      const spec = def.filters[filter];
      const querystring = spec && 'item' in spec ? optionsQuery(spec.item) : optionsQuerySchema;
      app.get(`${def.path}/options/${filter}`, { schema: { querystring, response: { 200: optionsAnswerSchema } } }, async (request) =>
        find(app.db, validated<OptionsQuery>(request.query)),
      );
    }

    const detail = store.detail;
    if (detail) {
      app.get(
        `${def.path}/:id`,
        { schema: { params: detail.params ?? idParamSchema, response: { 200: dataEnvelope(detail.schema) } } },
        async (request) => {
          const found = await detail.find(app.db, validated<{ id: number }>(request.params).id);
          if (!found) throw notFound(detail.what);
          return { data: found };
        },
      );
    }
  };
}
