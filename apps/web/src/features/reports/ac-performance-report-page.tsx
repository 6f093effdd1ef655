import type { AcPerformanceReport } from '@admin/shared';
import { SELECTED_ALL_LABEL } from '@admin/shared/constants';
import { Alert, Anchor, Button, Group, Loader, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import '@mantine/dates/styles.css';
import { FilterBar } from '../../components/filters/filter-bar.tsx';
import { RemoteMultiFilter } from '../../components/filters/remote-multi-filter.tsx';
import { Page } from '../../components/page.tsx';
import { DATE_INPUT_FORMAT } from '../../lib/format.ts';
import { ApiError, api } from '../../lib/http.ts';
import {
  AC_PATH,
  type AcFilters,
  acApiQuery,
  acCsv,
  acFilterErrors,
  COORDINATOR_OPTIONS_PATH,
  displayRows,
  AC_FILTER_LABELS as L,
  performanceHref,
  readAcFilters,
  writeAcFilters,
} from './ac-performance-rows.ts';
import { AcPerformanceTable } from './ac-performance-table.tsx';
import { OPTIONS_PATH } from './performance-query.ts';
import { rangeLabel } from './performance-summary.ts';

function errorText(error: Error): string {
  if (!(error instanceof ApiError)) return error.message;
  const fields = Object.values(error.fieldErrors).flat();
  return fields.length > 0 ? fields.join(' ') : error.message;
}

function download(csv: string, f: AcFilters) {
  // A byte-order mark so a spreadsheet reads the arrows and dashes as UTF-8.
  const url = URL.createObjectURL(new Blob([`\uFEFF${csv}`], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `ac-performance-report-${f.from}-to-${f.to}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * AC Performance Report (issue 23, domain §28): each Account Coordinator's book of clients, with
 * the clients of a book on demand, paused and at-risk clients flagged with the reason, Export CSV
 * of the lines shown, and a drill-down to the Performance Report for a book or one client.
 */
export default function AcPerformanceReportPage() {
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => readAcFilters(search, new Date()), [search]);
  const errors = acFilterErrors(filters);
  const invalid = Object.keys(errors).length > 0;
  const query = acApiQuery(filters);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const report = useQuery({
    queryKey: ['ac-performance-report', query],
    queryFn: ({ signal }) => api.get<{ data: AcPerformanceReport }>(AC_PATH, { query, signal }),
    placeholderData: keepPreviousData,
    enabled: !invalid,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    meta: { what: 'AC Performance Report' },
  });
  const data = report.data?.data;
  const rows = useMemo(() => (data ? displayRows(data, expanded) : undefined), [data, expanded]);
  const change = (patch: Partial<AcFilters>) => setSearch(writeAcFilters({ ...filters, ...patch }));
  const toggle = (key: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const allClients = data?.rows.flatMap((b) => b.clients.map((c) => c.id)) ?? [];

  return (
    <Page
      actions={
        <Group gap="xs">
          <Button variant="default" disabled={!rows} onClick={() => rows && download(acCsv(rows), filters)}>
            Export CSV
          </Button>
          {allClients.length > 0 && (
            <Anchor component={Link} to={performanceHref(allClients, filters)} size="sm">
              Performance Report for these clients
            </Anchor>
          )}
        </Group>
      }
    >
      <FilterBar
        active={(filters.coordinators.length > 0 ? 1 : 0) + (filters.clients.length > 0 ? 1 : 0)}
        status={report.isFetching && <Loader size="xs" aria-label="Refreshing" />}
      >
        <RemoteMultiFilter
          label={L.coordinators}
          path={COORDINATOR_OPTIONS_PATH}
          value={filters.coordinators}
          emptyLabel={SELECTED_ALL_LABEL}
          onChange={(coordinators) => change({ coordinators })}
        />
        <RemoteMultiFilter
          label={L.clients}
          path={OPTIONS_PATH.clients}
          value={filters.clients}
          emptyLabel={SELECTED_ALL_LABEL}
          onChange={(clients) => change({ clients })}
        />
        <DatePickerInput
          label={L.from}
          required
          valueFormat={DATE_INPUT_FORMAT}
          w={160}
          value={filters.from || null}
          error={errors.from}
          onChange={(value) => change({ from: value ?? '' })}
          popoverProps={{ withinPortal: true }}
        />
        <DatePickerInput
          label={L.to}
          required
          valueFormat={DATE_INPUT_FORMAT}
          w={160}
          value={filters.to || null}
          error={errors.to}
          onChange={(value) => change({ to: value ?? '' })}
          popoverProps={{ withinPortal: true }}
        />
      </FilterBar>
      <Text size="sm" c="dimmed" aria-live="polite">
        {invalid
          ? `Choose a valid ${L.from} and ${L.to} to see the report.`
          : `${rangeLabel(filters.from, filters.to)}, Δ NPS against the ${data ? rangeLabel(data.previous.from, data.previous.to) : 'previous equal period'}. A client is at risk after 7 days without feed data or when its NPS fell by more than 10.`}
      </Text>
      {report.error && (
        <Alert color="red" variant="light" title="The report could not be made">
          <Text size="sm">{errorText(report.error)}</Text>
          <Button size="xs" variant="light" mt="xs" onClick={() => void report.refetch()}>
            Try again
          </Button>
        </Alert>
      )}
      {!invalid && !report.error && (
        <AcPerformanceTable
          rows={rows}
          filters={filters}
          onToggle={toggle}
          isPending={report.isPending}
          error={null}
          onRetry={() => void report.refetch()}
        />
      )}
    </Page>
  );
}
