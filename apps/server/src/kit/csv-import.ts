import { CsvSyntaxError, parseCsv } from '@admin/shared';
import { displayName, validate } from '@admin/shared/validation';
import { HttpError } from '../lib/http-error.ts';
import type { FieldRules } from './validate-body.ts';

/** Rows a single import may hold. */
export const MAX_IMPORT_ROWS = 5000;

export type ImportSpec = {
  /** "location", "person": used in messages. */
  noun: string;
  csv: string;
  /** Per-column rules, run on every line with the form's messages. */
  rules: FieldRules;
  /** Columns the file may have beyond the rules' fields (checked by `checkRow`). */
  extraColumns?: readonly string[];
  /** Values of columns the file leaves out. */
  defaults?: Record<string, string>;
  /** A column whose non-empty values must be unique within the file and among existing rows. */
  unique?: { column: string; label: string; taken(values: string[]): Promise<Set<string>> };
  /** Field → form label, to name fields in messages as the form does. */
  names?: Record<string, string>;
  /** Further checks of one line; returns its messages. */
  checkRow?(row: Record<string, string>): string[] | Promise<string[]>;
};

/** The file's records, or a 422 naming the line where it stops being CSV (an unclosed quote would swallow the rest). */
function readCsv(csv: string): string[][] {
  try {
    return parseCsv(csv);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new HttpError(422, `Nothing was imported: ${err.message}.`, { csv: [err.message] });
    throw err;
  }
}

/**
 * Checks a whole CSV import before anything is written (all lines or none): the header names
 * known columns, every line passes the same rules as the form, unique values do not repeat in
 * the file or clash with existing rows. Returns the lines as column → trimmed value, or answers
 * 422 with the messages of each failing line under `line N` (the header is line 1).
 */
export async function checkImport(spec: ImportSpec): Promise<Record<string, string>[]> {
  const [header, ...rows] = readCsv(spec.csv);
  const known = new Set([...Object.keys(spec.rules), ...(spec.extraColumns ?? [])]);
  const columns = (header ?? []).map((h) => h.trim().toLowerCase());
  const unknownColumns = columns.filter((c) => !known.has(c));
  if (!header || rows.length === 0 || unknownColumns.length > 0) {
    throw new HttpError(422, `The file is not a ${spec.noun} import.`, {
      csv: [
        !header || rows.length === 0
          ? `The file needs a header row and at least one ${spec.noun}`
          : `Unknown columns: ${unknownColumns.join(', ')}. Allowed: ${[...known].join(', ')}`,
      ],
    });
  }
  if (rows.length > MAX_IMPORT_ROWS) throw new HttpError(413, `At most ${MAX_IMPORT_ROWS} lines per file.`);

  const errors: Record<string, string[]> = {};
  const bodies: Record<string, string>[] = [];
  const firstLine = new Map<string, number>();
  for (const [i, record] of rows.entries()) {
    const line = i + 2;
    const body: Record<string, string> = { ...spec.defaults };
    columns.forEach((c, j) => {
      body[c] = (record[j] ?? '').trim();
    });
    const messages: string[] = [];
    for (const [field, fieldRules] of Object.entries(spec.rules)) {
      const r = await validate(body[field] ?? '', fieldRules, { name: spec.names?.[field] ?? displayName(field), values: body });
      messages.push(...r.errors);
    }
    if (spec.checkRow) messages.push(...(await spec.checkRow(body)));
    const value = spec.unique ? body[spec.unique.column]?.toLowerCase() : undefined;
    if (spec.unique && value) {
      const first = firstLine.get(value);
      if (first) messages.push(`The ${spec.unique.label} is also on line ${first}`);
      else firstLine.set(value, line);
    }
    if (messages.length > 0) errors[`line ${line}`] = messages;
    bodies.push(body);
  }
  if (spec.unique) {
    const taken = await spec.unique.taken([...firstLine.keys()]);
    for (const [value, line] of firstLine) {
      if (taken.has(value)) errors[`line ${line}`] = [...(errors[`line ${line}`] ?? []), `The ${spec.unique.label} has already been taken`];
    }
  }
  if (Object.keys(errors).length > 0) {
    throw new HttpError(422, `Nothing was imported: ${Object.keys(errors).length} of ${rows.length} lines have errors.`, errors);
  }
  return bodies;
}
