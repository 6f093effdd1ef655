import type { ColumnDef } from '@admin/shared';

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

/** The columns an export writes: those chosen, in their order, else those shown by default. */
export function exportColumns<C extends ColumnDef>(all: readonly C[], chosen: readonly string[] | undefined): C[] {
  if (!chosen) return all.filter((c) => c.defaultVisible !== false);
  return chosen.map((key) => all.find((c) => c.key === key)).filter((c): c is C => c !== undefined);
}
