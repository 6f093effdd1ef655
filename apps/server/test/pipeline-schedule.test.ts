import type { SendDay } from '@admin/shared';
import { describe, expect, it } from 'vitest';
import { earliestSendTime, isQuiet, minutesOf, nextSendTime, placeWithCap, type SendWindow, zonedTime } from '../src/pipeline/schedule.ts';

const CHICAGO = 'America/Chicago';
const WEEKDAYS: SendDay[] = ['mon', 'tue', 'wed', 'thu', 'fri'];
const window = (overrides: Partial<SendWindow> = {}): SendWindow => ({
  timeZone: CHICAGO,
  quietHoursStart: '21:00',
  quietHoursEnd: '08:00',
  sendDays: WEEKDAYS,
  ...overrides,
});

describe('zonedTime: a wall-clock time in a zone', () => {
  it.each([
    ['winter (CST, UTC−6)', [2026, 1, 5, '08:00'], '2026-01-05T14:00:00.000Z'],
    ['summer (CDT, UTC−5)', [2026, 7, 6, '08:00'], '2026-07-06T13:00:00.000Z'],
    ['spring forward: 02:30 does not exist, moves to 03:30 CDT', [2026, 3, 8, '02:30'], '2026-03-08T08:30:00.000Z'],
    ['fall back: 01:30 happens twice, the first (CDT) is taken', [2026, 11, 1, '01:30'], '2026-11-01T06:30:00.000Z'],
  ] as const)('%s', (_name, [y, m, d, hhmm], expected) => {
    expect(zonedTime(y, m, d, minutesOf(hhmm), CHICAGO).toISOString()).toBe(expected);
  });
});

describe('isQuiet', () => {
  it.each([
    ['21:00', '08:00', '20:59', false],
    ['21:00', '08:00', '21:00', true],
    ['21:00', '08:00', '23:59', true],
    ['21:00', '08:00', '00:00', true],
    ['21:00', '08:00', '07:59', true],
    ['21:00', '08:00', '08:00', false],
    ['12:00', '13:00', '12:30', true],
    ['12:00', '13:00', '13:00', false],
    ['00:00', '00:00', '03:00', false],
  ] as const)('quiet %s–%s at %s: %s', (start, end, at, quiet) => {
    expect(isQuiet(minutesOf(at), minutesOf(start), minutesOf(end))).toBe(quiet);
  });
});

describe('nextSendTime: send days and quiet hours in the client time zone', () => {
  it.each([
    ['inside the window: unchanged', '2026-03-02T15:00:00Z', window(), '2026-03-02T15:00:00.000Z'],
    ['quiet before midnight (Mon 22:00): Tue 08:00', '2026-03-03T04:00:00Z', window(), '2026-03-03T14:00:00.000Z'],
    ['quiet after midnight (Tue 02:00): Tue 08:00', '2026-03-03T08:00:00Z', window(), '2026-03-03T14:00:00.000Z'],
    ['at the quiet start (21:00): next morning', '2026-03-03T03:00:00Z', window(), '2026-03-03T14:00:00.000Z'],
    ['at the quiet end (08:00): unchanged', '2026-03-03T14:00:00Z', window(), '2026-03-03T14:00:00.000Z'],
    ['Friday 22:00 with weekdays only: Monday 08:00', '2026-03-07T04:00:00Z', window(), '2026-03-09T13:00:00.000Z'],
    ['Saturday noon: Monday 08:00 (now CDT after the spring change)', '2026-03-07T18:00:00Z', window(), '2026-03-09T13:00:00.000Z'],
    [
      'Sunday of the spring change, every day allowed: 08:00 CDT',
      '2026-03-08T07:00:00Z',
      window({ sendDays: [...WEEKDAYS, 'sat', 'sun'] }),
      '2026-03-08T13:00:00.000Z',
    ],
    [
      'Sunday of the fall-back change, every day allowed: 08:00 CST',
      '2026-11-01T06:00:00Z',
      window({ sendDays: [...WEEKDAYS, 'sat', 'sun'] }),
      '2026-11-01T14:00:00.000Z',
    ],
    [
      'a quiet lunch hour (12:00–13:00) not spanning midnight',
      '2026-03-02T18:30:00Z',
      window({ quietHoursStart: '12:00', quietHoursEnd: '13:00' }),
      '2026-03-02T19:00:00.000Z',
    ],
    [
      'no quiet hours (equal times): night is fine',
      '2026-03-03T08:00:00Z',
      window({ quietHoursStart: '00:00', quietHoursEnd: '00:00' }),
      '2026-03-03T08:00:00.000Z',
    ],
    ['another zone: Tokyo 23:00 → 08:00 JST', '2026-03-02T14:00:00Z', window({ timeZone: 'Asia/Tokyo' }), '2026-03-02T23:00:00.000Z'],
  ] as const)('%s', (_name, at, w, expected) => {
    expect(nextSendTime(new Date(at), w).toISOString()).toBe(expected);
  });
});

describe('placeWithCap: the location daily cap', () => {
  it('a full day moves the invitation to the next allowed day, skipping the weekend', () => {
    const counts: Record<string, number> = { '2026-03-06': 50 };
    // Friday 09:00 CST, cap 50 reached on Friday: Monday 08:00 CDT.
    const at = placeWithCap(new Date('2026-03-06T15:00:00Z'), window(), 50, (day) => counts[day] ?? 0);
    expect(at.toISOString()).toBe('2026-03-09T13:00:00.000Z');
  });
  it('a day below the cap keeps it', () => {
    const at = placeWithCap(new Date('2026-03-06T15:00:00Z'), window(), 50, () => 49);
    expect(at.toISOString()).toBe('2026-03-06T15:00:00.000Z');
  });
  it('several full days in a row are all skipped', () => {
    const full = new Set(['2026-03-02', '2026-03-03']);
    const at = placeWithCap(new Date('2026-03-02T15:00:00Z'), window(), 1, (day) => (full.has(day) ? 1 : 0));
    expect(at.toISOString()).toBe('2026-03-04T14:00:00.000Z');
  });
});

describe('earliestSendTime: the transaction time plus the send delay', () => {
  it.each([
    ['a past transaction: received time + delay', '2026-02-20', '2026-03-02T15:00:00Z', 24, '2026-03-03T15:00:00.000Z'],
    ['a transaction ahead: its day (client midnight) + delay', '2026-03-04', '2026-03-02T15:00:00Z', 2, '2026-03-04T08:00:00.000Z'],
    ['a delay across the spring change counts real hours', '2026-03-07', '2026-03-07T18:00:00Z', 24, '2026-03-08T18:00:00.000Z'],
  ] as const)('%s', (_name, date, received, delay, expected) => {
    expect(earliestSendTime(date, new Date(received), delay, CHICAGO).toISOString()).toBe(expected);
  });
});
