import { Readable } from 'node:stream';
import type { ColumnDef } from '@admin/shared';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';

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

/** `<screen>-<yyyy-mm-dd>.csv`, e.g. `system-logs-2026-11-22.csv`. */
export function csvFileName(screen: string, now = new Date()): string {
  return `${screen}-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * Streams every row the batches yield as CSV: RFC 4180 quoting, CRLF line ends, BOM, the chosen
 * columns in the given order under their on-screen headers. Memory stays constant (one batch at
 * a time, with backpressure), and when the client goes away the stream is destroyed, which stops
 * the generator and so the queries.
 */
export function sendCsv<Row extends Record<string, unknown>>(
  reply: FastifyReply,
  fileName: string,
  columns: ColumnDef[],
  batches: AsyncIterable<Row[]>,
): FastifyReply {
  async function* records() {
    for await (const batch of batches) {
      for (const row of batch) yield columns.map((c) => neutralise(row[c.key]));
    }
  }
  const csv = stringify({ header: true, columns: columns.map((c) => c.label), record_delimiter: 'windows', bom: false });
  const source = Readable.from(records());
  source.on('error', (err) => csv.destroy(err));
  const body = source.pipe(csv);
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) source.destroy();
  });
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store');
  return reply.send(Readable.from(withBom(body)));
}

async function* withBom(body: AsyncIterable<unknown>) {
  yield BOM;
  yield* body;
}
