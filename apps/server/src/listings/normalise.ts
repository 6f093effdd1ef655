import { AddressParser } from '@sroussey/parse-address';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * NAP normalisation (pipeline.md "Listings", reference-second-half.md C2): each field is brought to
 * one comparable form, so "Smith & Sons, LLC" and "smith and sons" or "12 Main Street" and
 * "12 Main St." compare equal, and an old phone number does not. docs/decisions/052 has the rules.
 */

/** Words a business name carries for the law, not for customers; dropped before comparing. */
const LEGAL_SUFFIXES = new Set([
  'llc',
  'l l c',
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'ltd',
  'limited',
  'llp',
  'lp',
  'pllc',
  'pc',
  'pa',
  'plc',
]);

/** "The Smith & Sons Plumbing, LLC." → "smith and sons plumbing". */
export function normaliseName(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '');
  while (words.length > 1 && LEGAL_SUFFIXES.has(words.at(-1) ?? '')) words.pop();
  if (words[0] === 'the' && words.length > 1) words.shift();
  return words.join(' ');
}

const parser = new AddressParser();

/** The parser's answer, of which only these parts are read (it is untyped). */
type Parsed = Partial<Record<'number' | 'prefix' | 'street' | 'type' | 'suffix' | 'sec_unit_type' | 'sec_unit_num' | 'zip', unknown>>;

const part = (value: unknown): string => (typeof value === 'string' ? value.toLowerCase().replace(/[^a-z0-9]/g, '') : '');

/**
 * An address in one comparable form: number, directional, street, USPS street type and suffix,
 * unit number and ZIP5 — `1200 North Main Street Suite 4, Springfield, IL 62701` and
 * `1200 N. Main St., Ste 4, Springfield IL 62701-1234` both give `1200|n|main|st||4|62701`. What the
 * parser cannot read is compared as its letters and digits.
 */
export function normaliseAddress(address: string): string {
  const parsed: unknown = parser.parseLocation(address.replace(/#\s*/g, 'Unit '));
  if (parsed && typeof parsed === 'object' && 'number' in parsed && 'street' in parsed) {
    const p = parsed as Parsed;
    return [
      part(p.number),
      part(p.prefix),
      part(p.street),
      part(p.type),
      part(p.suffix),
      // The unit's number alone: "Suite 4", "Ste 4" and "#4" are one unit.
      part(p.sec_unit_num),
      part(p.zip).slice(0, 5),
    ].join('|');
  }
  return address
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** A phone as E.164 (US numbers when no country code is written), or null when it is not one. */
export function normalisePhone(phone: string, country = 'US'): string | null {
  const parsed = parsePhoneNumberFromString(phone, country === 'US' ? 'US' : undefined);
  return parsed?.isValid() ? parsed.number : null;
}

/** A website by its host, without `www.`: `https://WWW.Example.com/contact` → `example.com`. */
export function normaliseWebsite(url: string): string | null {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(url.trim()) ? url.trim() : `https://${url.trim()}`;
  try {
    const host = new URL(text).hostname.toLowerCase().replace(/\.$/, '');
    return host === '' ? null : host.replace(/^www\./, '');
  } catch {
    return null;
  }
}

export type DayHours = { open: string; close: string } | null;
export type Hours = Record<string, DayHours>;
export const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** `8:00` and `08:00` are one time. */
const clock = (t: string) => {
  const [h = '', m = '00'] = t.split(':');
  return `${h.padStart(2, '0')}:${m.padStart(2, '0')}`;
};

/** Whether two weeks of opening hours agree day by day (a day absent is a closed day). */
export function sameHours(a: Hours, b: Hours): boolean {
  return WEEK.every((day) => {
    const x = a[day] ?? null;
    const y = b[day] ?? null;
    if (x === null || y === null) return x === y;
    return clock(x.open) === clock(y.open) && clock(x.close) === clock(y.close);
  });
}
