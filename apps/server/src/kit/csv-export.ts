import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type ColumnDef, cellValue } from '@admin/shared';
import type { FastifyReply } from 'fastify';
import { crlfRecordEnds } from '../db/copy-csv.ts';
import { HttpError } from '../lib/http-error.ts';
import { errorClass, logServerError } from '../plugins/errors.ts';
import { csvRecords } from './csv.ts';

/** UTF-8 byte order mark: makes Excel read the file as UTF-8. */
const BOM = '\uFEFF';

/** One keyset page of an export: `limit` rows after `cursor` (the first page when undefined), cells keyed by column. */
export type ExportPage = (
  cursor: string | undefined,
  limit: number,
) => Promise<{ rows: Record<string, unknown>[]; nextCursor: string | null }>;

/**
 * How an export paces itself (docs/decisions/035-exports-that-yield.md). Each batch is sized so that
 * reading and encoding it takes about `targetMs`: the embedded database runs its queries on the
 * event loop's thread, so one query is as long as every other request waits, and encoding holds
 * the loop on either database. The size adapts batch by batch (rows cost differently per list and
 * per machine load), between `minRows` and `maxRows`.
 */
export type ExportPacing = { targetMs: number; firstRows: number; minRows: number; maxRows: number };
export const EXPORT_PACING: ExportPacing = { targetMs: 20, firstRows: 500, minRows: 100, maxRows: 5000 };

/** Exports written at once by one server; one more is refused (429) until one of them ends. */
export const MAX_RUNNING_EXPORTS = 2;
export const EXPORTS_BUSY_MESSAGE = `This server is already writing ${MAX_RUNNING_EXPORTS} exports. Try again when one of them has finished.`;

/**
 * The next batch's rows: the last batch's scaled to the target time, at most doubling or halving
 * at each step so one slow batch (a garbage collection, a busy machine) does not swing it.
 */
export function nextBatchRows(rows: number, ms: number, pacing: ExportPacing = EXPORT_PACING): number {
  const ideal = (rows * pacing.targetMs) / Math.max(ms, 1);
  const bounded = Math.min(rows * 2, Math.max(rows / 2, ideal));
  return Math.round(Math.min(pacing.maxRows, Math.max(pacing.minRows, bounded)));
}

/** Running exports per server (its Node HTTP server: one per app, shared by its encapsulated plugins). */
const running = new WeakMap<object, number>();

/** A place among the running exports, or a 429 when they are all taken; the release is safe to call twice. */
function takeSlot(server: object): () => void {
  const now = running.get(server) ?? 0;
  if (now >= MAX_RUNNING_EXPORTS) throw new HttpError(429, EXPORTS_BUSY_MESSAGE);
  running.set(server, now + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running.set(server, (running.get(server) ?? 1) - 1);
  };
}

/**
 * Streams every row the pages hold as CSV: RFC 4180 quoting, CRLF line ends, BOM, the chosen
 * columns in the given order under their on-screen headers (docs/decisions/006-csv-encoder.md).
 *
 * Nothing one export does may freeze the server's other requests (docs/decisions/035-exports-that-yield.md):
 * - one page at a time, sized by `pacing` so reading and encoding it holds the event loop (and the
 *   embedded database) for tens of milliseconds;
 * - after each page the loop takes a turn (`setImmediate`), so requests that arrived meanwhile
 *   start, and their queries queue on the embedded database before the export's next one;
 * - the next page is read only when the response has taken the last (a stream of one chunk piped
 *   to the socket, which waits for 'drain'), so a slow client slows the queries, not memory;
 * - at most MAX_RUNNING_EXPORTS run at once per server; another is answered 429 at once.
 * When the client goes away the stream is destroyed, which stops the pages.
 *
 * The first page is read before anything is sent, so a query that fails (a bad filter or cursor)
 * answers with the error envelope instead of a `200 text/csv` cut off half-way. A failure after
 * that can only end the connection; it is logged like any server error.
 */
