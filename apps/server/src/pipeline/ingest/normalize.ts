import { FEED_FIELD_LABELS, type FeedDateFormat, type FeedField, type FeedLocationMode, type FeedMapping } from '@admin/shared';
import { and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { locations, personnel, products, referralSources } from '../../db/schema/index.ts';
import type { NormalRow } from '../types.ts';
import type { FeedRecord } from './parse.ts';

/** What normalizing needs of a feed (a `data_feeds` row has it; the ingest API passes the identity mapping). */
export type FeedForIngest = {
  clientId: number;
  locationMode: FeedLocationMode;
  locationId: string | null;
  dateFormat: FeedDateFormat;
  fieldMapping: FeedMapping;
};

/** Why one row was refused: its number, the source column (null when no single column is to blame), the row as received. */
export type RowError = { rowNumber: number; column: string | null; message: string; raw: Record<string, string> };

export type Normalized = { rows: NormalRow[]; errors: RowError[] };

const NAME_MAX = 120;
const TRANSACTION_ID_MAX = 100;
const EMAIL_MAX = 254;
const emailShape = z.email();
const TRUE = new Set(['true', 'yes', '1', 'y']);
const FALSE = new Set(['false', 'no', '0', 'n', '']);
/** numeric(14,2): up to 12 whole digits and 2 decimals; `$` and thousands separators are dropped. */
const AMOUNT = /^-?\d{1,12}(\.\d{1,2})?$/;
/** Codes looked up per query (a parameter each). */
const LOOKUP_CHUNK = 5000;
/**
 * The years a transaction date may fall in. A typo like 9999 would put the invitation's send and
 * expiry times past what the database stores, failing the whole batch instead of the one row.
 */
const FIRST_YEAR = 2000;
const LAST_YEAR = 2099;

const DATE_PATTERNS: Record<FeedDateFormat, { re: RegExp; y: number; m: number; d: number }> = {
  // A time after the date (`2026-11-20 14:30`, `…T14:30:00Z`) is allowed and ignored: the day is what counts.
  'yyyy-MM-dd': { re: /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/, y: 1, m: 2, d: 3 },
  'MM/dd/yyyy': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[T ].*)?$/, y: 3, m: 1, d: 2 },
  'dd/MM/yyyy': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[T ].*)?$/, y: 3, m: 2, d: 1 },
};

/** A date in the feed's format as `yyyy-MM-dd`, or null when it is not one (or not a real day). */
export function feedDate(value: string, format: FeedDateFormat): string | null {
  const pattern = DATE_PATTERNS[format];
  const match = pattern.re.exec(value);
  if (!match) return null;
  const [y, m, d] = [Number(match[pattern.y]), Number(match[pattern.m]), Number(match[pattern.d])];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const inYears = (isoDay: string) => {
  const year = Number(isoDay.slice(0, 4));
  return year >= FIRST_YEAR && year <= LAST_YEAR;
};

/** A phone as E.164 (US numbers may be written without +1), or null when it is not a valid number. */
export function e164(value: string): string | null {
  const parsed = parsePhoneNumberFromString(value, 'US');
  return parsed?.isValid() ? parsed.number : null;
}

/** Lower-cased codes → ids, read once per run for every code the rows use. */
type Lookups = {
  location: Map<string, string>;
  personnel: Map<string, number>;
  product: Map<string, number>;
  referral: Map<string, number>;
};

function chunks<T>(values: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += LOOKUP_CHUNK) out.push(values.slice(i, i + LOOKUP_CHUNK));
  return out;
}

/** `lower(column) in (…)` over lower-cased codes. */
const lowerIn = (column: PgColumn, codes: string[]): SQL => inArray(sql`lower(${column})`, codes);

