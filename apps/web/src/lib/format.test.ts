import { describe, expect, it } from 'vitest';
import { compactPhone, formatDate, formatDateTime, formatPhone } from './format.ts';

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

  it('share one pattern', () => {
    expect(formatDate(at)).toBe('Nov 23, 2026');
    expect(formatDateTime(at)).toMatch(/^Nov 23, 2026, 3:04:05\sPM$/);
    expect(formatDate(at.toISOString())).toBe('Nov 23, 2026');
  });

  it('show nothing for a missing or unreadable value', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime(undefined)).toBe('');
  });
});
