import { exportMoment, wallTimeIn, zoneName } from '@admin/shared';
import { describe, expect, it } from 'vitest';
import { compactPhone, formatDate, formatDateTime, formatPhone, viewerTime } from './format.ts';

describe('formatPhone', () => {
  it('groups North American numbers', () => {
    expect(formatPhone('+12415552794')).toBe('+1 (241) 555-2794');
    expect(formatPhone('13035550100')).toBe('+1 (303) 555-0100');
    expect(formatPhone('3035550100')).toBe('(303) 555-0100');
    expect(formatPhone(' +1 (303) 555-0100 ')).toBe('+1 (303) 555-0100');
  });

  it('leaves other numbers and empty values as they are', () => {
    expect(formatPhone('+442079460958')).toBe('+442079460958');
    expect(formatPhone('5550100')).toBe('5550100');
    expect(formatPhone(null)).toBe('');
    expect(formatPhone('')).toBe('');
  });
});

describe('compactPhone', () => {
  it('drops the grouping people type, and is the inverse of formatPhone', () => {
    expect(compactPhone('+1 303 555 0142')).toBe('+13035550142');
    expect(compactPhone('+1 (303) 555-0142')).toBe('+13035550142');
    expect(compactPhone(formatPhone('+12415552794'))).toBe('+12415552794');
    expect(compactPhone('call me')).toBe('callme');
    expect(compactPhone(null)).toBe(null);
  });
});

describe('formatDate and formatDateTime', () => {
  const at = new Date(2026, 10, 23, 15, 4, 5);
  const viewerZone = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;

  it('share one pattern, the zone named', () => {
    expect(formatDate(at)).toBe('Nov 23, 2026');
    // Without a client's zone: the viewer's own, named all the same.
    expect(formatDateTime(at)).toBe(`Nov 23, 2026, 3:04 PM ${viewerZone}`);
    expect(formatDate(at.toISOString())).toBe('Nov 23, 2026');
  });

  it("write a client's time in the client's zone, whatever the viewer's", () => {
    // 15:05 UTC is 9:05 in Chicago (CST in November) and 10:05 in New York.
    expect(formatDateTime('2026-11-26T15:05:03Z', 'America/Chicago')).toBe('Nov 26, 2026, 9:05 AM CST');
    expect(formatDateTime('2026-11-26T15:05:03Z', 'America/New_York')).toBe('Nov 26, 2026, 10:05 AM EST');
    // Summer time is named as such; a zone outside the US by its offset.
    expect(formatDateTime('2026-07-01T15:05:03Z', 'America/Chicago')).toBe('Jul 1, 2026, 10:05 AM CDT');
    expect(formatDateTime('2026-11-26T15:05:03Z', 'Asia/Kolkata')).toBe('Nov 26, 2026, 8:35 PM GMT+5:30');
    // An unknown zone falls back to the viewer's rather than failing the screen.
    expect(formatDateTime(at, 'Not/AZone')).toBe(formatDateTime(at));
  });

  it("give the viewer's own time for the tooltip of a client's time only", () => {
    expect(viewerTime('2026-11-26T15:05:03Z', 'America/Chicago')).toBe(`Your time: ${formatDateTime('2026-11-26T15:05:03Z')}`);
    expect(viewerTime('2026-11-26T15:05:03Z', null)).toBeNull();
    expect(viewerTime(null, 'America/Chicago')).toBeNull();
  });

  it('write the same text in a CSV, a moment of no client in UTC', () => {
    expect(exportMoment('2026-11-26T15:05:03Z', 'America/Chicago')).toBe(formatDateTime('2026-11-26T15:05:03Z', 'America/Chicago'));
    expect(exportMoment('2026-11-26T15:05:03Z', null)).toBe('Nov 26, 2026, 3:05 PM UTC');
    expect(exportMoment(null, null)).toBe('');
  });

  it("read a time typed for a client as that time in the client's zone", () => {
    expect(wallTimeIn('2026-11-27T09:00', 'America/Chicago')).toBe('2026-11-27T15:00:00.000Z');
    expect(wallTimeIn('2026-07-01T09:00', 'America/Chicago')).toBe('2026-07-01T14:00:00.000Z');
    expect(wallTimeIn('2026-11-27T09:00', 'Asia/Kolkata')).toBe('2026-11-27T03:30:00.000Z');
    expect(wallTimeIn('2026-11-27', 'America/Chicago')).toBeNull();
    expect(wallTimeIn('2026-11-27T09:00', 'Not/AZone')).toBeNull();
    expect(zoneName('America/Chicago', new Date('2026-11-27T15:00:00Z'))).toBe('CST');
  });

  it('show nothing for a missing or unreadable value', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime(undefined)).toBe('');
  });
});
