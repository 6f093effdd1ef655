import { Readable } from 'node:stream';
import type { ColumnDef } from '@admin/shared';
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
 * one string (per-record streaming cost 4× the throughput; docs/decisions/006-csv-encoder.md), so memory stays at one batch, with
 * backpressure. When the client goes away the stream is destroyed, which stops the generator
 * and so the queries.
 */
export function sendCsv<Row extends Record<string, unknown>>(
  reply: FastifyReply,
  fileName: string,
  columns: ColumnDef[],
  batches: AsyncIterable<Row[]>,
): FastifyReply {
  async function* chunks() {
    yield BOM + csvRecords([columns.map((c) => c.label)]);
    for await (const batch of batches) {
      if (batch.length > 0) yield csvRecords(batch.map((row) => columns.map((c) => row[c.key])));
    }
  }
  const body = Readable.from(chunks());
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) body.destroy();
  });
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store');
  return reply.send(body);
}
