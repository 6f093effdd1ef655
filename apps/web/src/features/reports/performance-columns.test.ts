import { describe, expect, it } from 'vitest';
import { changeOf } from './performance-change.ts';
import { performanceColumns, performanceCsv, reviewSitesOf, sortRows } from './performance-columns.ts';
import { row } from './performance-test-data.ts';

describe('the Performance Report table', () => {
  const [north, south, east] = [
    row('a', 'North', { sent: 1500, promoters: 1, passives: 0, detractors: 3, newReviewsBySite: { yelp: 2 } }),
    row('b', 'South, "Main"', { sent: 20, promoters: 0, passives: 0, detractors: 0, avgScore: null }),
    row('c', 'East', { sent: 300, promoters: 9, passives: 1, detractors: 0, newReviewsBySite: { google: 4 } }),
  ];
  const rows = [north, south, east];
  const columns = performanceColumns('location', reviewSitesOf(rows));

  it('has every column of issue 23 in order, a column per review site', () => {
    expect(columns.map((c) => c.label)).toEqual([
      'Location',
      'Sent',
      'Delivered',
      'Opened',
      'Responses',
      'Response rate %',
      'Promoters',
      'Passives',
      'Detractors',
      'NPS',
      'Avg score',
      'CSAT %',
      'Alerts fired',
      'Alerts unsent',
      'Invites',
      'Reviews posted',
      'Conversion %',
      'New reviews',
      'New reviews on Google',
      'New reviews on Yelp',
      'Avg review rating',
      'NPS band',
    ]);
  });

  it('writes numbers as a person reads them, a dash where there is nothing to divide', () => {
    const text = (r: typeof north, key: string) => columns.find((c) => c.key === key)?.text(r);
    expect(text(north, 'sent')).toBe('1,500');
    expect(text(north, 'nps')).toBe('−50');
    expect(text(north, 'npsBand')).toBe('Poor');
    expect(text(south, 'nps')).toBe('—');
    expect(text(south, 'avgScore')).toBe('—');
    expect(text(north, 'responseRate')).toBe('4.4%');
    expect(text(east, 'site:google')).toBe('4');
    expect(text(north, 'site:google')).toBe('0');
  });

  it('sorts by a column either way, rows without a value last', () => {
    const by = (key: string, order: 'asc' | 'desc') => sortRows(rows, columns, { key, order }).map((r) => r.key);
    expect(by('sent', 'asc')).toEqual(['b', 'c', 'a']);
    expect(by('sent', 'desc')).toEqual(['a', 'c', 'b']);
    expect(by('nps', 'desc')).toEqual(['c', 'a', 'b']);
    expect(by('nps', 'asc')).toEqual(['a', 'c', 'b']);
    expect(by('group', 'asc')).toEqual(['c', 'a', 'b']);
  });

  it('exports exactly the columns and texts the table shows, quoted where needed', () => {
    const csv = performanceCsv(rows, columns);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(columns.map((c) => c.label).join(','));
    expect(lines[1]?.startsWith('North,"1,500",')).toBe(true);
    expect(lines[2]?.startsWith('"South, ""Main""",20,')).toBe(true);
    expect(lines[1]?.endsWith(',Poor')).toBe(true);
  });
});

describe('a card’s change against the previous period', () => {
  it('is a share for counts and says so in words', () => {
    expect(changeOf(150, 100, 'count')).toMatchObject({
      direction: 'up',
      good: true,
      text: '+50.0%',
      words: 'up 50.0% from the previous period',
    });
    expect(changeOf(4, 5, 'count', false)).toMatchObject({ direction: 'down', good: true, text: '−20.0%' });
  });

  it('is points for rates and NPS, two decimals for means', () => {
    expect(changeOf(42, 50, 'points')).toMatchObject({
      direction: 'down',
      good: false,
      text: '−8.0 pts',
      words: 'down 8.0 points from the previous period',
    });
    expect(changeOf(4.5, 4.25, 'mean')).toMatchObject({ direction: 'up', text: '+0.25' });
    expect(changeOf(10, 10, 'points')).toMatchObject({ direction: 'same', good: null });
  });

  it('says there is no previous data when the previous period had none', () => {
    expect(changeOf(10, 0, 'count')).toEqual({ kind: 'none', words: 'no previous data' });
    expect(changeOf(30, null, 'points')).toEqual({ kind: 'none', words: 'no previous data' });
    expect(changeOf(0, 0, 'points')).toMatchObject({ direction: 'same' });
  });
});
