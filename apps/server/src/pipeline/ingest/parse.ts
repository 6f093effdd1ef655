import { DELIMITER_CHARS, type FeedDelimiter } from '@admin/shared';
import { MAX_FEED_FILE_BYTES } from '@admin/shared/resources/data-feeds';
import { CsvError, type Info, type Options, type Parser, parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';

/** The longest a single record may be (a runaway quote would otherwise swallow the file). */
const MAX_RECORD_BYTES = 64 * 1024;

/**
 * One data row of a file: its line (the header is line 1, so a file's first data row is line 2;
 * without a header it is line 1) and its values by column. Every feed and import message names a
 * row by this line (docs/decisions/041-line-numbers-and-zoned-times.md).
 */
export type FeedRecord = { rowNumber: number; raw: Record<string, string> };
export type ParsedFeedFile = { columns: string[]; records: FeedRecord[] };
export type FeedFileOptions = { delimiter: FeedDelimiter; hasHeader: boolean };

/** A file that cannot be read at all (too big, not UTF-8, an unclosed quote…): the whole file is refused. */
export class FeedFileError extends Error {}

/** A column's name when the file has no header: `column_1`, `column_2`, … */
export const positionalColumn = (index: number) => `column_${index + 1}`;

const mb = (bytes: number) => Math.ceil(bytes / 1_000_000);
/** Why a file over the limit is refused; `bytes` when its size is known before reading it (an SFTP listing). */
export const tooBigMessage = (bytes?: number) =>
  `The file is ${bytes === undefined ? 'larger than' : `${mb(bytes)} MB; a feed file may be at most`} ${mb(MAX_FEED_FILE_BYTES)} MB. Split it into smaller files.`;

const parserOptions = (options: FeedFileOptions): Options => ({
  delimiter: DELIMITER_CHARS[options.delimiter],
  bom: true,
  relax_column_count: true,
  skip_empty_lines: true,
  max_record_size: MAX_RECORD_BYTES,
});

/**
 * What csv-parse's refusal means to a person, with the line it is on. An unclosed quote is
 * reported by csv-parse at the end of the file; the quote opened on the line after the last
 * record read whole (`lastLine`).
 */
function unreadable(err: unknown, lastLine: number): unknown {
  if (err instanceof FeedFileError) return err;
  const e = err as { code?: unknown; lines?: unknown; message?: unknown };
  // Not csv-parse's: the input itself failed (the connection closed); passed on as it is.
  if (!(err instanceof CsvError)) return err;
  const line = typeof e.lines === 'number' ? e.lines : null;
  if (e.code === 'CSV_QUOTE_NOT_CLOSED') return new FeedFileError(`Line ${lastLine + 1} opens a quote that is never closed.`);
  if (e.code === 'CSV_MAX_RECORD_SIZE')
    return new FeedFileError(
      `Line ${lastLine + 1} starts a row longer than ${MAX_RECORD_BYTES / 1024} KB: most likely a quote that is never closed.`,
    );
  const what = err instanceof Error ? err.message : String(e.message ?? err);
  return new FeedFileError(`The file is not readable as CSV${line === null ? '' : ` at line ${line}`}: ${what}`);
}

/** Names columns by the header (a blank cell by its position), or by position without one; turns values into a record. */
function recordMaker(options: FeedFileOptions) {
  let columns: string[] | null = options.hasHeader ? null : [];
  // Counts the header as the file's first line, so the number is the line a spreadsheet shows.
  let rowNumber = options.hasHeader ? 1 : 0;
  return {
    columns: () => columns ?? [],
    /** The record of a line, or null for the header. */
    take(values: string[]): FeedRecord | null {
      if (columns === null) {
        columns = values.map((v, i) => v.trim() || positionalColumn(i));
        return null;
      }
      if (!options.hasHeader) for (let j = columns.length; j < values.length; j++) columns.push(positionalColumn(j));
      const raw: Record<string, string> = {};
      for (let j = 0; j < columns.length; j++) raw[columns[j] ?? positionalColumn(j)] = values[j] ?? '';
      // Values beyond the header are kept under their position, so the row as received is whole.
      for (let j = columns.length; j < values.length; j++) raw[positionalColumn(j)] = values[j] ?? '';
      rowNumber++;
      return { rowNumber, raw };
    },
  };
}

/** A NUL cannot be stored in the database's text and JSON: a file holding one is not a text file. */
function refuseNul(text: string, lineBefore: number) {
  const at = text.indexOf('\u0000');
  if (at >= 0) {
    const line = lineBefore + (text.slice(0, at).match(/\n/g)?.length ?? 0) + 1;
    throw new FeedFileError(`Line ${line} holds a NUL character: the file is not a text file.`);
  }
}

/**
 * Reads a small feed file held in memory with its feed's delimiter (comma, pipe or tab): quoted
 * fields (with the delimiter, quotes or line breaks inside), a leading BOM, CRLF or LF line ends,
 * blank lines skipped, and rows shorter or longer than the header kept (missing values are
 * empty). Big files go through `readFeedStream`, which does the same in batches.
 */
export function parseFeedFile(text: string, options: FeedFileOptions): ParsedFeedFile {
  if (Buffer.byteLength(text, 'utf8') > MAX_FEED_FILE_BYTES) throw new FeedFileError(tooBigMessage());
  refuseNul(text, 0);
  let lastLine = 0;
  let rows: string[][];
  try {
    rows = parseSync(text, {
      ...parserOptions(options),
      on_record: (record: string[], context: Info) => {
        lastLine = context.lines;
        return record;
      },
    });
  } catch (err) {
    throw unreadable(err, lastLine);
  }
  const maker = recordMaker(options);
  const records: FeedRecord[] = [];
  for (const record of rows) {
    const r = maker.take(record);
    if (r) records.push(r);
  }
  // Without a header, every record has every column (a short row's missing ones are empty).
  const columns = maker.columns();
  if (!options.hasHeader) for (const r of records) for (const c of columns) r.raw[c] ??= '';
  return { columns, records };
}

/** Waits until the parser takes more input, or is destroyed (then 'drain' never comes). */
const drainedOrClosed = (parser: Parser) =>
  new Promise<void>((resolve) => {
    const done = () => {
      parser.off('drain', done);
      parser.off('close', done);
      resolve();
    };
    parser.on('drain', done);
    parser.on('close', done);
  });

/**
 * Reads a feed file as it arrives, in UTF-8 (refused otherwise) and at most MAX_FEED_FILE_BYTES,
 * handing `onBatch` its records `batchSize` at a time and waiting for it before reading on, so a
 * 60 MB file is never held whole and the event loop is free between chunks. Answers the columns
 * and the number of rows read; throws a FeedFileError naming the line when the file is not
 * readable CSV.
 */
export async function readFeedStream(
  input: AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>,
  options: FeedFileOptions,
  batchSize: number,
  onBatch: (records: FeedRecord[]) => Promise<void>,
): Promise<{ columns: string[]; rowsRead: number }> {
  let lastLine = 0;
  // Lines are counted as csv-parse reads them, not as records are taken: an error ends the stream
  // before the records already parsed are taken.
  const parser = parse({
    ...parserOptions(options),
    on_record: (record: string[], context: Info) => {
      lastLine = context.lines;
      return record;
    },
  });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let linesFed = 0;
  let bytes = 0;
  const decode = (chunk: Uint8Array | undefined) => {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch {
      throw new FeedFileError(`The file is not UTF-8 text (near line ${linesFed + 1}): save it as CSV UTF-8 and upload it again.`);
    }
  };
  const feeding = (async () => {
    for await (const chunk of input) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      bytes += buffer.byteLength;
      if (bytes > MAX_FEED_FILE_BYTES) throw new FeedFileError(tooBigMessage());
      // Once the reader stopped (a row it refused, a batch that failed), the rest is read and
      // dropped, so an upload's sender still gets the answer: a destroyed parser never drains.
      if (parser.destroyed) continue;
      const text = decode(buffer);
      refuseNul(text, linesFed);
      linesFed += text.match(/\n/g)?.length ?? 0;
      if (!parser.write(text) && !parser.destroyed) await drainedOrClosed(parser);
    }
    if (parser.destroyed) return;
    const rest = decode(undefined);
    if (rest) parser.write(rest);
    parser.end();
  })().catch((err: unknown) => {
    parser.destroy(err instanceof Error ? err : new Error(String(err)));
  });

  const maker = recordMaker(options);
  let batch: FeedRecord[] = [];
  let rowsRead = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const r = maker.take(record);
      if (!r) continue;
      batch.push(r);
      rowsRead++;
      if (batch.length >= batchSize) {
        const full = batch;
        batch = [];
        await onBatch(full);
      }
    }
  } catch (err) {
    parser.destroy();
    await feeding;
    throw unreadable(err, lastLine);
  }
  await feeding;
  if (batch.length > 0) await onBatch(batch);
  return { columns: maker.columns(), rowsRead };
}
