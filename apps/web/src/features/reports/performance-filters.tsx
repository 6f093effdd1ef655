import {
  PERFORMANCE_CHANNEL_LABELS,
  PERFORMANCE_CHANNELS,
  PERFORMANCE_GROUP_BY,
  PERFORMANCE_GROUP_BY_LABELS,
  type PerformanceChannel,
  type PerformanceGroupBy,
} from '@admin/shared';
import { SELECTED_ALL_LABEL } from '@admin/shared/constants';
import { Select } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import type { ReactNode } from 'react';
import '@mantine/dates/styles.css';
import { FilterBar } from '../../components/filters/filter-bar.tsx';
import { RemoteMultiFilter } from '../../components/filters/remote-multi-filter.tsx';
import { DATE_INPUT_FORMAT } from '../../lib/format.ts';
import { FILTER_LABELS, filterErrors, MULTI_FILTERS, OPTIONS_PATH, type ReportFilters } from './performance-query.ts';

const GROUP_BY_OPTIONS = PERFORMANCE_GROUP_BY.map((g) => ({ value: g, label: PERFORMANCE_GROUP_BY_LABELS[g] }));
const CHANNEL_OPTIONS = PERFORMANCE_CHANNELS.map((c) => ({ value: c, label: PERFORMANCE_CHANNEL_LABELS[c] }));

/** The report's filters (issue 23); every change goes to the URL at once. */
export function PerformanceFilters({
  filters,
  onChange,
  status,
}: {
  filters: ReportFilters;
  onChange(patch: Partial<ReportFilters>): void;
  status?: ReactNode;
}) {
  const errors = filterErrors(filters);
  const active = MULTI_FILTERS.filter((n) => filters[n].length > 0).length + (filters.channel === 'all' ? 0 : 1);
  return (
    <FilterBar active={active} status={status}>
      {MULTI_FILTERS.map((name) => (
        <RemoteMultiFilter
          key={name}
          label={FILTER_LABELS[name]}
          path={OPTIONS_PATH[name]}
          value={filters[name]}
          emptyLabel={SELECTED_ALL_LABEL}
          onChange={(value) => onChange({ [name]: value })}
        />
      ))}
      <DatePickerInput
        label={FILTER_LABELS.from}
        required
        valueFormat={DATE_INPUT_FORMAT}
        w={160}
        value={filters.from || null}
        error={errors.from}
        onChange={(value) => onChange({ from: value ?? '' })}
        popoverProps={{ withinPortal: true }}
      />
      <DatePickerInput
        label={FILTER_LABELS.to}
        required
        valueFormat={DATE_INPUT_FORMAT}
        w={160}
        value={filters.to || null}
        error={errors.to}
        onChange={(value) => onChange({ to: value ?? '' })}
        popoverProps={{ withinPortal: true }}
      />
      <Select
        label={FILTER_LABELS.groupBy}
        data={GROUP_BY_OPTIONS}
        value={filters.groupBy}
        allowDeselect={false}
        w={170}
        onChange={(value) => {
          const groupBy = PERFORMANCE_GROUP_BY.find((g) => g === value);
          if (groupBy) onChange({ groupBy: groupBy satisfies PerformanceGroupBy });
        }}
        comboboxProps={{ withinPortal: true }}
      />
      <Select
        label={FILTER_LABELS.channel}
        data={CHANNEL_OPTIONS}
        value={filters.channel}
        allowDeselect={false}
        w={150}
        onChange={(value) => {
          const channel = PERFORMANCE_CHANNELS.find((c) => c === value);
          if (channel) onChange({ channel: channel satisfies PerformanceChannel });
        }}
        comboboxProps={{ withinPortal: true }}
      />
    </FilterBar>
  );
}
