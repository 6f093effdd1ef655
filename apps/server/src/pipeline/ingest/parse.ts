import { DELIMITER_CHARS, type FeedDelimiter } from '@admin/shared';
import { parse } from 'csv-parse/sync';

/** The largest feed file taken (bytes of text): a 100,000-row export is about 15 MB. */
export const MAX_FEED_FILE_BYTES = 50 * 1024 * 1024;
/** The longest a single record may be (a runaway quote would otherwise swallow the file). */
const MAX_RECORD_BYTES = 64 * 1024;

/** One data row of a file: its number (1 = the first data row) and its values by column. */
export type FeedRecord = { rowNumber: number; raw: Record<string, string> };
export type ParsedFeedFile = { columns: string[]; records: FeedRecord[] };

/** A file that cannot be read at all (too big, an unclosed quote…): the whole file is refused. */
export class FeedFileError extends Error {}

/** A column's name when the file has no header: `column_1`, `column_2`, … */
export const positionalColumn = (index: number) => `column_${index + 1}`;

/**
 * Reads a feed file with its feed's delimiter (comma, pipe or tab): quoted fields (with the
 * delimiter, quotes or line breaks inside), a leading BOM, CRLF or LF line ends, blank lines
 * skipped, and rows shorter or longer than the header kept (missing values are empty). With a
 * header, columns are named by it (a blank header cell by its position); without one, they are
 * `column_1`…
 */
export function parseFeedFile(text: string, options: { delimiter: FeedDelimiter; hasHeader: boolean }): ParsedFeedFile {
  if (Buffer.byteLength(text, 'utf8') > MAX_FEED_FILE_BYTES) {
    throw new FeedFileError(`The file is larger than ${MAX_FEED_FILE_BYTES / 1024 / 1024} MB`);
  }
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter: DELIMITER_CHARS[options.delimiter],
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_BYTES,
    });
  } catch (err) {
    throw new FeedFileError(`The file is not readable as CSV: ${err instanceof Error ? err.message : String(err)}`);
  }
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const header = options.hasHeader ? (rows[0] ?? []) : [];
  const columns = Array.from({ length: options.hasHeader ? header.length : width }, (_, i) => header[i]?.trim() || positionalColumn(i));
  const data = options.hasHeader ? rows.slice(1) : rows;
  const records = data.map((values, i) => {
    const raw: Record<string, string> = {};
    columns.forEach((column, j) => {
      raw[column] = values[j] ?? '';
    });
    // Values beyond the header are kept under their position, so the row as received is whole.
    for (let j = columns.length; j < values.length; j++) raw[positionalColumn(j)] = values[j] ?? '';
    return { rowNumber: i + 1, raw };
  });
  return { columns, records };
}
