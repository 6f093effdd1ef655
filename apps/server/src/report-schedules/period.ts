import type { ScheduleFrequency } from '@admin/shared';
import { localTimeOf, zonedTime } from '../pipeline/schedule.ts';
import { addDays } from '../reports/performance/query.ts';

/** What the time of a schedule's sends depends on. */
export type ScheduleTiming = {
  frequency: ScheduleFrequency;
  /** `mon` … `sun` (weekly). */
  weekday: string | null;
  /** 1–28 (monthly). */
  dayOfMonth: number | null;
  hour: number;
  timezone: string;
};

/** Calendar days, both included (YYYY-MM-DD). */
export type Period = { start: string; end: string };

const WEEKDAY_INDEX: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const pad = (n: number) => String(n).padStart(2, '0');
const dayOf = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;
const partsOf = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return { year: y ?? 1970, month: m ?? 1, day: d ?? 1 };
};
/** The instant a local calendar day's hour names in the zone (a DST gap moves it forward, pipeline/schedule.ts). */
const instantOf = (day: string, hour: number, timeZone: string) => {
  const p = partsOf(day);
  return zonedTime(p.year, p.month, p.day, hour * 60, timeZone);
};
/** The first day of the month `n` months from the month of `day`. */
function monthStart(day: string, n: number): string {
  const p = partsOf(day);
  const index = p.year * 12 + (p.month - 1) + n;
  return dayOf(Math.floor(index / 12), (index % 12) + 1, 1);
}

/** The local day a send happens on, `n` sends after (positive) or before the one on or before `now`. */
function sendDay(now: Date, t: ScheduleTiming, n: number): string {
  const local = localTimeOf(now, t.timezone);
  const today = dayOf(local.year, local.month, local.day);
  if (t.frequency === 'monthly') {
    const day = Math.min(Math.max(t.dayOfMonth ?? 1, 1), 28);
    let month = monthStart(today, 0);
    if (instantOf(addDays(month, day - 1), t.hour, t.timezone).getTime() > now.getTime()) month = monthStart(month, -1);
    return addDays(monthStart(month, n), day - 1);
  }
  const target = WEEKDAY_INDEX[t.weekday ?? 'mon'] ?? 1;
  const todayIndex = new Date(`${today}T00:00:00Z`).getUTCDay();
  let day = addDays(today, -((todayIndex - target + 7) % 7));
  if (instantOf(day, t.hour, t.timezone).getTime() > now.getTime()) day = addDays(day, -7);
  return addDays(day, 7 * n);
}

/** The latest send time on or before `now`. */
export function lastSendAt(now: Date, t: ScheduleTiming): Date {
  return instantOf(sendDay(now, t, 0), t.hour, t.timezone);
}

/** The first send time after `now`. */
export function nextSendAt(now: Date, t: ScheduleTiming): Date {
  return instantOf(sendDay(now, t, 1), t.hour, t.timezone);
}

/**
 * The period a send on local day `day` reports: weekly, the 7 days ending the day before;
 * monthly, the previous calendar month.
 */
export function periodOf(day: string, frequency: ScheduleFrequency): Period {
  if (frequency === 'monthly') {
    const start = monthStart(day, -1);
    return { start, end: addDays(monthStart(day, 0), -1) };
  }
  return { start: addDays(day, -7), end: addDays(day, -1) };
}

/** The last complete period at `now`: the one the latest send on or before `now` reports (Send now sends it). */
export function lastCompletePeriod(now: Date, t: ScheduleTiming): Period {
  return periodOf(sendDay(now, t, 0), t.frequency);
}
