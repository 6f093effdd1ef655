import { Readable } from 'node:stream';
import { type ColumnDef, cellValue } from '@admin/shared';
import type { FastifyReply } from 'fastify';
import { errorClass, logServerError } from '../plugins/errors.ts';

/** UTF-8 byte order mark: makes Excel read the file as UTF-8. */
const BOM = '\uFEFF';

/**
 * OWASP CSV injection: a cell that starts with = + - @ tab or CR could run as a formula in a
 * spreadsheet, so it is prefixed with a single quote.
 */
export function neutralise(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One RFC 4180 field: quoted (quotes doubled) only when it holds a quote, comma, CR or LF. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 records with CRLF line ends, every cell neutralised against formula injection. */
export function csvRecords(records: unknown[][]): string {
  let out = '';
  for (const record of records) out += `${record.map((v) => csvField(neutralise(v))).join(',')}\r\n`;
  return out;
}

/** `<screen>-<yyyy-mm-dd>.csv`, e.g. `system-logs-2026-11-22.csv`. */
export function csvFileName(screen: string, now = new Date()): string {
  return `${screen}-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * Streams every row the batches yield as CSV: RFC 4180 quoting, CRLF line ends, BOM, the chosen
 * columns in the given order under their on-screen headers. One batch is encoded at a time into
 * one string (per-record streaming cost 4× the throughput; docs/decisions/006-csv-encoder.md), so
 * memory stays at one batch, with backpressure. When the client goes away the stream is
 * destroyed, which stops the generator and so the queries.
 *
 * The first batch is fetched before anything is sent, so a query that fails (a bad filter or
 * cursor) answers with the error envelope instead of a `200 text/csv` cut off half-way. A failure
 * after that can only end the connection; it is logged like any server error.
 */
export async function sendCsv<Row extends Record<string, unknown>>(
  reply: FastifyReply,
  fileName: string,
  columns: ColumnDef[],
  batches: AsyncIterable<Row[]>,
): Promise<FastifyReply> {
  const iterator = batches[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* chunks() {
    yield BOM + csvRecords([columns.map((c) => c.label)]);
    for (let next = first; !next.done; next = await iterator.next()) {
      if (next.value.length > 0) yield csvRecords(next.value.map((row) => columns.map((c) => row[c.key])));
    }
  }
  const body = Readable.from(chunks());
  body.on('error', (err) => {
    reply.request.log.error({ err }, 'CSV export failed after it started');
    void logServerError(reply.request, 500, errorClass(err));
  });
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) body.destroy();
  });
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store');
  return reply.send(body);
}

/** The columns an export writes: those chosen, in their order, else those shown by default. */
export function exportColumns<C extends ColumnDef>(all: readonly C[], chosen: readonly string[] | undefined): C[] {
  if (!chosen) return all.filter((c) => c.defaultVisible !== false);
  return chosen.map((key) => all.find((c) => c.key === key)).filter((c): c is C => c !== undefined);
}

/**
 * A keyset list read page after page to its end, for `sendCsv`: each page's rows as the columns'
 * values (a column's `format`, the text the table shows).
 */
export async function* pagedRows<Row extends object>(
  page: (cursor: string | undefined) => Promise<{ rows: Row[]; nextCursor: string | null }>,
  columns: readonly (ColumnDef & { format?: (row: Row) => string | number | null })[],
): AsyncGenerator<Record<string, unknown>[]> {
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    yield next.rows.map((row) => Object.fromEntries(columns.map((c) => [c.key, cellValue(c, row)])));
    cursor = next.nextCursor ?? undefined;
  } while (cursor);
}
