import { describe, expect, it } from 'vitest';
import { segmentsOf } from './segments.ts';

describe('segmentsOf', () => {
  it('splits a year ending mid-month into its head days, whole months and tail days', () => {
    expect(segmentsOf('2025-11-28', '2026-11-27')).toEqual({
      months: { from: '2025-12-01', to: '2026-10-01' },
      monthsEnd: '2026-10-31',
      days: [
        { from: '2025-11-28', to: '2025-11-30' },
        { from: '2026-11-01', to: '2026-11-27' },
      ],
    });
  });
  it('reads whole months only when the range is whole months, leap February included', () => {
    expect(segmentsOf('2024-01-01', '2024-02-29')).toEqual({
      months: { from: '2024-01-01', to: '2024-02-01' },
      monthsEnd: '2024-02-29',
      days: [],
    });
  });
  it('reads days only when no whole month lies inside', () => {
    expect(segmentsOf('2026-01-02', '2026-01-31')).toEqual({
      months: null,
      monthsEnd: null,
      days: [{ from: '2026-01-02', to: '2026-01-31' }],
    });
    expect(segmentsOf('2026-01-15', '2026-02-14')).toEqual({
      months: null,
      monthsEnd: null,
      days: [{ from: '2026-01-15', to: '2026-02-14' }],
    });
    expect(segmentsOf('2026-03-05', '2026-03-05')).toEqual({
      months: null,
      monthsEnd: null,
      days: [{ from: '2026-03-05', to: '2026-03-05' }],
    });
  });
  it('keeps a whole month that ends the range, and one that starts it', () => {
    expect(segmentsOf('2026-01-20', '2026-02-28')).toEqual({
      months: { from: '2026-02-01', to: '2026-02-01' },
      monthsEnd: '2026-02-28',
      days: [{ from: '2026-01-20', to: '2026-01-31' }],
    });
    expect(segmentsOf('2026-02-01', '2026-03-10')).toEqual({
      months: { from: '2026-02-01', to: '2026-02-01' },
      monthsEnd: '2026-02-28',
      days: [{ from: '2026-03-01', to: '2026-03-10' }],
    });
  });
});
