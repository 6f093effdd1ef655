import { DELIMITER_CHARS, FEED_FIELDS, type FeedField } from '../pipeline/enums.ts';
import type { DataFeed } from './data-feeds.ts';

/** Codes a sample row needs from the feed's client for its code columns to be found (blank when the client has none). */
export type FeedTemplateCodes = Partial<Record<'location_code' | 'personnel_code' | 'product_code' | 'referral_source', string>>;

/** How a column is named when the file has no header (the feed reader's names, pipeline/ingest/parse.ts). */
const POSITIONAL = /^column_([1-9]\d{0,2})$/;

const SAMPLE_DATES: Record<DataFeed['date_format'], string> = {
  'yyyy-MM-dd': '2026-11-20',
  'MM/dd/yyyy': '11/20/2026',
  'dd/MM/yyyy': '20/11/2026',
};

/** One field of the file: quoted when it holds the delimiter, a quote or a line break. */
function cell(value: string, sep: string): string {
  return value.includes(sep) || /["\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * The sample template CSV of a feed, read back by that feed as one good row: the feed's mapped
 * source columns in the fields' order as the header (none when the feed's files have no header:
 * then each value sits at its `column_N`), its delimiter, and a row whose values pass its rules —
 * the date in its format, and for the code columns the client's own codes from `codes` (the
 * location code only when the location comes from a column; an unknown code left blank, as
 * optional codes may be).
 */
export function feedTemplateCsv(
  feed: Pick<DataFeed, 'delimiter' | 'date_format' | 'has_header' | 'field_mapping' | 'location_mode'>,
  codes: FeedTemplateCodes = {},
): string {
  const sample: Record<FeedField, string> = {
    first_name: 'Alex',
    last_name: 'Rivera',
    email: 'alex.rivera@example.com',
    phone: '(303) 555-0142',
    transaction_id: 'INV-10042',
    transaction_date: SAMPLE_DATES[feed.date_format],
    location_code: feed.location_mode === 'column' ? (codes.location_code ?? 'DEN-01') : '',
    personnel_code: codes.personnel_code ?? '',
    product_code: codes.product_code ?? '',
    referral_source: codes.referral_source ?? '',
    amount: '129.50',
    opt_in_sms: 'yes',
  };
  // Column → value; a column mapped to two fields takes the first field's value.
  const columns = new Map<string, string>();
  for (const field of FEED_FIELDS) {
    const column = feed.field_mapping[field]?.trim();
    if (column && !columns.has(column)) columns.set(column, sample[field]);
  }
  const sep = DELIMITER_CHARS[feed.delimiter];
  const line = (values: string[]) => `${values.map((v) => cell(v, sep)).join(sep)}\r\n`;
  if (feed.has_header) return line([...columns.keys()]) + line([...columns.values()]);
  const positions = [...columns.keys()].map((c) => Number(POSITIONAL.exec(c)?.[1] ?? 0));
  const row = Array.from({ length: Math.max(0, ...positions) }, () => '');
  for (const [i, value] of [...columns.values()].entries()) {
    const at = positions[i] ?? 0;
    // A name that is not a position cannot be read from a file without a header; it is left out.
    if (at > 0) row[at - 1] = value;
  }
  return line(row);
}
