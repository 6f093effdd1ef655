import type { SendDay } from '@admin/shared';

/**
 * When an invitation may go out (docs/pipeline.md, rule 6), as pure time arithmetic in the
 * client's time zone: the send days, the quiet hours (which may span midnight, 21:00–08:00), and
 * the location's daily cap. Wall-clock times that do not exist (a DST spring-forward gap) move
 * forward; ambiguous ones (fall back) take the first.
 */
export type SendWindow = {
  timeZone: string;
  /** `HH:mm`; equal start and end mean no quiet hours. */
  quietHoursStart: string;
  quietHoursEnd: string;
  sendDays: readonly SendDay[];
};

const DAY_MS = 86_400_000;
const WEEKDAYS: SendDay[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

export type LocalTime = { year: number; month: number; day: number; minute: number; weekday: SendDay };

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

type Parts = Readonly<{ year: number; month: number; day: number; hour: number; minute: number; second: number }>;

/**
 * `formatToParts` answers, remembered by zone and instant: admitting a batch asks about the same few
 * instants (the batch's receive time, each transaction day's midnight, each send day's start) for
 * thousands of rows, and one `formatToParts` costs microseconds. The answer for an instant never
 * changes, so the memo only has to be bounded, not invalidated.
 */
const partsMemo = new Map<string, Parts>();
const PARTS_MEMO_MAX = 50_000;

function partsOf(at: Date, timeZone: string): Parts {
  const key = `${timeZone}|${at.getTime()}`;
  const known = partsMemo.get(key);
  if (known) return known;
  const parts: Record<string, number> = {};
  for (const p of formatterOf(timeZone).formatToParts(at)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const answer: Parts = {
    year: parts.year ?? 0,
    month: parts.month ?? 0,
    day: parts.day ?? 0,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
  if (partsMemo.size >= PARTS_MEMO_MAX) partsMemo.clear();
  partsMemo.set(key, answer);
  return answer;
}

/** The wall clock in `timeZone` at `at`. */
export function localTimeOf(at: Date, timeZone: string): LocalTime {
  const p = partsOf(at, timeZone);
  const weekday = WEEKDAYS[new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay()] ?? 'sun';
  return { year: p.year, month: p.month, day: p.day, minute: p.hour * 60 + p.minute, weekday };
}

/** The local day of `at` as `yyyy-MM-dd` (the daily cap counts by it). */
export function localDayOf(at: Date, timeZone: string): string {
  const { year, month, day } = localTimeOf(at, timeZone);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Offset of `timeZone` from UTC at `at`, in ms (Chicago in winter: −6 h). */
function offsetMs(at: Date, timeZone: string): number {
  const p = partsOf(at, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - (at.getTime() - at.getUTCMilliseconds());
}

/** The instant a wall-clock time in `timeZone` names; a time in a DST gap moves forward by the gap. */
export function zonedTime(year: number, month: number, day: number, minute: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day, Math.floor(minute / 60), minute % 60);
  // The zone's offsets a day either side of the wall time: one of them is in force at it.
  const before = wall - offsetMs(new Date(wall - DAY_MS), timeZone);
  const after = wall - offsetMs(new Date(wall + DAY_MS), timeZone);
  const shows = (at: number) => {
    const p = partsOf(new Date(at), timeZone);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) === wall;
  };
  const valid = [before, after].filter(shows);
  // Ambiguous (fall back): the earlier instant; in a gap (spring forward): the offset before it, which lands after the gap.
  return new Date(valid.length > 0 ? Math.min(...valid) : before);
}

/** `HH:mm` → minutes after midnight. */
export function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** Whether a minute of the day is within the quiet hours `[start, end)`, which may span midnight. */
export function isQuiet(minute: number, start: number, end: number): boolean {
  if (start === end) return false;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/** The start of the local day after the one `at` falls on. */
export function nextLocalDayStart(at: Date, timeZone: string): Date {
  const t = localTimeOf(at, timeZone);
  const next = new Date(Date.UTC(t.year, t.month - 1, t.day) + DAY_MS);
  return zonedTime(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0, timeZone);
}

/** The first instant at or after `earliest` on a send day and outside the quiet hours. */
export function nextSendTime(earliest: Date, window: SendWindow): Date {
  const { timeZone } = window;
  const start = minutesOf(window.quietHoursStart);
  const end = minutesOf(window.quietHoursEnd);
  let at = earliest;
  for (let i = 0; i < 40; i++) {
    const t = localTimeOf(at, timeZone);
    if (!window.sendDays.includes(t.weekday)) {
      at = nextLocalDayStart(at, timeZone);
      continue;
    }
    if (!isQuiet(t.minute, start, end)) return at;
    // Quiet: wait for its end, today (before an early-morning end) or tomorrow (after a late start).
    const endsTomorrow = start > end && t.minute >= start;
    const base = endsTomorrow ? nextLocalDayStart(at, timeZone) : at;
    const b = localTimeOf(base, timeZone);
    at = zonedTime(b.year, b.month, b.day, end, timeZone);
  }
  // No send day at all: nothing is allowed; keep the earliest time rather than loop forever.
  return earliest;
}

/** Days `placeWithCap` moves forward past full ones at most; then it takes the day it reached. */
const CAP_MAX_DAYS = 400;

/**
 * The send time past the location's daily cap: `nextSendTime(earliest)`, moved to the next allowed
 * day while `countOn(localDay)` has reached `cap` (the caller counts what is already scheduled).
 */
export function placeWithCap(earliest: Date, window: SendWindow, cap: number, countOn: (localDay: string) => number): Date {
  return capPlacer(window, cap)(earliest, '', countOn);
}

/**
 * `placeWithCap` for many rows in a row (admitRows places a batch), with the same answers: each
 * walk past full days is remembered per scope (a location) and first send time, and the next row
 * of that scope and start resumes where the last walk stopped instead of walking the full days
 * again. Valid while the counts only grow, as they do when the caller counts each row it places:
 * a day that was full stays full, so the first day with room is never behind where the walk stopped.
 */
export function capPlacer(window: SendWindow, cap: number) {
  const stopped = new Map<string, { at: Date; days: number }>();
  const windowKey = `${window.timeZone}|${window.quietHoursStart}|${window.quietHoursEnd}|${window.sendDays.join(',')}`;
  const firsts = new Map<number, Date>();
  return (earliest: Date, scope: string, countOn: (localDay: string) => number): Date => {
    let first = firsts.get(earliest.getTime());
    if (!first) {
      first = nextSendTime(earliest, window);
      firsts.set(earliest.getTime(), first);
    }
    if (cap <= 0) return first;
    // The days walked depend only on the first send time, so (scope, first) names one walk.
    const key = `${scope}|${first.getTime()}`;
    const from = stopped.get(key);
    let at = from?.at ?? first;
    let days = from?.days ?? 0;
    for (; days < CAP_MAX_DAYS; days++) {
      const step = walkStep(at, window, windowKey);
      if (countOn(step.day) < cap) break;
      at = step.next;
    }
    stopped.set(key, { at, days });
    return at;
  };
}

/** One day of a walk past full days: the local day of a send time, and the next allowed day's first send time. */
type WalkStep = { day: string; next: Date };

/**
 * Walk steps remembered by window and instant. A location with a backlog is walked past the same
 * full days by every batch admitted for it (up to CAP_MAX_DAYS), and one step costs about ten
 * time-zone conversions: 0.7 ms of CPU per 10-row ingest call when each batch walked 400 days
 * afresh (bench/pipeline/endpoint.ts). A step's answer never changes, so the memo is only bounded.
 */
const walkMemo = new Map<string, WalkStep>();
const WALK_MEMO_MAX = 50_000;

function walkStep(at: Date, window: SendWindow, windowKey: string): WalkStep {
  const key = `${windowKey}|${at.getTime()}`;
  const known = walkMemo.get(key);
  if (known) return known;
  const step = { day: localDayOf(at, window.timeZone), next: nextSendTime(nextLocalDayStart(at, window.timeZone), window) };
  if (walkMemo.size >= WALK_MEMO_MAX) walkMemo.clear();
  walkMemo.set(key, step);
  return step;
}

/**
 * The earliest a row's invitation may go: the transaction's day (midnight, client time) if that is
 * still ahead, else the time it was received; plus the survey's send delay.
 */
export function earliestSendTime(transactionDate: string, receivedAt: Date, sendDelayHours: number, timeZone: string): Date {
  const [y, m, d] = transactionDate.split('-').map(Number);
  const day = y && m && d ? zonedTime(y, m, d, 0, timeZone) : receivedAt;
  const base = day.getTime() > receivedAt.getTime() ? day : receivedAt;
  return new Date(base.getTime() + sendDelayHours * 3_600_000);
}
