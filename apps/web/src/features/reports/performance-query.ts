import {
  MAX_REPORT_DAYS,
  PERFORMANCE_CHANNELS,
  PERFORMANCE_GROUP_BY,
  type PerformanceChannel,
  type PerformanceGroupBy,
} from '@admin/shared';
import { SELECTED_ALL } from '@admin/shared/constants';

/**
 * The Performance Report's filters as the URL holds them (shareable, back button), the same names
 * as the API's query string (packages/shared/src/reports/performance.ts): `clients`, `locations`,
 * `surveys`, `personnel` repeated, `from`, `to`, `groupBy`, `channel`.
 */
export type ReportFilters = {
  clients: string[];
  locations: string[];
  surveys: string[];
  personnel: string[];
  from: string;
  to: string;
  groupBy: PerformanceGroupBy;
  channel: PerformanceChannel;
};

export const MULTI_FILTERS = ['clients', 'locations', 'surveys', 'personnel'] as const;
export type MultiFilterName = (typeof MULTI_FILTERS)[number];

/**
 * The options of the four multi-selects: the ones Survey Manager offers
 * (apps/server/src/modules/survey-responses/routes.ts), paged on the server as the user types.
 */
export const OPTIONS_PATH: Record<MultiFilterName, string> = {
  clients: '/api/survey-responses/options/client',
  locations: '/api/survey-responses/options/location',
  surveys: '/api/survey-responses/options/survey',
  personnel: '/api/survey-responses/options/personnel',
};

/** How each filter is labelled on screen; messages name the fields so. */
export const FILTER_LABELS = {
  clients: 'Clients',
  locations: 'Locations',
  surveys: 'Surveys',
  personnel: 'Personnel',
  from: 'Date from',
  to: 'Date to',
  groupBy: 'Group by',
  channel: 'Channel',
} as const satisfies Record<keyof ReportFilters, string>;

const DAY_MS = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day as a UTC midnight, or null for anything that is not a real YYYY-MM-DD day. */
export function dayOf(value: string): Date | null {
  if (!ISO_DAY.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : date;
}

const isoOf = (date: Date) => date.toISOString().slice(0, 10);
export const addDays = (day: string, days: number): string => {
  const date = dayOf(day);
  return date ? isoOf(new Date(date.getTime() + days * DAY_MS)) : day;
};

/** Days from `from` to `to`, both included. */
export function daysIn(from: string, to: string): number {
  const a = dayOf(from);
  const b = dayOf(to);
  return a && b ? Math.round((b.getTime() - a.getTime()) / DAY_MS) + 1 : 0;
}

/** The default range: the last full calendar month before `today` (the viewer's own day). */
export function lastFullMonth(today: Date): { from: string; to: string } {
  const firstOfThis = Date.UTC(today.getFullYear(), today.getMonth(), 1);
  const lastOfPrevious = new Date(firstOfThis - DAY_MS);
  const firstOfPrevious = new Date(Date.UTC(lastOfPrevious.getUTCFullYear(), lastOfPrevious.getUTCMonth(), 1));
  return { from: isoOf(firstOfPrevious), to: isoOf(lastOfPrevious) };
}

/** The previous equal period: as many days, ending the day before `from` (the contract's rule). */
export function previousPeriod(from: string, to: string): { from: string; to: string } | null {
  const days = daysIn(from, to);
  if (days <= 0) return null;
  return { from: addDays(from, -days), to: addDays(from, -1) };
}

/** The filters the URL holds; what it leaves out gets its default (last full month, by client, all channels). */
export function readFilters(search: URLSearchParams, today: Date): ReportFilters {
  const list = (name: MultiFilterName) =>
    search
      .getAll(name)
      .flatMap((v) => v.split(','))
      .filter((v) => v !== '' && v !== SELECTED_ALL);
  const month = lastFullMonth(today);
  const groupBy = search.get('groupBy');
  const channel = search.get('channel');
  return {
    clients: list('clients'),
    locations: list('locations'),
    surveys: list('surveys'),
    personnel: list('personnel'),
    from: search.has('from') ? (search.get('from') ?? '') : month.from,
    to: search.has('to') ? (search.get('to') ?? '') : month.to,
    groupBy: PERFORMANCE_GROUP_BY.find((g) => g === groupBy) ?? 'client',
    channel: PERFORMANCE_CHANNELS.find((c) => c === channel) ?? 'all',
  };
}

/** The filters written back into a URL's query (every value, so a shared link shows the same report). */
export function writeFilters(filters: ReportFilters): URLSearchParams {
  const next = new URLSearchParams();
  for (const name of MULTI_FILTERS) for (const v of filters[name]) next.append(name, v);
  next.set('from', filters.from);
  next.set('to', filters.to);
  next.set('groupBy', filters.groupBy);
  next.set('channel', filters.channel);
  return next;
}

/**
 * What is wrong with the filters, by field, in the words the server's 422 uses
 * (apps/server/src/reports/performance/query.ts); an empty object when the report can be asked for.
 */
export function filterErrors(f: Pick<ReportFilters, 'from' | 'to'>): Partial<Record<'from' | 'to', string>> {
  const errors: Partial<Record<'from' | 'to', string>> = {};
  if (!f.from) errors.from = `The ${FILTER_LABELS.from} field is required`;
  else if (!dayOf(f.from)) errors.from = `The ${FILTER_LABELS.from} field must be a date`;
  if (!f.to) errors.to = `The ${FILTER_LABELS.to} field is required`;
  else if (!dayOf(f.to)) errors.to = `The ${FILTER_LABELS.to} field must be a date`;
  if (errors.from || errors.to) return errors;
  const days = daysIn(f.from, f.to);
  if (days < 1) errors.to = `The ${FILTER_LABELS.to} field must be on or after the ${FILTER_LABELS.from}`;
  else if (days > MAX_REPORT_DAYS)
    errors.to = `The ${FILTER_LABELS.to} field must be at most ${MAX_REPORT_DAYS} days after the ${FILTER_LABELS.from}`;
  return errors;
}

/** The API's query string for these filters ("Selected All" lists left out). */
export function apiQuery(f: ReportFilters): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = { from: f.from, to: f.to, groupBy: f.groupBy, channel: f.channel };
  for (const name of MULTI_FILTERS) if (f[name].length > 0) query[name] = f[name];
  return query;
}
