import { describe, expect, it } from 'vitest';
import { acApiQuery, acCsv, acFilterErrors, displayRows, performanceHref, readAcFilters, writeAcFilters } from './ac-performance-rows.ts';
import { acReport as report } from './ac-performance-test-data.ts';
import { readFilters } from './performance-query.ts';

describe('AC Performance Report rows', () => {
  it('shows the books, and a book’s clients only once expanded', () => {
    expect(displayRows(report, new Set()).map((r) => r.label)).toEqual(['Ada Admin', 'No coordinator']);
    const open = displayRows(report, new Set(['ac-7']));
    expect(open.map((r) => `${r.kind}:${r.label}`)).toEqual([
      'coordinator:Ada Admin',
      'client:Bright Smile, Dental',
      'client:Maple',
      'coordinator:No coordinator',
    ]);
    expect(open[0]?.clientIds).toEqual([3, 9]);
    expect(open[0]?.risks).toEqual([{ kind: 'nps_drop', reason: 'Bright Smile, Dental: NPS fell by 15 points (from 55 to 40)' }]);
  });

  it('exports exactly the lines shown, every column in words', () => {
    const csv = acCsv(displayRows(report, new Set(['ac-7'])));
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe(
      'Row,Account coordinator or client,Clients,Active locations,Surveys sent,Response rate,NPS,Δ NPS,Review invites → posted,New reviews,Avg rating,Open unsent alerts,Review alerts undelivered,Listings accuracy,Paused or at risk',
    );
    expect(lines[1]).toBe('Coordinator,Ada Admin,2,2,10,33.3%,40,−15,4 → 1,5,4.20,0,1,75.0%,1 of 2');
    expect(lines[2]).toBe('Client,"Bright Smile, Dental",1,2,10,33.3%,40,−15,4 → 1,5,4.20,0,1,75.0%,NPS fell by 15 points (from 55 to 40)');
    expect(lines[3]?.endsWith(',No')).toBe(true);
    expect(lines[4]).toBe('Coordinator,No coordinator,1,2,10,33.3%,—,—,4 → 1,5,4.20,0,1,75.0%,1 of 1');
  });

  it('drills down to the Performance Report with the clients chosen, by client, over the same range', () => {
    const href = performanceHref([3, 9], { from: '2026-11-01', to: '2026-11-30' });
    const [path, qs] = href.split('?');
    expect(path).toBe('/admin/reports/performance-report');
    const read = readFilters(new URLSearchParams(qs), new Date());
    expect(read).toMatchObject({ clients: ['3', '9'], from: '2026-11-01', to: '2026-11-30', groupBy: 'client', locations: [] });
  });

  it('keeps the filters in the URL and refuses a bad range in the server’s words', () => {
    const f = { coordinators: ['7'], clients: [], from: '2026-11-01', to: '2026-11-30' };
    expect(readAcFilters(writeAcFilters(f), new Date())).toEqual(f);
    expect(acApiQuery(f)).toEqual({ from: '2026-11-01', to: '2026-11-30', coordinators: ['7'] });
    expect(readAcFilters(new URLSearchParams(), new Date(2026, 10, 27))).toEqual({
      coordinators: [],
      clients: [],
      from: '2026-10-29',
      to: '2026-11-27',
    });
    expect(acFilterErrors({ ...f, from: '' })).toEqual({ from: 'The Date from field is required' });
    expect(acFilterErrors({ ...f, to: '2026-10-01' })).toEqual({ to: 'The Date to field must be on or after the Date from' });
    expect(acFilterErrors({ ...f, from: '2025-01-01', to: '2026-01-02' })).toEqual({
      to: 'The Date to field must be at most 366 days after the Date from',
    });
    expect(acFilterErrors(f)).toEqual({});
  });
});
