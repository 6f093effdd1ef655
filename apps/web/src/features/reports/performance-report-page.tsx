import type { PerformanceReport } from '@admin/shared';
import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { Page } from '../../components/page.tsx';
import { ApiError, api } from '../../lib/http.ts';
import { PerformanceCards } from './performance-cards.tsx';
import { PerformanceCharts } from './performance-charts.tsx';
import { performanceColumns, type RowSort, reviewSitesOf, sortRows } from './performance-columns.ts';
import { drillHref } from './performance-drill.ts';
import { downloadPerformanceCsv } from './performance-export.ts';
import { PerformanceFilters } from './performance-filters.tsx';
import { PerformancePrint } from './performance-print.tsx';
import { apiQuery, FILTER_LABELS, filterErrors, type ReportFilters, readFilters, writeFilters } from './performance-query.ts';
import { previousLabelOf, rangeLabel, summaryLines, useChosenNames } from './performance-summary.ts';
import { PerformanceTable } from './performance-table.tsx';
import { ScheduleReportButton } from './schedule-report-button.tsx';

export const PERFORMANCE_PATH = '/api/reports/performance';

/** What a failed report says: the server's message for each field it named, labelled as on screen. */
function errorText(error: Error): string {
  if (!(error instanceof ApiError)) return error.message;
  const fields = Object.values(error.fieldErrors).flat();
  return fields.length > 0 ? fields.join(' ') : error.message;
}

/**
 * Performance Report (issue 23): a client's results for staff reviews and QBRs. Filters in
 * the URL, the cards with their change against the previous equal period, the charts, the grouped
 * table (sortable, drilling down to Survey Manager and Survey Processing), Export CSV of exactly
 * the table, and a print view for A4 or Letter (`view=print`).
 */
export default function PerformanceReportPage() {
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const filters = useMemo(() => readFilters(search, new Date()), [search]);
  const sort: RowSort = { key: search.get('sort') ?? 'group', order: search.get('order') === 'desc' ? 'desc' : 'asc' };
  const printView = search.get('view') === 'print';
  const invalid = Object.keys(filterErrors(filters)).length > 0;
  const query = apiQuery(filters);

  const report = useQuery({
    queryKey: ['performance-report', query],
    queryFn: ({ signal }) => api.get<{ data: PerformanceReport }>(PERFORMANCE_PATH, { query, signal }),
    placeholderData: keepPreviousData,
    enabled: !invalid,
    // A 422 says what to change; asking again would not change the answer.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    meta: { what: 'Performance Report' },
  });
  const data = report.data?.data;
  const shownGroupBy = data?.query.groupBy ?? filters.groupBy;
  const columns = useMemo(() => performanceColumns(shownGroupBy, reviewSitesOf(data?.rows ?? [])), [shownGroupBy, data]);
  const { key: sortKey, order: sortOrder } = sort;
  const rows = useMemo(
    () => (data ? sortRows(data.rows, columns, { key: sortKey, order: sortOrder }) : undefined),
    [data, columns, sortKey, sortOrder],
  );
  const names = useChosenNames(filters);
  const previousLabel = previousLabelOf(filters);

  const write = (next: ReportFilters, extra: Record<string, string>) => {
    const params = writeFilters(next);
    for (const [k, v] of Object.entries(extra)) if (v) params.set(k, v);
    // Pushed, not replaced: Back returns to the report as it was before the change.
    setSearch(params);
  };
  const keep = { sort: search.get('sort') ?? '', order: search.get('order') ?? '' };
  const change = (patch: Partial<ReportFilters>) => write({ ...filters, ...patch }, keep);
  const setSort = (next: RowSort) => write(filters, { sort: next.key, order: next.order, view: printView ? 'print' : '' });
  const openPrint = () =>
    navigate({ search: `?${new URLSearchParams([...search, ['view', 'print']]).toString()}` }, { state: { autoPrint: true } });
  const autoPrint = (location.state as { autoPrint?: boolean } | null)?.autoPrint === true;

  if (printView && data && rows) {
    return (
      <PerformancePrint
        report={data}
        rows={rows}
        columns={columns}
        summary={summaryLines(filters, names)}
        previousLabel={previousLabel}
        autoPrint={autoPrint}
        onBack={() => write(filters, keep)}
      />
    );
  }

  return (
    <Page
      actions={
        <Group gap="xs">
          <Button variant="default" disabled={!rows} onClick={() => rows && downloadPerformanceCsv(rows, columns, filters)}>
            Export CSV
          </Button>
          <Button variant="default" disabled={!data} onClick={openPrint}>
            Print
          </Button>
          <ScheduleReportButton filters={filters} />
        </Group>
      }
    >
      <PerformanceFilters filters={filters} onChange={change} status={report.isFetching && <Loader size="xs" aria-label="Refreshing" />} />
      <Text size="sm" c="dimmed" aria-live="polite">
        {invalid
          ? `Choose a valid ${FILTER_LABELS.from} and ${FILTER_LABELS.to} to see the report.`
          : `${rangeLabel(filters.from, filters.to)}, compared with ${previousLabel}.`}
      </Text>
      {report.error ? (
        <Alert color="red" variant="light" title="The report could not be made">
          <Text size="sm">{errorText(report.error)}</Text>
          <Button size="xs" variant="light" mt="xs" onClick={() => void report.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        !invalid && (
          <>
            <PerformanceCards
              cards={data?.cards}
              previousLabel={previousLabel}
              drill={(target) => drillHref(target, filters, null, shownGroupBy).href}
            />
            <PerformanceCharts report={data} loading={report.isPending} />
          </>
        )
      )}
      {!invalid && !report.error && (
        <PerformanceTable
          rows={rows}
          columns={columns}
          groupBy={shownGroupBy}
          filters={filters}
          sort={sort}
          onSort={setSort}
          isPending={report.isPending}
          error={null}
          onRetry={() => void report.refetch()}
        />
      )}
    </Page>
  );
}
