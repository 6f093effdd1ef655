import { PERFORMANCE_CHANNEL_LABELS, PERFORMANCE_GROUP_BY_LABELS } from '@admin/shared';
import { SELECTED_ALL_LABEL } from '@admin/shared/constants';
import { useRemoteOptions } from '../../components/filters/remote-multi-filter.tsx';
import { formatDate } from '../../lib/format.ts';
import {
  FILTER_LABELS,
  MULTI_FILTERS,
  type MultiFilterName,
  OPTIONS_PATH,
  previousPeriod,
  type ReportFilters,
} from './performance-query.ts';

/** `Nov 1, 2026 – Nov 30, 2026`. */
export function rangeLabel(from: string, to: string): string {
  return `${formatDate(`${from}T12:00:00Z`)} – ${formatDate(`${to}T12:00:00Z`)}`;
}

/** "the previous period (Oct 1, 2026 – Oct 31, 2026)", or what stands for it while the dates are wrong. */
export function previousLabelOf(filters: ReportFilters): string {
  const previous = previousPeriod(filters.from, filters.to);
  return previous ? `the previous period (${rangeLabel(previous.from, previous.to)})` : 'the previous period';
}

/** The filters in words, one line each, with the chosen names in place of their ids. */
export function summaryLines(filters: ReportFilters, names: Record<MultiFilterName, string[]>): string[] {
  const lines = [`${rangeLabel(filters.from, filters.to)}, compared with ${previousLabelOf(filters)}`];
  lines.push(
    `${FILTER_LABELS.groupBy}: ${PERFORMANCE_GROUP_BY_LABELS[filters.groupBy]} · ${FILTER_LABELS.channel}: ${PERFORMANCE_CHANNEL_LABELS[filters.channel]}`,
  );
  for (const name of MULTI_FILTERS) {
    lines.push(`${FILTER_LABELS[name]}: ${filters[name].length === 0 ? SELECTED_ALL_LABEL : names[name].join(', ')}`);
  }
  return lines;
}

/** The chosen options' labels, from the same option lists the filters read (an ellipsis until they arrive). */
export function useChosenNames(filters: ReportFilters): Record<MultiFilterName, string[]> {
  const labels = (name: MultiFilterName, options: { value: string; label: string }[]) =>
    filters[name].map((id) => options.find((o) => o.value === id)?.label ?? '…');
  const clients = useRemoteOptions(OPTIONS_PATH.clients, '', filters.clients).options;
  const locations = useRemoteOptions(OPTIONS_PATH.locations, '', filters.locations).options;
  const surveys = useRemoteOptions(OPTIONS_PATH.surveys, '', filters.surveys).options;
  const personnel = useRemoteOptions(OPTIONS_PATH.personnel, '', filters.personnel).options;
  return {
    clients: labels('clients', clients),
    locations: labels('locations', locations),
    surveys: labels('surveys', surveys),
    personnel: labels('personnel', personnel),
  };
}