async function lookups(db: Db, clientId: number, wanted: Record<keyof Lookups, Set<string>>): Promise<Lookups> {
  const found: Lookups = { location: new Map(), personnel: new Map(), product: new Map(), referral: new Map() };
  for (const codes of chunks([...wanted.location])) {
    const rows = await db
      .select({ id: locations.id, code: locations.externalCode })
      .from(locations)
      .where(and(eq(locations.clientId, clientId), lowerIn(locations.externalCode, codes)));
    for (const r of rows) if (r.code) found.location.set(r.code.toLowerCase(), r.id);
  }
  for (const codes of chunks([...wanted.personnel])) {
    // An employee code wins over an alias, and a current person over an archived one (a merged duplicate).
    const rows = await db
      .select({ id: personnel.id, code: personnel.employeeCode, aliases: personnel.aliases, status: personnel.status })
      .from(personnel)
      .where(
        and(
          eq(personnel.clientId, clientId),
          or(
            lowerIn(personnel.employeeCode, codes),
            sql`exists (select 1 from unnest(${personnel.aliases}) a where ${inArray(sql`lower(a)`, codes)})`,
          ),
        ),
      )
      .orderBy(sql`${personnel.status} = 'inactive'`, personnel.id);
    const byAlias = new Map<string, number>();
    for (const r of rows) {
      const code = r.code?.toLowerCase();
      if (code && !found.personnel.has(code)) found.personnel.set(code, r.id);
      for (const alias of r.aliases) if (!byAlias.has(alias.toLowerCase())) byAlias.set(alias.toLowerCase(), r.id);
    }
    for (const [alias, id] of byAlias) if (!found.personnel.has(alias)) found.personnel.set(alias, id);
  }
  for (const codes of chunks([...wanted.product])) {
    const rows = await db
      .select({ id: products.id, code: products.code })
      .from(products)
      .where(and(eq(products.clientId, clientId), lowerIn(products.code, codes)));
    for (const r of rows) found.product.set(r.code.toLowerCase(), r.id);
  }
  for (const codes of chunks([...wanted.referral])) {
    // The client's own source wins over a global default of the same code.
    const rows = await db
      .select({ id: referralSources.id, code: referralSources.code, clientId: referralSources.clientId })
      .from(referralSources)
      .where(and(or(eq(referralSources.clientId, clientId), isNull(referralSources.clientId)), lowerIn(referralSources.code, codes)))
      .orderBy(sql`${referralSources.clientId} is null`, referralSources.id);
    for (const r of rows) if (!found.referral.has(r.code.toLowerCase())) found.referral.set(r.code.toLowerCase(), r.id);
  }
  return found;
}

/**
 * Turns a feed's records into `NormalRow`s through its mapping (source column → field), or row
 * errors naming the field as the mapping editor labels it and the source column: first name
 * required; an email or a phone (email lower-cased and checked, phone to E.164, US by default);
 * the transaction date in the feed's format; the location fixed by the feed or by the location
 * code column (a location's store code within the client); personnel (employee code or alias),
 * product and referral source codes looked up in one batch per kind; amount a decimal; SMS opt-in
 * a yes/no. A row with any error is refused whole and reported once per failing field.
 */
