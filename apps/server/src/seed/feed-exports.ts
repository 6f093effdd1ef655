import type { FeedTriggerEvent } from '@admin/shared';
import type { seededRandom } from './random.ts';

// What the demo clients' business systems export: the files the demo feeds (feeds.ts) ingest.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Each industry's business system: the CSV export someone uploads, and the SFTP drop some clients have. */
export const SYSTEMS: Record<string, { csv: [string, FeedTriggerEvent, string]; sftp: [string, FeedTriggerEvent, string] }> = {
  home_services: { csv: ['ServiceTitan', 'job_completed', 'Completed jobs'], sftp: ['Housecall Pro', 'invoice_paid', 'Paid invoices'] },
  automotive: { csv: ['CDK Global', 'ro_closed', 'Closed repair orders'], sftp: ['DealerSocket', 'sale_delivered', 'Vehicle deliveries'] },
  dental: { csv: ['Dentrix', 'appointment_completed', 'Completed appointments'], sftp: ['Eaglesoft', 'invoice_paid', 'Paid statements'] },
  senior_care: { csv: ['PointClickCare', 'discharge', 'Discharges'], sftp: ['MatrixCare', 'discharge', 'Respite discharges'] },
  healthcare: { csv: ['athenahealth', 'appointment_completed', 'Visits'], sftp: ['eClinicalWorks', 'appointment_completed', 'Visits'] },
  legal: { csv: ['Clio', 'invoice_paid', 'Paid matters'], sftp: ['MyCase', 'invoice_paid', 'Paid invoices'] },
  financial: { csv: ['Jack Henry', 'sale_delivered', 'Funded loans'], sftp: ['Fiserv', 'sale_delivered', 'New accounts'] },
  retail: { csv: ['Lightspeed', 'sale_delivered', 'Sales'], sftp: ['Shopify POS', 'sale_delivered', 'Orders'] },
  hospitality: { csv: ['Opera PMS', 'invoice_paid', 'Checkouts'], sftp: ['Cloudbeds', 'invoice_paid', 'Checkouts'] },
};

/** The columns of the demo exports, as a business system names them; each feed's mapping reads them. */
export const COLUMNS = {
  first_name: 'Customer First Name',
  last_name: 'Customer Last Name',
  email: 'Email',
  phone: 'Mobile',
  transaction_id: 'Invoice #',
  transaction_date: 'Date',
  location_code: 'Store',
  personnel_code: 'Employee ID',
  product_code: 'Item Code',
  amount: 'Total',
  opt_in_sms: 'Text OK',
} as const;
export type Column = keyof typeof COLUMNS;

export const FIRST = [
  'Harper',
  'Elijah',
  'Zoe',
  'Mateo',
  'Layla',
  'Henry',
  'Aria',
  'Jack',
  'Nora',
  'Levi',
  'Lily',
  'Ezra',
  'Stella',
  'Miles',
];
export const LAST = ['Ortiz', 'Fischer', 'Kowalski', 'Ramos', 'Bennett', 'Sato', 'Price', 'Hughes', 'Ward', 'Foster', 'Reid', 'Castillo'];
export type DateFormat = 'yyyy-MM-dd' | 'MM/dd/yyyy';
export type Row = Partial<Record<Column, string>>;

/** A CSV file's text, the columns in COLUMNS' order and quoted where needed, as a business system exports it. */
function csvOf(rows: Row[]): string {
  const columns = Object.keys(COLUMNS) as Column[];
  const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return [columns.map((c) => COLUMNS[c]), ...rows.map((r) => columns.map((c) => r[c] ?? ''))]
    .map((line) => line.map(cell).join(','))
    .join('\r\n');
}

/** `2026-11-23` as the feed's date format writes it. */
function dateIn(day: string, format: DateFormat): string {
  const [y, m, d] = day.split('-');
  return format === 'yyyy-MM-dd' ? day : `${m}/${d}/${y}`;
}

/** A customer of the client, for the row of an export: `(tag, day, format) => Row`. */
export type CustomerMaker = (tag: string, day: string, format: DateFormat) => Row;

/**
 * The maker of a client's customers: a fresh name, an address, and a phone that may be texted where
 * the survey texts; each one a transaction after the one before.
 */
