import type { ColumnDef } from '@admin/shared';
import { Alert, Button, Center, Group, Skeleton, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';

export type SortState = { sort: string | undefined; order: 'asc' | 'desc' | undefined };

type Props<Row> = {
  /** Accessible name of the table, e.g. "System logs". */
  caption: string;
  columns: readonly ColumnDef[];
  /** Visible column keys, in display order. */
  visible: string[];
  rows: Row[] | undefined;
  rowKey(row: Row): string | number;
  renderCell(key: string, row: Row): ReactNode;
  sort: SortState;
  defaultSort: { sort: string; order: 'asc' | 'desc' };
  onSort(next: SortState): void;
  isPending: boolean;
  error: Error | null;
  onRetry(): void;
  /** What an empty result says, and what to do about it. */
  empty: { title: string; action?: ReactNode };
  /** Opens a row (Enter or click on its first cell's button). */
  onOpen?(row: Row): void;
  openLabel?(row: Row): string;
  /** Buttons at the end of each row (edit, status changes …), under an "Actions" header. */
  rowActions?(row: Row): ReactNode;
};

/**
 * The kit's table: a real `<table>`, sortable headers (server-side), the four states
 * (loading skeleton, error with retry, empty with a call to action, data). One page of rows at a
 * time, so the DOM holds at most `perPage` (≤ 200) rows however large the table is.
 * Headers never wrap (a sort arrow stays beside its label) and, on screens wide enough for it,
 * the Actions column stays in view while the table scrolls sideways; its buttons wrap past a
 * width, so it never covers most of the table.
 */
export function DataTable<Row>(props: Props<Row>) {
  const { columns, visible, rows, sort, defaultSort } = props;
  const [scroller, visibleWidth] = useVisibleWidth();
  const shown = visible.map((k) => columns.find((c) => c.key === k)).filter((c): c is ColumnDef => c !== undefined);
  const span = shown.length + (props.rowActions ? 1 : 0);
  const activeSort = sort.sort ?? defaultSort.sort;
  const activeOrder = sort.order ?? (sort.sort ? 'asc' : defaultSort.order);

  function headerCell(col: ColumnDef) {
    const active = activeSort === col.key;
    const ariaSort = active ? (activeOrder === 'asc' ? 'ascending' : 'descending') : undefined;
    if (!col.sortable) return <Table.Th key={col.key}>{col.label}</Table.Th>;
    return (
      <Table.Th key={col.key} aria-sort={ariaSort}>
        <UnstyledButton
          fw={700}
          fz="sm"
          onClick={() => props.onSort({ sort: col.key, order: active && activeOrder === 'asc' ? 'desc' : 'asc' })}
          className="data-table-sort"
        >
          {col.label}{' '}
          {active ? (
            activeOrder === 'asc' ? (
              '▲'
            ) : (
              '▼'
            )
          ) : (
            <span aria-hidden="true" style={{ opacity: 0.3 }}>
              ↕
            </span>
          )}
        </UnstyledButton>
      </Table.Th>
    );
  }

  let body: ReactNode;
  if (props.error) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={span} p={0}>
          <Pinned width={visibleWidth}>
            <Alert color="red" variant="light" title="Could not load this list" role="alert">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{props.error.message}</Text>
                <Button size="xs" variant="light" color="red" onClick={props.onRetry}>
                  Retry
                </Button>
              </Stack>
            </Alert>
          </Pinned>
        </Table.Td>
      </Table.Tr>
    );
  } else if (props.isPending && !rows) {
    body = Array.from({ length: 8 }, (_, i) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
      <Table.Tr key={i} aria-hidden="true">
        {Array.from({ length: span }, (_, j) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity
          <Table.Td key={j}>
            <Skeleton height={14} radius="sm" />
          </Table.Td>
        ))}
      </Table.Tr>
    ));
  } else if (!rows || rows.length === 0) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={span} p={0}>
          <Pinned width={visibleWidth}>
            <Center py="xl">
              <Stack align="center" gap="xs">
                <Text fw={500} ta="center">
                  {props.empty.title}
                </Text>
                {props.empty.action}
              </Stack>
            </Center>
          </Pinned>
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = rows.map((row) => (
      <Table.Tr key={props.rowKey(row)}>
        {shown.map((c, i) => (
          <Table.Td key={c.key}>
            {i === 0 && props.onOpen ? (
              <UnstyledButton fz="sm" td="underline" aria-label={props.openLabel?.(row)} onClick={() => props.onOpen?.(row)}>
                {props.renderCell(c.key, row)}
              </UnstyledButton>
            ) : (
              props.renderCell(c.key, row)
            )}
          </Table.Td>
        ))}
        {props.rowActions && (
          <Table.Td className="data-table-actions">
            <div className="data-table-actions-inner">{props.rowActions(row)}</div>
          </Table.Td>
        )}
      </Table.Tr>
    ));
  }

  return (
    <Table.ScrollContainer minWidth={800} ref={scroller}>
      <Table
        striped
        highlightOnHover
        withTableBorder
        verticalSpacing="xs"
        fz="sm"
        aria-busy={props.isPending}
        className="data-table"
        data-with-actions={props.rowActions ? true : undefined}
      >
        <caption className="visually-hidden">{props.caption}</caption>
        <Table.Thead>
          <Table.Tr>
            {shown.map(headerCell)}
            {props.rowActions && <Table.Th className="data-table-actions">Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{body}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * The width of the table's visible part (its scroll container's), kept up to date. The table is at
 * least 800 px wide, so on a phone most of it is off-screen until scrolled.
 */
function useVisibleWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | undefined>(undefined);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * A message in place of rows (empty list, error): as wide as the visible part of the table and
 * pinned to its left edge, so it stays in view however wide the table is and wherever it is
 * scrolled. Without a width yet (before the first measure), it spans the whole row.
 */
function Pinned({ width, children }: { width: number | undefined; children: ReactNode }) {
  return (
    <div
      style={{
        position: 'sticky',
        left: 0,
        boxSizing: 'border-box',
        // The table's own left and right border lie inside the visible width.
        width: width === undefined ? undefined : Math.max(width - 2, 0),
        padding: 'var(--mantine-spacing-xs) var(--mantine-spacing-sm)',
      }}
    >
      {children}
    </div>
  );
}

/** Cursor paging: First page and Next page; the count says whether it is an estimate. */
export function Pager(props: {
  total: number | undefined;
  totalIsEstimate: boolean | undefined;
  shownCount: number;
  onFirst: (() => void) | null;
  onPrevious: (() => void) | null;
  onNext: (() => void) | null;
}) {
  const total = props.total === undefined ? '…' : `${props.totalIsEstimate ? 'about ' : ''}${props.total.toLocaleString('en-US')}`;
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed" aria-live="polite">
        Showing {props.shownCount.toLocaleString('en-US')} of {total} {props.totalIsEstimate ? '(estimated)' : ''}
      </Text>
      <Group gap="xs">
        <Button variant="default" size="xs" disabled={!props.onFirst} onClick={() => props.onFirst?.()}>
          First page
        </Button>
        <Button variant="default" size="xs" disabled={!props.onPrevious} onClick={() => props.onPrevious?.()}>
          Previous page
        </Button>
        <Button variant="default" size="xs" disabled={!props.onNext} onClick={() => props.onNext?.()}>
          Next page
        </Button>
      </Group>
    </Group>
  );
}

/**
 * Cursor paging with a way back: remembers the cursors of the pages before this one. Give it a
 * `key` that changes with the filters so a new query starts a new history.
 */
export function CursorPager(props: {
  cursor: string | undefined;
  nextCursor: string | null | undefined;
  total: number | undefined;
  totalIsEstimate: boolean | undefined;
  shownCount: number;
  onCursor(cursor: string | undefined): void;
}) {
  const [history, setHistory] = useState<string[]>([]);
  const { cursor, nextCursor, onCursor } = props;
  return (
    <Pager
      total={props.total}
      totalIsEstimate={props.totalIsEstimate}
      shownCount={props.shownCount}
      onFirst={
        cursor
          ? () => {
              setHistory([]);
              onCursor(undefined);
            }
          : null
      }
      onPrevious={
        cursor
          ? () => {
              setHistory(history.slice(0, -1));
              onCursor(history[history.length - 1] || undefined);
            }
          : null
      }
      onNext={
        nextCursor
          ? () => {
              setHistory([...history, cursor ?? '']);
              onCursor(nextCursor);
              window.scrollTo(0, 0);
            }
          : null
      }
    />
  );
}