export async function normalize(db: Db, feed: FeedForIngest, records: FeedRecord[]): Promise<Normalized> {
  const mapping = feed.fieldMapping;
  const read = (raw: Record<string, string>, field: FeedField): string => {
    const column = mapping[field];
    return column ? (raw[column] ?? '').trim() : '';
  };
  const wanted = { location: new Set<string>(), personnel: new Set<string>(), product: new Set<string>(), referral: new Set<string>() };
  for (const { raw } of records) {
    const add = (set: Set<string>, field: FeedField) => {
      const value = read(raw, field);
      if (value !== '') set.add(value.toLowerCase());
    };
    if (feed.locationMode === 'column') add(wanted.location, 'location_code');
    add(wanted.personnel, 'personnel_code');
    add(wanted.product, 'product_code');
    add(wanted.referral, 'referral_source');
  }
  const found = await lookups(db, feed.clientId, wanted);

  const rows: NormalRow[] = [];
  const errors: RowError[] = [];
  for (const { rowNumber, raw } of records) {
    const rowErrors: RowError[] = [];
    const fail = (field: FeedField, message: string) =>
      rowErrors.push({ rowNumber, column: mapping[field] ?? null, message: `The ${FEED_FIELD_LABELS[field]} ${message}`, raw });
    const code = (field: FeedField, map: Map<string, number>, what: string): number | null => {
      const value = read(raw, field);
      if (value === '') return null;
      const id = map.get(value.toLowerCase());
      if (id === undefined) fail(field, `${value} is not ${what} of this client`);
      return id ?? null;
    };

    const firstName = read(raw, 'first_name');
    if (firstName === '') fail('first_name', 'field is required');
    else if (firstName.length > NAME_MAX) fail('first_name', `field may not be greater than ${NAME_MAX} characters`);
    const lastName = read(raw, 'last_name');
    if (lastName.length > NAME_MAX) fail('last_name', `field may not be greater than ${NAME_MAX} characters`);

    const emailText = read(raw, 'email').toLowerCase();
    const phoneText = read(raw, 'phone');
    const email = emailText !== '' && emailText.length <= EMAIL_MAX && emailShape.safeParse(emailText).success ? emailText : null;
    if (emailText !== '' && email === null) fail('email', 'field must be a valid email');
    const phone = phoneText === '' ? null : e164(phoneText);
    if (phoneText !== '' && phone === null) fail('phone', 'field must be a valid phone number');
    if (emailText === '' && phoneText === '') {
      rowErrors.push({ rowNumber, column: mapping.email ?? mapping.phone ?? null, message: 'The Email or Phone field is required', raw });
    }

    const transactionId = read(raw, 'transaction_id');
    if (transactionId.length > TRANSACTION_ID_MAX) fail('transaction_id', `field may not be greater than ${TRANSACTION_ID_MAX} characters`);
    const dateText = read(raw, 'transaction_date');
    const transactionDate = dateText === '' ? null : feedDate(dateText, feed.dateFormat);
    if (dateText === '') fail('transaction_date', 'field is required');
    else if (transactionDate === null) fail('transaction_date', `field must be a date in the format ${feed.dateFormat}`);
    else if (!inYears(transactionDate)) fail('transaction_date', `field must be a date from ${FIRST_YEAR} to ${LAST_YEAR}`);

    let locationId = feed.locationMode === 'single' ? feed.locationId : null;
    if (feed.locationMode === 'column') {
      const locationCode = read(raw, 'location_code');
      if (locationCode === '') fail('location_code', 'field is required');
      else {
        locationId = found.location.get(locationCode.toLowerCase()) ?? null;
        if (locationId === null) fail('location_code', `${locationCode} is not a location (store code) of this client`);
      }
    }

    const personnelId = code('personnel_code', found.personnel, 'an employee code or alias');
    const productId = code('product_code', found.product, 'a product code');
    const referralSourceId = code('referral_source', found.referral, 'a referral source code');

    const amountText = read(raw, 'amount').replace(/[$,\s]/g, '');
    if (amountText !== '' && !AMOUNT.test(amountText)) fail('amount', 'field must be a number with at most 2 decimals');
    const optInText = read(raw, 'opt_in_sms').toLowerCase();
    if (!TRUE.has(optInText) && !FALSE.has(optInText)) fail('opt_in_sms', 'field must be yes or no (true/false, 1/0, y/n)');

    if (rowErrors.length > 0 || transactionDate === null || locationId === null) {
      errors.push(...rowErrors);
      continue;
    }
    rows.push({
      rowNumber,
      firstName,
      lastName: lastName === '' ? null : lastName,
      email,
      phone,
      transactionId: transactionId === '' ? null : transactionId,
      transactionDate,
      locationId,
      personnelId,
      productId,
      referralSourceId,
      amount: amountText === '' ? null : amountText,
      smsOptIn: TRUE.has(optInText),
      raw,
    });
  }
  return { rows, errors };
}
