import { type CardSpec, type ColumnDef, cardOf } from '@admin/shared';
import { Skeleton, Table, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode, SyntheticEvent } from 'react';
import { KeptStateProvider } from './kept-state.tsx';
import { ListCards } from './list-cards.tsx';
import { ListEmpty, ListError } from './list-state.tsx';
import { useScrollCue } from './use-scroll-cue.ts';
import './data-table.css';

export type SortState = { sort: string | undefined; order: 'asc' | 'desc' | undefined };

export type DataTableProps<Row> = {
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
  /** What a row's card shows on a phone; the columns' default (`cardOf`) when absent. */
  card?: CardSpec;
  /** How a row is named in words (its card's "Actions for …" button). */
  rowName?(row: Row): string;
};

/** Below Mantine's `sm`-ish 640 px, lists are cards (docs/decisions/040). */
const PHONE_QUERY = '(max-width: 39.99em)';

/**
 * The kit's list: on a phone, cards (`ListCards`); wider, a real `<table>` with sortable headers
 * (server-side) and the four states (loading skeleton, error with retry, empty with a call to
 * action, data). One page of rows at a time, so the DOM holds at most `perPage` (≤ 200) rows.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  // Read at once rather than after a first paint, so a phone never lays out the wide table.
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  return (
    <KeptStateProvider>
      {phone ? <ListCards {...props} card={props.card ?? cardOf(props.columns)} /> : <TableView {...props} />}
    </KeptStateProvider>
  );
}

/**
 * A cell keeps one line; a cut one shows its whole text as a tooltip on hover, and a focused one
 * (its open button) unfolds (data-table.css). Measured on the way in, as only then it matters.
 */
function titleClipped(event: SyntheticEvent) {
  const target = event.target;
  if (!(target instanceof Element)) return;
  const cell = target.closest<HTMLElement>('.data-table-cell');
  if (!cell) return;
  const clipped = [cell, ...Array.from(cell.children)].some((el) => el.scrollWidth > el.clientWidth + 1);
  if (clipped) cell.title = (cell.textContent ?? '').replace(/\s+/g, ' ').trim();
  else cell.removeAttribute('title');
}

/**
 * Headers never wrap (a sort arrow stays beside its label), nor do cells (cut with an ellipsis).
 * On screens wide enough for it the Actions column stays in view while the table scrolls
 * sideways, and a shadow at an edge says columns lie beyond it.
 */
function TableView<Row>(props: DataTableProps<Row>) {
  const { columns, visible, rows, sort, defaultSort } = props;
  const [scroller, cue] = useScrollCue();
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

  const message = (content: ReactNode) => (
    <Table.Tr>
      <Table.Td colSpan={span} p={0}>
        <Pinned width={cue.width}>{content}</Pinned>
      </Table.Td>
    </Table.Tr>
  );
  let body: ReactNode;
  if (props.error) body = message(<ListError error={props.error} onRetry={props.onRetry} />);
  else if (props.isPending && !rows) {
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
  } else if (!rows || rows.length === 0) body = message(<ListEmpty empty={props.empty} />);
  else {
    body = rows.map((row) => (
      <Table.Tr key={props.rowKey(row)}>
        {shown.map((c, i) => (
          <Table.Td key={c.key}>
            <div className="data-table-cell">
              {i === 0 && props.onOpen ? (
                <UnstyledButton fz="sm" td="underline" aria-label={props.openLabel?.(row)} onClick={() => props.onOpen?.(row)}>
                  {props.renderCell(c.key, row)}
                </UnstyledButton>
              ) : (
                props.renderCell(c.key, row)
              )}
            </div>
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
    <div
      className="data-table-frame"
      data-more-left={cue.moreLeft || undefined}
      data-more-right={cue.moreRight || undefined}
      data-with-actions={props.rowActions ? true : undefined}
    >
      <Table.ScrollContainer minWidth={800} type="native" ref={scroller}>
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
          <Table.Tbody onMouseOver={titleClipped} onFocus={titleClipped}>
            {body}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </div>
  );
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
