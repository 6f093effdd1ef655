import { describe, expect, it } from 'vitest';
import { rangeOf } from './reputation-panel-list.tsx';

describe('the Reputation Panel’s Invited at range', () => {
  const now = new Date('2026-03-01T03:30:00Z');
  it('defaults to the last 30 days of the client’s zone', () => {
    // 03:30 UTC is still Feb 28 in Denver.
    expect(rangeOf({}, 'America/Denver', now)).toEqual({ startDate: '2026-01-30', endDate: '2026-02-28' });
    expect(rangeOf({}, 'UTC', now)).toEqual({ startDate: '2026-01-31', endDate: '2026-03-01' });
  });
  it('keeps the URL’s dates, and none once cleared', () => {
    expect(rangeOf({ startDate: '2025-01-01', endDate: '' }, 'UTC', now)).toEqual({ startDate: '2025-01-01', endDate: '' });
    expect(rangeOf({ range: 'all' }, 'UTC', now)).toEqual({ startDate: '', endDate: '' });
  });
});
