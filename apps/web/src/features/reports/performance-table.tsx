import type { PerformanceGroupBy, PerformanceRow } from '@admin/shared';
import { Anchor, Badge } from '@mantine/core';
import { Link } from 'react-router';
import { DataTable } from '../../components/data-table/data-table.tsx';
import type { PerformanceColumn, RowSort } from './performance-columns.ts';
import { drillHref } from './performance-drill.ts';
import type { ReportFilters } from './performance-query.ts';

const BAND_COLORS = { Poor: 'red', Average: 'yellow', Good: 'blue', Excellent: 'teal' } as const;

/** On a phone each group is a card: its name, its band, and the figures looked at first. */
const CARD = { title: 'group', status: 'npsBand', facts: ['sent', 'responses', 'responseRate', 'nps', 'csat', 'newReviews'] };

/**
 * The grouped table (issue 23): one row per group, every column, sorted on the screen (the
 * rows are one per group, all in hand); a number with rows behind it opens them.
 */
export function PerformanceTable(props: {
  rows: PerformanceRow[] | undefined;
  columns: PerformanceColumn[];
  groupBy: PerformanceGroupBy;
  filters: ReportFilters;
  sort: RowSort;
  onSort(sort: RowSort): void;
  isPending: boolean;
  error: Error | null;
  onRetry(): void;
}) {
  const { columns, filters, groupBy } = props;
  const renderCell = (key: string, row: PerformanceRow) => {
    const column = columns.find((c) => c.key === key);
    if (!column) return null;
    const text = column.text(row);
    if (key === 'npsBand') {
      const band = row.figures.npsBand;
      return band ? (
        <Badge color={BAND_COLORS[band]} variant="light">
          {band}
        </Badge>
      ) : (
        text
      );
    }
    if (!column.drill || text === '—') return text;
    const drill = drillHref(column.drill, filters, row, groupBy);
    const where = column.drill.screen === 'manager' ? 'Survey Manager' : 'Survey Processing';
    return (
      <Anchor
        component={Link}
        to={drill.href}
        size="sm"
        aria-label={`${column.label} of ${row.label}: ${text}, open the rows in ${where}`}
        title={drill.narrower ? `${where} cannot filter by this group; it lists the rows of the other filters` : undefined}
      >
        {text}
      </Anchor>
    );
  };
  return (
    <DataTable<PerformanceRow>
      caption="Performance by group"
      columns={columns.map((c) => ({ key: c.key, label: c.label, sortable: true }))}
      visible={columns.map((c) => c.key)}
      rows={props.rows}
      rowKey={(r) => r.key}
      renderCell={renderCell}
      sort={{ sort: props.sort.key, order: props.sort.order }}
      defaultSort={{ sort: 'group', order: 'asc' }}
      onSort={(next) => props.onSort({ key: next.sort ?? 'group', order: next.order ?? 'asc' })}
      isPending={props.isPending}
      error={props.error}
      onRetry={props.onRetry}
      empty={{ title: 'Nothing was sent or answered in this period for these filters.' }}
      card={CARD}
      rowName={(r) => r.label}
    />
  );
}
