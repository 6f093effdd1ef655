/** A file that is not CSV at all; the message names the line a person finds it on ("Line 3 opens a quote that is never closed"). */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    /** The line of the file (1 = the first, as an editor counts) where the problem starts. */
    readonly line: number,
  ) {
    super(message);
  }
}

/**
 * Reads RFC 4180 CSV (quoted fields may hold commas, quotes and line breaks; CRLF or LF line
 * ends; a leading BOM is ignored) into records. Used for imports and by tests reading exports.
 * A quote never closed would swallow the rest of the file into one field, so it throws a
 * `CsvSyntaxError` naming the line the quote opens on.
 */
export function parseCsv(input: string): string[][] {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let quoteLine = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    // A CR, LF or CRLF ends a line (counted at its first character, as the CRLF's LF may be skipped below).
    if (c === '\r' || (c === '\n' && text[i - 1] !== '\r')) line++;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') {
      quoted = true;
      quoteLine = line;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (quoted) throw new CsvSyntaxError(`Line ${quoteLine} opens a quote that is never closed`, quoteLine);
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records.filter((r) => !(r.length === 1 && r[0] === ''));
}
