import { localTimeOf } from '../schedule.ts';

/**
 * A small 5-field cron matcher for feed schedules (minute hour day-of-month month day-of-week):
 * numbers, `*`, ranges `a-b`, steps `*\/n` and `a-b/n`, lists `a,b`; day-of-week 0–7 (0 and 7 are
 * Sunday); when both day fields are restricted a day matching either runs (as Vixie cron). Times
 * are read in the client's time zone.
 */

const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
] as const;

export type Cron = {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  anyDay: boolean;
  anyWeekday: boolean;
};

export class CronError extends Error {}

function field(text: string, spec: (typeof FIELDS)[number]): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) throw new CronError(`The ${spec.name} "${part}" is not a number, range, list or step`);
    const from = match[1] === '*' ? spec.min : Number(match[2]);
    const to = match[1] === '*' ? spec.max : match[3] !== undefined ? Number(match[3]) : match[4] !== undefined ? spec.max : from;
    const step = match[4] !== undefined ? Number(match[4]) : 1;
    if (from < spec.min || to > spec.max || from > to || step < 1) {
      throw new CronError(`The ${spec.name} "${part}" is outside ${spec.min}–${spec.max}`);
    }
    for (let v = from; v <= to; v += step) values.add(spec.name === 'day of week' && v === 7 ? 0 : v);
  }
  return values;
}

/** Parses a 5-field expression, or throws a CronError saying which field is wrong. */
export function parseCron(expression: string): Cron {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) throw new CronError('A schedule has 5 fields: minute hour day-of-month month day-of-week');
  const [minutes, hours, days, months, weekdays] = FIELDS.map((spec, i) => field(parts[i] ?? '', spec));
  if (!minutes || !hours || !days || !months || !weekdays) throw new CronError('A schedule has 5 fields');
  return { minutes, hours, days, months, weekdays, anyDay: parts[2] === '*', anyWeekday: parts[4] === '*' };
}

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The wall clock in `timeZone` (the send engine's `localTimeOf`), with the weekday as cron numbers it. */
function localParts(date: Date, timeZone: string) {
  const local = localTimeOf(date, timeZone);
  return {
    month: local.month,
    day: local.day,
    hour: Math.floor(local.minute / 60),
    minute: local.minute % 60,
    weekday: WEEKDAYS.indexOf(local.weekday),
  };
}

const MINUTE = 60_000;

/** The first minute strictly after `after` that the schedule matches, in `timeZone`; null when none within a year and a day. */
export function nextRun(cron: Cron, after: Date, timeZone: string): Date | null {
  let t = Math.floor(after.getTime() / MINUTE) * MINUTE + MINUTE;
  const end = t + 367 * 24 * 60 * MINUTE;
  while (t < end) {
    const p = localParts(new Date(t), timeZone);
    const dayOk =
      cron.anyDay && cron.anyWeekday
        ? true
        : cron.anyDay
          ? cron.weekdays.has(p.weekday)
          : cron.anyWeekday
            ? cron.days.has(p.day)
            : cron.days.has(p.day) || cron.weekdays.has(p.weekday);
    if (!cron.months.has(p.month) || !dayOk) {
      t += ((23 - p.hour) * 60 + (60 - p.minute)) * MINUTE;
      continue;
    }
    if (!cron.hours.has(p.hour)) {
      t += (60 - p.minute) * MINUTE;
      continue;
    }
    if (!cron.minutes.has(p.minute)) {
      t += MINUTE;
      continue;
    }
    return new Date(t);
  }
  return null;
}
