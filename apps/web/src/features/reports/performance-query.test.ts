import { describe, expect, it } from 'vitest';
import { apiQuery, daysIn, filterErrors, lastFullMonth, previousPeriod, readFilters, writeFilters } from './performance-query.ts';

describe('the Performance Report filters in the URL', () => {
  it('default to the last full month, by client, all channels, everything selected', () => {
    const f = readFilters(new URLSearchParams(), new Date(2026, 10, 27));
    expect(f).toEqual({
      clients: [],
      locations: [],
      surveys: [],
      personnel: [],
      from: '2026-10-01',
      to: '2026-10-31',
      groupBy: 'client',
      channel: 'all',
    });
  });

  it('take the last full month across a new year and a leap February', () => {
    expect(lastFullMonth(new Date(2027, 0, 5))).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(lastFullMonth(new Date(2028, 2, 1))).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });

  it('read repeated and comma-joined values, drop "selected all", and refuse unknown choices', () => {
    const search = new URLSearchParams(
      'clients=3&clients=5,7&locations=selected%20all&groupBy=nonsense&channel=sms&from=2026-01-01&to=2026-01-31',
    );
    const f = readFilters(search, new Date(2026, 10, 27));
    expect(f.clients).toEqual(['3', '5', '7']);
    expect(f.locations).toEqual([]);
    expect(f.groupBy).toBe('client');
    expect(f.channel).toBe('sms');
    expect(readFilters(writeFilters(f), new Date()).clients).toEqual(['3', '5', '7']);
  });

  it('keep a date the user cleared empty instead of putting the default back', () => {
    const f = readFilters(new URLSearchParams('from=&to=2026-01-31'), new Date(2026, 10, 27));
    expect(f.from).toBe('');
    expect(filterErrors(f)).toEqual({ from: 'The Date from field is required' });
  });

  it('compare with as many days ending the day before', () => {
    expect(previousPeriod('2026-10-01', '2026-10-31')).toEqual({ from: '2026-08-31', to: '2026-09-30' });
    expect(previousPeriod('2026-03-01', '2026-03-01')).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(previousPeriod('2026-03-02', '2026-03-01')).toBeNull();
    expect(daysIn('2026-01-01', '2026-12-31')).toBe(365);
  });

  it('name the field that is wrong as the form labels it', () => {
    const base = readFilters(new URLSearchParams(), new Date(2026, 10, 27));
    expect(filterErrors(base)).toEqual({});
    expect(filterErrors({ ...base, from: '2026-11-01', to: '2026-10-01' }).to).toBe('The Date to field must be on or after the Date from');
    expect(filterErrors({ ...base, from: '2025-01-01', to: '2026-01-02' }).to).toBe(
      'The Date to field must be at most 366 days after the Date from',
    );
    expect(filterErrors({ ...base, from: '2024-01-01', to: '2024-12-31' })).toEqual({});
    expect(filterErrors({ ...base, from: '2026-02-30' }).from).toBe('The Date from field must be a date');
  });

  it('ask the API with only the lists that narrow it', () => {
    const f = readFilters(new URLSearchParams('surveys=9&from=2026-10-01&to=2026-10-31&groupBy=month'), new Date());
    expect(apiQuery(f)).toEqual({ from: '2026-10-01', to: '2026-10-31', groupBy: 'month', channel: 'all', surveys: ['9'] });
  });
});