export function customerMaker(
  rnd: ReturnType<typeof seededRandom>,
  of: {
    index: number;
    phone: string | null;
    prefix: string;
    survey: { channel: string };
    stores: { code: string | null }[];
    staff: { code: string | null }[];
    items: { code: string }[];
  },
): CustomerMaker {
  const { survey, stores, staff, items, prefix } = of;
  const texting = survey.channel !== 'email';
  // The client's own area code (a real one, so the rows' phones pass as valid), as surveys.ts does.
  const areaCode = of.phone?.slice(2, 5) ?? '303';
  let phoneSeq = 50;
  let txSeq = 1000 + of.index * 1000;
  return (tag, day, format) => {
    const first = rnd.pick(FIRST);
    const last = rnd.pick(LAST);
    const byText = texting && (survey.channel === 'sms' || rnd.next() < 0.4);
    // The fictional 555-0150…0199 range, after the surveys' 555-01xx invitations.
    const phone = byText && phoneSeq < 100 ? `(${areaCode}) 555-01${String(phoneSeq++)}` : '';
    txSeq += rnd.int(1, 9);
    return {
      first_name: first,
      last_name: last,
      email: phone && survey.channel === 'sms' ? '' : `${first}.${last}.${tag}@example.com`.toLowerCase(),
      phone,
      transaction_id: `${prefix}-${txSeq}`,
      transaction_date: dateIn(day, format),
      location_code: rnd.pick(stores).code ?? '',
      personnel_code: staff.length > 0 ? (rnd.pick(staff).code ?? '') : '',
      product_code: items.length > 0 ? rnd.pick(items).code : '',
      amount: (rnd.int(4000, 90000) / 100).toFixed(2),
      opt_in_sms: phone ? 'Y' : 'N',
    };
  };
}

/**
 * The files of one feed, one per moment in `times`, with what real exports bring: a row repeated
 * from the file before, a customer surveyed lately, one who unsubscribed, and rows the feed cannot read.
 */
export function feedFiles(
  rnd: ReturnType<typeof seededRandom>,
  customer: CustomerMaker,
  plan: { feed: { id: number; vendor: string | null }; source: 'csv_upload' | 'sftp'; times: Date[]; format: DateFormat },
  of: { prefix: string; recent: { first: string; email: string | null }[]; optedOutEmails: { email: string }[] },
): { at: Date; name: string; text: string }[] {
  const { feed, source, times, format } = plan;
  const { prefix, recent, optedOutEmails } = of;
  const files: { at: Date; name: string; text: string }[] = [];
  let previous: Row[] = [];
  for (const [n, at] of times.entries()) {
    const day = new Date(at.getTime() - rnd.int(1, 3) * DAY_MS).toISOString().slice(0, 10);
    const rows = Array.from({ length: rnd.int(5, 9) }, (_, i) => customer(`f${feed.id}-${n}-${i}`, day, format));
    const extra = (row: Row | undefined) => {
      if (row) rows.splice(rnd.int(0, rows.length), 0, row);
    };
    // What real exports bring: a row repeated from the file before (the rules skip the repeat)…
    if (n > 0 && n % 2 === 1) extra(previous[0] ? { ...previous[0] } : undefined);
    // … a customer the client surveyed lately (over-survey protection skips them) …
    const again = recent[n];
    if (n === 1 && again) {
      extra({ ...customer(`again-${feed.id}`, day, format), first_name: again.first, email: again.email ?? '', phone: '' });
    }
    // … one who unsubscribed from an earlier invitation (skipped: opted out) …
    const optedOut = optedOutEmails[0]?.email;
    if (n === 2 && optedOut) extra({ ...customer(`out-${feed.id}`, day, format), email: optedOut, phone: '' });
    // … and a couple of rows the feed cannot read (partial runs, with their row errors).
    if (n === 0 || n === 2) {
      const bad = customer(`bad-${feed.id}-${n}`, day, format);
      const kind = (feed.id + n) % 4;
      if (kind === 0) extra({ ...bad, email: `${bad.first_name?.toLowerCase()}@@example.com`, phone: '555-12' });
      else if (kind === 1) extra({ ...bad, transaction_date: '31/31/2026' });
      else if (kind === 2) extra({ ...bad, location_code: `${prefix}-999` });
      else extra({ ...bad, first_name: '' });
    }
    previous = rows;
    const stamp = at.toISOString().slice(0, 10).replace(/-/g, '');
    const name = source === 'sftp' ? `export_${stamp}.csv` : `${feed.vendor?.toLowerCase().replace(/[^a-z]+/g, '-')}-${stamp}.csv`;
    files.push({ at, name, text: csvOf(rows) });
  }
  return files;
}

/** Every demo feed's mapping: each field read from its column in COLUMNS. */
export const FIELD_MAPPING: Record<string, string> = Object.fromEntries(Object.entries(COLUMNS));