export async function sendCsv(
  reply: FastifyReply,
  csv: {
    fileName: string;
    columns: readonly ColumnDef[];
    read: ExportPage;
    /** Once the first page is read, before anything is sent: e.g. the export's audit entry. */
    onStart?: () => Promise<void>;
    pacing?: ExportPacing;
  },
): Promise<FastifyReply> {
  const { fileName, columns, read, pacing = EXPORT_PACING } = csv;
  const release = takeSlot(reply.server.server);
  let limit = pacing.firstRows;
  let page: Awaited<ReturnType<ExportPage>>;
  let readMs: number;
  try {
    const started = performance.now();
    page = await read(undefined, limit);
    readMs = performance.now() - started;
    await csv.onStart?.();
  } catch (err) {
    release();
    throw err;
  }

  async function* chunks() {
    yield BOM + csvRecords([columns.map((c) => c.label)]);
    for (;;) {
      const encoding = performance.now();
      const rows = page.rows;
      if (rows.length > 0) yield csvRecords(rows.map((row) => columns.map((c) => row[c.key])));
      const cursor = page.nextCursor;
      if (!cursor) return;
      // The time this page held the loop: its read (on PGlite, the query itself) and its encoding,
      // not the wait at `yield` for the client to take it.
      limit = nextBatchRows(limit, readMs + (performance.now() - encoding), pacing);
      await nextTurn();
      const reading = performance.now();
      page = await read(cursor, limit);
      readMs = performance.now() - reading;
    }
  }
  // One chunk read ahead at most: the pipe to the socket pulls the next page only after 'drain'.
  return sendBody(reply, Readable.from(chunks(), { highWaterMark: 1 }), fileName, release);
}

/** Sends an export's body as a CSV attachment; a failure after the start is logged, a client gone stops it. */
function sendBody(reply: FastifyReply, body: Readable, fileName: string, release: () => void): FastifyReply {
  body.once('close', release);
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

/**
 * A keyset list's pages as an export's (`sendCsv`): each page's rows as the columns' values (a
 * column's `format`, the text the table shows).
 */
export function formattedPages<Row extends object>(
  page: (cursor: string | undefined, limit: number) => Promise<{ rows: Row[]; nextCursor: string | null }>,
  columns: readonly (ColumnDef & { format?: (row: Row) => string | number | null })[],
): ExportPage {
  return async (cursor, limit) => {
    const next = await page(cursor, limit);
    return {
      rows: next.rows.map((row) => Object.fromEntries(columns.map((c) => [c.key, cellValue(c, row)]))),
      nextCursor: next.nextCursor,
    };
  };
}

/**
 * An export PostgreSQL writes itself (`COPY … TO STDOUT`, db/copy-csv.ts), for a list whose export
 * statement computes every cell as `csvRecords` would (`csvCell`): the same file as `sendCsv`'s
 * (BOM, the headers, RFC 4180 quoting, CRLF), with no row built in Node. The bytes flow as the
 * client takes them: the copy's connection waits while the socket does. The first chunk is read
 * before anything is sent, as `sendCsv` reads its first page; null when the statement cannot be
 * copied (the caller exports page by page instead).
 */
export async function sendCopiedCsv(
  reply: FastifyReply,
  csv: { fileName: string; columns: readonly ColumnDef[]; copy: () => Promise<Readable | null>; onStart?: () => Promise<void> },
): Promise<FastifyReply | null> {
  const release = takeSlot(reply.server.server);
  let copied: Readable | null = null;
  let first: IteratorResult<Buffer>;
  let rest: AsyncIterator<Buffer>;
  try {
    copied = await csv.copy();
    if (!copied) {
      release();
      return null;
    }
    rest = copied[Symbol.asyncIterator]();
    first = await rest.next();
    await csv.onStart?.();
  } catch (err) {
    copied?.destroy();
    release();
    throw err;
  }
  const crlf = crlfRecordEnds();
  async function* chunks() {
    yield BOM + csvRecords([csv.columns.map((c) => c.label)]);
    if (first.done) return;
    yield crlf(first.value);
    // for await: a destroyed body returns this generator, which ends (and destroys) the copy.
    for await (const chunk of { [Symbol.asyncIterator]: () => rest }) yield crlf(chunk);
  }
  return sendBody(reply, Readable.from(chunks(), { highWaterMark: 1 }), csv.fileName, release);
}
