import type { PerformanceGroupBy, PerformanceRow } from '@admin/shared';
import type { DrillTarget } from './performance-columns.ts';
import { dayOf, type ReportFilters } from './performance-query.ts';

/**
 * Where a number of the report opens the rows behind it (issue 23; docs/decisions/066): responses in
 * Survey Manager, invitations in Survey Processing, with the filters those lists accept
 * (packages/shared/src/resources/survey-responses.ts and survey-processing.ts: `client`,
 * `location`, `survey`, `personnel`, `startDate`, `endDate`, and Survey Manager's `class`,
 * `excluded`, `test`; Survey Processing's `status`, `channel`, `date_on`, `test`).
 *
 * Neither list filters by product or referral source, and Survey Manager has no channel filter: a
 * row grouped so opens the rows of the report's other filters (`narrower` says the list shows more).
 */
export const MANAGER_PATH = '/admin/survey-manager';
export const PROCESSING_PATH = '/admin/survey-processing';

export type Drill = { href: string; narrower: boolean };

const GROUP_FILTER: Partial<Record<PerformanceGroupBy, 'client' | 'location' | 'survey' | 'personnel'>> = {
  client: 'client',
  location: 'location',
  survey: 'survey',
  personnel: 'personnel',
};

/** The first and last day of a `YYYY-MM` month, within the report's range. */
function monthWithin(month: string, from: string, to: string): { from: string; to: string } | null {
  const first = dayOf(`${month}-01`);
  if (!first) return null;
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
  const start = `${month}-01` > from ? `${month}-01` : from;
  const end = last < to ? last : to;
  return { from: start, to: end };
}

/** The link from one number: the report's filters, narrowed to the row's group (none for the cards). */
export function drillHref(target: DrillTarget, filters: ReportFilters, row: PerformanceRow | null, groupBy: PerformanceGroupBy): Drill {
  const params = new URLSearchParams();
  const lists = { client: filters.clients, location: filters.locations, survey: filters.surveys, personnel: filters.personnel };
  let range = { from: filters.from, to: filters.to };
  let narrower = target.screen === 'manager' && filters.channel !== 'all';
  if (row) {
    const name = GROUP_FILTER[groupBy];
    if (name) lists[name] = [row.key];
    else if (groupBy === 'month') range = monthWithin(row.key, filters.from, filters.to) ?? range;
    else narrower = true;
  }
  for (const [name, values] of Object.entries(lists)) for (const v of values) params.append(name, v);
  if (target.screen === 'processing') {
    // Sent counts invitations by the day they were sent, and never a Send test's.
    params.set('date_on', 'sent');
    params.set('test', 'no');
    if (filters.channel !== 'all') params.set('channel', filters.channel);
    for (const s of target.statuses ?? []) params.append('status', s);
  } else {
    // The report leaves out excluded and test responses; the list shows them unless told not to.
    params.set('excluded', 'no');
    params.set('test', 'no');
    if (target.npsClass) params.set('class', target.npsClass);
  }
  params.set('startDate', range.from);
  params.set('endDate', range.to);
  return { href: `${target.screen === 'manager' ? MANAGER_PATH : PROCESSING_PATH}?${params.toString()}`, narrower };
}
