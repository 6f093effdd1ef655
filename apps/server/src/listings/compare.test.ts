import { describe, expect, it } from 'vitest';
import { type Canonical, compareFields, type Found, napMatches, scoreOf, statusOf } from './compare.ts';
import { normaliseAddress, normaliseName, normalisePhone, normaliseWebsite, sameHours } from './normalise.ts';

describe('normalisation', () => {
  it('names: case, punctuation, "&"/"and", legal suffixes and a leading "The"', () => {
    expect(normaliseName('The Smith & Sons Plumbing, LLC.')).toBe('smith and sons plumbing');
    expect(normaliseName('smith and sons plumbing')).toBe('smith and sons plumbing');
    expect(normaliseName("Joe's Café Inc")).toBe('joes cafe');
    expect(normaliseName('Summit Heating')).not.toBe(normaliseName('Summit Cooling'));
    // A name made only of a suffix word keeps it.
    expect(normaliseName('Company')).toBe('company');
  });

  it('addresses: USPS street types, directionals, units and ZIP+4', () => {
    const a = normaliseAddress('1200 North Main Street Suite 4, Springfield, IL 62701');
    expect(normaliseAddress('1200 N. Main St., Ste 4, Springfield IL 62701-1234')).toBe(a);
    expect(normaliseAddress('1200 N Main St #4, Springfield, IL 62701')).toBe(a);
    expect(normaliseAddress('1200 Main Street, Springfield, IL 62701')).not.toBe(
      normaliseAddress('1210 Main Street, Springfield, IL 62701'),
    );
    expect(normaliseAddress('44 Oak Avenue, Lakewood, CO 80228')).toBe(normaliseAddress('44 Oak Ave, Lakewood, CO 80228'));
    expect(normaliseAddress('44 Oak Avenue, Lakewood, CO 80228')).not.toBe(normaliseAddress('44 Oak Road, Lakewood, CO 80228'));
  });

  it('phones as E.164; website by host without www', () => {
    expect(normalisePhone('(303) 555-0142')).toBe('+13035550142');
    expect(normalisePhone('+1 303 555 0142')).toBe('+13035550142');
    expect(normalisePhone('12')).toBeNull();
    expect(normaliseWebsite('https://WWW.Example.com/contact')).toBe('example.com');
    expect(normaliseWebsite('example.com')).toBe('example.com');
    expect(normaliseWebsite('http://shop.example.com')).not.toBe('example.com');
    expect(normaliseWebsite('http://')).toBeNull();
  });

  it('hours day by day, 8:00 = 08:00, an absent day is closed', () => {
    const week = { mon: { open: '08:00', close: '17:00' }, sun: null };
    expect(sameHours(week, { mon: { open: '8:00', close: '17:00' } })).toBe(true);
    expect(sameHours(week, { mon: { open: '08:00', close: '18:00' } })).toBe(false);
    expect(sameHours(week, { mon: { open: '08:00', close: '17:00' }, sat: { open: '09:00', close: '12:00' } })).toBe(false);
  });
});

const canonical: Canonical = {
  name: 'Summit Heating & Air',
  address: '1200 North Main Street Suite 4, Springfield, IL 62701',
  phone: '+13035550142',
  website: 'https://summit.example.com',
  hours: { mon: { open: '08:00', close: '17:00' } },
  country: 'US',
};
const found: Found = {
  externalId: 'x',
  url: null,
  name: 'Summit Heating and Air, Inc.',
  address: '1200 N Main St Ste 4, Springfield, IL 62701',
  phone: '(303) 555-0142',
  website: 'http://www.summit.example.com/',
  hours: { mon: { open: '8:00', close: '17:00' } },
  claimed: true,
};
const ALL = ['name', 'address', 'phone', 'website', 'hours'] as const;
const none = { isMine: null, duplicateOfId: null, status: null };

describe('score and status', () => {
  it('an equal listing written differently is accurate, 100', () => {
    const v = compareFields(canonical, found, ALL);
    expect(v).toEqual({ name: true, address: true, phone: true, website: true, hours: true });
    expect(scoreOf(v)).toBe(100);
    expect(statusOf(v, found, none)).toBe('accurate');
  });

  it('an old phone: a mismatch, the weighted score and needs_update', () => {
    const v = compareFields(canonical, { ...found, phone: '(303) 555-0199' }, ALL);
    expect(v.phone).toBe(false);
    expect(scoreOf(v)).toBe(75);
    expect(statusOf(v, found, none)).toBe('needs_update');
    expect(napMatches(v)).toBe(2);
  });

  it('missing hours is a mismatch; a field the directory never carries is not compared', () => {
    const missing = compareFields(canonical, { ...found, hours: null }, ALL);
    expect(missing.hours).toBe(false);
    expect(scoreOf(missing)).toBe(95);
    const napOnly = compareFields(canonical, { ...found, website: null, hours: null }, ['name', 'address', 'phone']);
    expect(napOnly.website).toBeNull();
    expect(scoreOf(napOnly)).toBe(100);
    // The location has no website: not compared either.
    expect(compareFields({ ...canonical, website: null }, found, ALL).website).toBeNull();
  });

  it('what a person said is kept; unclaimed when the directory says so', () => {
    const v = compareFields(canonical, found, ALL);
    const bad = compareFields(canonical, { ...found, name: 'Other Co' }, ALL);
    expect(statusOf(v, found, { ...none, isMine: false })).toBe('suppressed');
    expect(statusOf(v, found, { ...none, duplicateOfId: 3 })).toBe('duplicate');
    expect(statusOf(bad, found, { ...none, status: 'pending_update' })).toBe('pending_update');
    expect(statusOf(v, found, { ...none, status: 'pending_update' })).toBe('accurate');
    expect(statusOf(v, { claimed: false }, none)).toBe('unclaimed');
    expect(scoreOf({ name: null, address: null, phone: null, website: null, hours: null })).toBeNull();
  });
});
