import { describe, expect, it } from 'vitest';
import { lastSendText, recipientList, reportScheduleProblems, scheduleText } from './schedules.ts';

describe('scheduled reports in words', () => {
  it('says the schedule as a person would', () => {
    const base = { weekday: 'mon', day_of_month: null, hour: 7, timezone: 'America/Chicago' };
    expect(scheduleText({ ...base, frequency: 'weekly' })).toBe('Mondays at 07:00 America/Chicago');
    expect(scheduleText({ ...base, frequency: 'monthly', weekday: null, day_of_month: 1, hour: 18 })).toBe(
      'Monthly on day 1 at 18:00 America/Chicago',
    );
  });

  it('says how the last send went, the error of a failed one', () => {
    expect(lastSendText({ last_status: null, last_period: null, last_error: null })).toBe('Not sent yet');
    expect(lastSendText({ last_status: 'sent', last_period: '2026-11-16 – 2026-11-22', last_error: null })).toBe(
      'Sent (2026-11-16 – 2026-11-22)',
    );
    expect(lastSendText({ last_status: 'failed', last_period: null, last_error: 'x@example.com: 550 no such user' })).toBe(
      'Failed: x@example.com: 550 no such user',
    );
  });
});

describe('the checks the form and the server share', () => {
  it('reads recipients typed with commas, semicolons, spaces or lines', () => {
    expect(recipientList('a@example.com, b@example.com;c@example.com\nd@example.com ')).toEqual([
      'a@example.com',
      'b@example.com',
      'c@example.com',
      'd@example.com',
    ]);
    expect(recipientList([' a@example.com ', ''])).toEqual(['a@example.com']);
  });

  it('wants 1 to 20 valid recipients, named Recipients', () => {
    expect(reportScheduleProblems({ recipients: '' }).recipients).toEqual(['The Recipients field is required']);
    expect(reportScheduleProblems({ recipients: 'a@example.com, nope' }).recipients?.[0]).toBe(
      'The Recipients field holds addresses that are not valid: nope',
    );
    const many = Array.from({ length: 21 }, (_, i) => `p${i}@example.com`);
    expect(reportScheduleProblems({ recipients: many }).recipients?.[0]).toContain('at most 20');
    expect(reportScheduleProblems({ recipients: many.slice(0, 20) })).toEqual({});
  });

  it('wants the weekday of a weekly schedule and the day of a monthly one', () => {
    expect(reportScheduleProblems({ frequency: 'weekly', weekday: '' })).toHaveProperty('weekday');
    expect(reportScheduleProblems({ frequency: 'monthly', day_of_month: null })).toHaveProperty('day_of_month');
    expect(reportScheduleProblems({ frequency: 'monthly', day_of_month: '28', weekday: '' })).toEqual({});
  });
});
