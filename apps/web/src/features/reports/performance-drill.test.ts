import { describe, expect, it } from 'vitest';
import { drillHref } from './performance-drill.ts';
import { readFilters } from './performance-query.ts';
import { row } from './performance-test-data.ts';

const filters = readFilters(new URLSearchParams('clients=3&surveys=9&from=2026-10-15&to=2026-12-10&groupBy=location'), new Date());
const params = (href: string) => new URL(href, 'http://x').searchParams;

describe('drilling down from a number', () => {
  it('opens Survey Manager with the report’s filters, the row’s group, and only counted responses', () => {
    const { href, narrower } = drillHref({ screen: 'manager' }, filters, row('aaaaaaaaaaaaaaaaaaaaaaaa', 'North'), 'location');
    expect(href.startsWith('/admin/survey-manager?')).toBe(true);
    const p = params(href);
    expect(p.getAll('client')).toEqual(['3']);
    expect(p.getAll('survey')).toEqual(['9']);
    expect(p.getAll('location')).toEqual(['aaaaaaaaaaaaaaaaaaaaaaaa']);
    expect([p.get('startDate'), p.get('endDate'), p.get('excluded'), p.get('test')]).toEqual(['2026-10-15', '2026-12-10', 'no', 'no']);
    expect(narrower).toBe(false);
  });

  it('narrows promoters to their class and a month row to that month within the range', () => {
    const p = params(drillHref({ screen: 'manager', npsClass: 'promoter' }, filters, row('2026-10', 'Oct 2026'), 'month').href);
    expect(p.get('class')).toBe('promoter');
    expect([p.get('startDate'), p.get('endDate')]).toEqual(['2026-10-15', '2026-10-31']);
    const december = params(drillHref({ screen: 'manager' }, filters, row('2026-12', 'Dec 2026'), 'month').href);
    expect([december.get('startDate'), december.get('endDate')]).toEqual(['2026-12-01', '2026-12-10']);
  });

  it('opens Survey Processing by the day sent, without Send test invitations, with the channel and delivered statuses', () => {
    const sms = { ...filters, channel: 'sms' as const };
    const p = params(drillHref({ screen: 'processing', statuses: ['delivered', 'opened'] }, sms, row('3', 'Acme'), 'client').href);
    expect([p.get('date_on'), p.get('test')]).toEqual(['sent', 'no']);
    expect(p.get('channel')).toBe('sms');
    expect(p.getAll('status')).toEqual(['delivered', 'opened']);
    expect(p.getAll('client')).toEqual(['3']);
  });

  it('says when the list cannot narrow as the number does (product groups, a channel in Survey Manager)', () => {
    expect(drillHref({ screen: 'manager' }, filters, row('4', 'Oil change'), 'product').narrower).toBe(true);
    expect(drillHref({ screen: 'manager' }, { ...filters, channel: 'email' }, null, 'location').narrower).toBe(true);
    expect(drillHref({ screen: 'processing' }, { ...filters, channel: 'email' }, null, 'location').narrower).toBe(false);
  });
});
