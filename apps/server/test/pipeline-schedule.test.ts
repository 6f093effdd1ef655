import type { SendDay } from '@admin/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  capPlacer,
  earliestSendTime,
  isQuiet,
  localDayOf,
  localTimeOf,
  minutesOf,
  nextLocalDayStart,
  nextSendTime,
  placeWithCap,
  type SendWindow,
  zonedTime,
} from '../src/pipeline/schedule.ts';

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

/** placeWithCap as it was before capPlacer: a walk from the first send time for every row. */
function walkFromStart(earliest: Date, w: SendWindow, cap: number, countOn: (localDay: string) => number): Date {
  let at = nextSendTime(earliest, w);
  if (cap <= 0) return at;
  for (let i = 0; i < 400 && countOn(localDayOf(at, w.timeZone)) >= cap; i++) {
    at = nextSendTime(nextLocalDayStart(at, w.timeZone), w);
  }
  return at;
}

const ZONES = ['America/Chicago', 'Europe/London', 'Asia/Tokyo', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'];
const ALL_DAYS: SendDay[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const hhmm = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const sendWindow = fc.record({
  timeZone: fc.constantFrom(...ZONES),
  quietHoursStart: hhmm,
  quietHoursEnd: hhmm,
  sendDays: fc.subarray(ALL_DAYS, { minLength: 1 }),
});
/** Instants around both 2026 DST changes of the zones above, to the minute. */
const instant = fc.integer({ min: Date.UTC(2026, 1, 20), max: Date.UTC(2026, 10, 10) }).map((ms) => new Date(ms - (ms % 60_000)));

describe('capPlacer: placeWithCap for a batch, resuming walks past full days', () => {
  it('places every row of a batch where a walk from the start would (random windows, caps, counts)', () => {
    fc.assert(
      fc.property(
        sendWindow,
        fc.integer({ min: 0, max: 4 }),
        // A few distinct starts and locations, as a feed batch has, and counts already in the database.
        fc.array(instant, { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('loc-a', 'loc-b', 'loc-c')), { minLength: 1, maxLength: 150 }),
        fc.array(fc.tuple(fc.constantFrom('loc-a', 'loc-b'), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 5 }))),
        (w, cap, starts, rows, already) => {
          const counts = new Map<string, number>();
          for (const [loc, dayOffset, n] of already) {
            const base = starts[0] ?? new Date(0);
            counts.set(`${loc}|${localDayOf(new Date(base.getTime() + dayOffset * 86_400_000), w.timeZone)}`, n);
          }
          const place = capPlacer(w, cap);
          for (const [pick, loc] of rows) {
            const earliest = starts[pick % starts.length] ?? new Date(0);
            const countOn = (day: string) => counts.get(`${loc}|${day}`) ?? 0;
            const expected = walkFromStart(earliest, w, cap, countOn);
            const at = place(earliest, loc, countOn);
            expect(at.toISOString()).toBe(expected.toISOString());
            const key = `${loc}|${localDayOf(at, w.timeZone)}`;
            counts.set(key, (counts.get(key) ?? 0) + 1);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('stops after 400 days like the walk from the start when every day is full', () => {
    const place = capPlacer(window(), 1);
    const earliest = new Date('2026-03-02T15:00:00Z');
    const expected = walkFromStart(earliest, window(), 1, () => 1);
    expect(place(earliest, 'loc', () => 1).toISOString()).toBe(expected.toISOString());
    // A second row resumes at the 400th day and stays there, as a fresh walk would.
    expect(place(earliest, 'loc', () => 1).toISOString()).toBe(expected.toISOString());
  });
});

describe('localTimeOf: remembered answers equal a fresh Intl reading', () => {
  it('matches a new formatter for random instants and zones, asked twice', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 0, 1) }), (zone, ms) => {
        const at = new Date(ms);
        const fresh = new Intl.DateTimeFormat('en-US', {
          timeZone: zone,
          hourCycle: 'h23',
          year: 'numeric',
          month: 'numeric',
          day: 'numeric',
          hour: 'numeric',
          minute: 'numeric',
          weekday: 'short',
        }).formatToParts(at);
        const part = (type: string) => fresh.find((p) => p.type === type)?.value ?? '';
        const expected = {
          year: Number(part('year')),
          month: Number(part('month')),
          day: Number(part('day')),
          minute: Number(part('hour')) * 60 + Number(part('minute')),
          weekday: part('weekday').toLowerCase(),
        };
        expect(localTimeOf(at, zone)).toEqual(expected);
        expect(localTimeOf(new Date(ms), zone)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
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
