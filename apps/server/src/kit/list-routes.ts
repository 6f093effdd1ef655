import { listEnvelope } from '@admin/shared';
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { csvFileName, exportColumns } from './csv.ts';
import { type ExportPage, formattedPages, sendCopiedCsv, sendCsv } from './csv-export.ts';
import { validated } from './validated.ts';

/** The paging part every list query has (`ResourceListQuery` in packages/shared). */
export type ListPaging = { perPage: number; cursor?: string | undefined };

/** A keyset page: its rows and the cursor of the next one (null at the end). */
export type Page<Row> = { rows: Row[]; nextCursor: string | null };

/** What the list and export routes read of a definition (`listRoutes`). */
export type ListDefinition<Rec, Query> = {
  path: string;
  screen: string;
  record: z.ZodType<Rec>;
  columns: readonly { key: string; label: string; defaultVisible?: boolean; format?: (row: Rec) => string | number | null }[];
  listQuerySchema: z.ZodType<Query>;
  exportQuerySchema: z.ZodType<Query & { columns?: string[] }>;
};

/** How one request's list is read: a page and how many records match. */
type ListReads<Rec, Query> = {
  page(request: FastifyRequest, q: Query, limit: number): Promise<Page<Rec>>;
  count(request: FastifyRequest, q: Query): Promise<{ total: number; totalIsEstimate: boolean }>;
  /**
   * The export's pages, rows keyed by column, when not the list's pages through the columns'
   * formats; `limit` is the kit's, paced to keep each page short (kit/csv-export.ts).
   */
  exportPage?(request: FastifyRequest, q: Query): ExportPage;
  /**
   * On PostgreSQL, the whole export as one statement whose columns are the chosen ones' cells in
   * order (db/copy-csv.ts `csvCell`), written by `COPY … TO STDOUT` instead of page by page.
   */
  exportStatement?(request: FastifyRequest, q: Query, columnKeys: readonly string[]): SQL;
  /** Once the export's first page is read, before anything is sent, with its filters (the query less columns and paging): e.g. an audit. */
  onExport?(request: FastifyRequest, filters: object): Promise<void>;
};

/**
 * `GET <path>` (a page, its total, `totalIsEstimate`) and `GET <path>/export` (every matching row
 * as CSV, the chosen columns under their on-screen headers): the same two routes for an editable
 * resource (`resourceRoutes`) and a read-only one (kit/read-only-routes.ts).
 */
export function listRoutes<Rec extends object, Query extends ListPaging>(
  app: FastifyInstance,
  def: ListDefinition<Rec, Query>,
  reads: ListReads<Rec, Query>,
): void {
  const listAnswer = listEnvelope(def.record).extend({ totalIsEstimate: z.boolean() });
  app.get(def.path, { schema: { querystring: def.listQuerySchema, response: { 200: listAnswer } } }, async (request) => {
    const q = validated<Query>(request.query);
    const [{ rows, nextCursor }, totals] = await Promise.all([reads.page(request, q, q.perPage), reads.count(request, q)]);
    return { data: rows, nextCursor, ...totals };
  });

  app.get(`${def.path}/export`, { schema: { querystring: def.exportQuerySchema } }, async (request, reply) => {
    const q = validated<Query & { columns?: string[] }>(request.query);
    const { columns: chosen, cursor: _cursor, perPage: _perPage, ...filters } = q;
    const columns = exportColumns(def.columns, chosen);
    const onStart = () => reads.onExport?.(request, filters) ?? Promise.resolve();
    const copyCsv = app.database.copyCsv;
    const statement =
      copyCsv &&
      reads.exportStatement?.(
        request,
        q,
        columns.map((c) => c.key),
      );
    if (copyCsv && statement) {
      const fileName = csvFileName(def.screen);
      const copied = await sendCopiedCsv(reply, { fileName, columns, copy: () => copyCsv(statement), onStart });
      if (copied) return copied;
    }
    const read = reads.exportPage?.(request, q) ?? formattedPages((cursor, limit) => reads.page(request, { ...q, cursor }, limit), columns);
    return sendCsv(reply, {
      fileName: csvFileName(def.screen),
      columns,
      read,
      onStart,
    });
  });
}
