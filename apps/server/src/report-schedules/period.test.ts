import { describe, expect, it } from 'vitest';
import { lastCompletePeriod, lastSendAt, nextSendAt, periodOf, type ScheduleTiming } from './period.ts';

const weekly = (weekday: string, hour: number, timezone: string): ScheduleTiming => ({
  frequency: 'weekly',
  weekday,
  dayOfMonth: null,
  hour,
  timezone,
});
const monthly = (dayOfMonth: number, hour: number, timezone: string): ScheduleTiming => ({
  frequency: 'monthly',
  weekday: null,
  dayOfMonth,
  hour,
  timezone,
});
const at = (iso: string) => new Date(iso);

describe('the period a scheduled report covers', () => {
  it('weekly: the 7 local days ending the day before the send', () => {
    expect(periodOf('2026-11-23', 'weekly')).toEqual({ start: '2026-11-16', end: '2026-11-22' });
    // Across a month and a year end.
    expect(periodOf('2027-01-04', 'weekly')).toEqual({ start: '2026-12-28', end: '2027-01-03' });
  });

  it('monthly: the previous calendar month, leap February and year ends included', () => {
    expect(periodOf('2026-11-01', 'monthly')).toEqual({ start: '2026-10-01', end: '2026-10-31' });
    expect(periodOf('2028-03-15', 'monthly')).toEqual({ start: '2028-02-01', end: '2028-02-29' });
    expect(periodOf('2027-03-28', 'monthly')).toEqual({ start: '2027-02-01', end: '2027-02-28' });
    expect(periodOf('2027-01-05', 'monthly')).toEqual({ start: '2026-12-01', end: '2026-12-31' });
  });

  it("reads the day in the schedule's zone, not the server's", () => {
    // 03:00 UTC on Monday 23 November is still Sunday evening in Chicago: last week's Monday send is the latest.
    const chicago = weekly('mon', 7, 'America/Chicago');
    expect(lastSendAt(at('2026-11-23T03:00:00Z'), chicago).toISOString()).toBe('2026-11-16T13:00:00.000Z');
    expect(lastCompletePeriod(at('2026-11-23T03:00:00Z'), chicago)).toEqual({ start: '2026-11-09', end: '2026-11-15' });
    // The same instant is Monday noon in Tokyo: this Monday's 07:00 send has happened.
    const tokyo = weekly('mon', 7, 'Asia/Tokyo');
    expect(lastSendAt(at('2026-11-23T03:00:00Z'), tokyo).toISOString()).toBe('2026-11-22T22:00:00.000Z');
    expect(lastCompletePeriod(at('2026-11-23T03:00:00Z'), tokyo)).toEqual({ start: '2026-11-16', end: '2026-11-22' });
  });

  it('sends at the hour, on the minute it comes and not before', () => {
    const s = weekly('mon', 7, 'America/Chicago');
    expect(lastSendAt(at('2026-11-23T12:59:59Z'), s).toISOString()).toBe('2026-11-16T13:00:00.000Z');
    expect(lastSendAt(at('2026-11-23T13:00:00Z'), s).toISOString()).toBe('2026-11-23T13:00:00.000Z');
    expect(nextSendAt(at('2026-11-23T13:00:00Z'), s).toISOString()).toBe('2026-11-30T13:00:00.000Z');
  });

  it('keeps the local hour across daylight saving changes', () => {
    const s = weekly('sun', 7, 'America/Chicago');
    // Sunday 8 March 2026: clocks spring forward at 02:00; 07:00 CDT is 12:00 UTC (13:00 the week before, CST).
    expect(nextSendAt(at('2026-03-02T00:00:00Z'), s).toISOString()).toBe('2026-03-08T12:00:00.000Z');
    expect(lastSendAt(at('2026-03-08T11:59:00Z'), s).toISOString()).toBe('2026-03-01T13:00:00.000Z');
    // An hour in the gap (02:00 on the spring-forward day) moves forward to 03:00 CDT.
    expect(nextSendAt(at('2026-03-02T00:00:00Z'), weekly('sun', 2, 'America/Chicago')).toISOString()).toBe('2026-03-08T08:00:00.000Z');
    // Autumn: Sunday 1 November 2026, 01:00 happens twice; the first is taken.
    expect(nextSendAt(at('2026-10-26T00:00:00Z'), weekly('sun', 1, 'America/Chicago')).toISOString()).toBe('2026-11-01T06:00:00.000Z');
    // Europe changes on another Sunday (29 March 2026): 07:00 CEST is 05:00 UTC.
    expect(nextSendAt(at('2026-03-23T00:00:00Z'), monthly(1, 7, 'Europe/Paris')).toISOString()).toBe('2026-04-01T05:00:00.000Z');
  });

  it('monthly: the day of the month at the hour, the previous month before it comes', () => {
    const s = monthly(28, 6, 'Europe/Paris');
    expect(lastSendAt(at('2026-02-28T04:59:00Z'), s).toISOString()).toBe('2026-01-28T05:00:00.000Z');
    expect(lastCompletePeriod(at('2026-02-28T04:59:00Z'), s)).toEqual({ start: '2025-12-01', end: '2025-12-31' });
    expect(lastCompletePeriod(at('2026-02-28T05:00:00Z'), s)).toEqual({ start: '2026-01-01', end: '2026-01-31' });
    expect(nextSendAt(at('2026-12-28T05:00:00Z'), s).toISOString()).toBe('2027-01-28T05:00:00.000Z');
    // New Year's Day in Auckland is still 31 December in UTC.
    const nz = monthly(1, 8, 'Pacific/Auckland');
    expect(lastCompletePeriod(at('2026-12-31T20:00:00Z'), nz)).toEqual({ start: '2026-12-01', end: '2026-12-31' });
  });
});
