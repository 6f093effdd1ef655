import { ActionIcon, Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { DataTable } from '../../components/data-table/data-table.tsx';
import { AC_COLUMNS, type AcDisplayRow, type AcFilters, performanceHref } from './ac-performance-rows.ts';

/** On a phone each line is a card: its name, its flags, and the figures looked at first. */
const CARD = { title: 'label', status: 'risk', facts: ['clients', 'sent', 'responseRate', 'nps', 'npsChange', 'listingsAccuracy'] };
const NOOP = () => undefined;

/**
 * The AC Performance Report's table (domain §28): one line per coordinator, expandable to its
 * clients; each line opens the Performance Report for its clients. Rows are one per book, all in
 * hand, so the table is not paged.
 */
export function AcPerformanceTable(props: {
  rows: AcDisplayRow[] | undefined;
  filters: AcFilters;
  onToggle(key: string): void;
  isPending: boolean;
  error: Error | null;
  onRetry(): void;
}) {
  const renderCell = (key: string, row: AcDisplayRow) => {
    const column = AC_COLUMNS.find((c) => c.key === key);
    if (!column) return null;
    if (key === 'label') {
      if (row.kind === 'client')
        return (
          <Text size="sm" pl="xl">
            {row.label}
          </Text>
        );
      return (
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            aria-expanded={row.expanded}
            aria-label={`${row.expanded ? 'Hide' : 'Show'} the clients of ${row.label}`}
            onClick={() => props.onToggle(row.key)}
          >
            <span aria-hidden="true">{row.expanded ? '▾' : '▸'}</span>
          </ActionIcon>
          <Text size="sm" fw={600}>
            {row.label}
          </Text>
        </Group>
      );
    }
    if (key === 'risk' && row.kind === 'client' && row.risks.length > 0)
      return (
        <Stack gap={2}>
          {row.risks.map((r) => (
            <Badge key={r.kind} color={r.kind === 'paused' ? 'gray' : 'red'} variant="light" style={{ textTransform: 'none' }}>
              {r.reason}
            </Badge>
          ))}
        </Stack>
      );
    return column.text(row);
  };
  return (
    <DataTable<AcDisplayRow>
      caption="Performance by account coordinator"
      columns={AC_COLUMNS.map((c) => ({ key: c.key, label: c.label, sortable: false }))}
      visible={AC_COLUMNS.map((c) => c.key)}
      rows={props.rows}
      rowKey={(r) => r.key}
      renderCell={renderCell}
      sort={{ sort: undefined, order: undefined }}
      defaultSort={{ sort: 'label', order: 'asc' }}
      onSort={NOOP}
      isPending={props.isPending}
      error={props.error}
      onRetry={props.onRetry}
      empty={{ title: 'No client matches these filters.' }}
      card={CARD}
      rowName={(r) => r.label}
      rowActions={(r) =>
        r.clientIds.length > 0 && (
          <Anchor
            component={Link}
            to={performanceHref(r.clientIds, props.filters)}
            size="sm"
            aria-label={`Open the Performance Report for ${r.label}`}
          >
            Performance Report
          </Anchor>
        )
      }
    />
  );
}
