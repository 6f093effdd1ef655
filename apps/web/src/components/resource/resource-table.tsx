import { cellValue, type ResourceView, type Status } from '@admin/shared';
import type { ReactNode } from 'react';
import { DateCell, EmptyCell, PhoneCell } from '../data-table/cells.tsx';
import { DataTable } from '../data-table/data-table.tsx';
import { CursorPager } from '../data-table/pager.tsx';
import { StatusBadge } from '../status/status-kit.tsx';
import { recordId } from './use-resource-form.ts';
import type { ResourceList } from './use-resource-list.ts';

/** Cells shown otherwise than as text (the text is the column's format, as in the CSV). */
export type ResourceCells<Row> = Partial<Record<string, (row: Row) => ReactNode>>;

/** What a cell shows when the screen says nothing else: a badge, a date, a phone, or the column's text. */
function defaultCell<Row extends object>(column: ResourceView<Row>['columns'][number], row: Row): ReactNode {
  const value = cellValue(column, row);
  if (column.key === 'status' && typeof value === 'string') {
    const status = Object.entries(row).find(([k]) => k === 'status')?.[1];
    return <StatusBadge status={status as Status} />;
  }
  if (column.key.endsWith('_at') && typeof value === 'string') return <DateCell value={value} />;
  if (column.key.includes('phone') && typeof value === 'string') return <PhoneCell value={value} />;
  return value === null || value === undefined || value === '' ? <EmptyCell /> : String(value);
}

type Props<Row extends object> = {
  resource: ResourceView<Row>;
  /** The list from `useResourceList(resource, …)`: its URL state, page of rows and chosen columns. */
  list: ResourceList<Row>;
  /** The table's accessible name. */
  caption: string;
  /** What the table says when no row matches, and what to do about it. */
  empty: { title: string; action?: ReactNode };
  cells?: ResourceCells<Row>;
  onOpen?: (row: Row) => void;
  openLabel?: (row: Row) => string;
  /** How a row is named in words (its card's Actions button on a phone); its card title's text when absent. */
  rowName?: (row: Row) => string;
  rowActions?: (row: Row) => ReactNode;
};

/**
 * A resource list's table and cursor pager: the URL's sort and cursor, the chosen columns, the
 * four states, and each cell as the screen says or else by its column. The pager is keyed by the
 * list's query, so a new sort or filter starts a new page history. ResourcePage shows its list
 * with it, and so does a screen that shows a resource's list inside its own layout (a tab).
 */
export function ResourceTable<Row extends object>({ resource, list, ...props }: Props<Row>) {
  const { params, update, waiting } = list;
  const page = list.list.data;
  const titleColumn = resource.columns.find((c) => c.key === resource.card.title);
  return (
    <>
      <DataTable<Row>
        caption={props.caption}
        columns={resource.columns}
        visible={list.columns.visible}
        rows={page?.data}
        rowKey={(r) => recordId(resource, r)}
        card={resource.card}
        rowName={props.rowName ?? ((r) => (titleColumn ? String(cellValue(titleColumn, r) ?? '') : ''))}
        sort={{ sort: params.sort, order: params.order }}
        defaultSort={resource.defaultSort}
        onSort={(s) => update({ sort: s.sort, order: s.order })}
        isPending={list.list.isPending && !waiting}
        error={list.list.error}
        onRetry={() => void list.list.refetch()}
        empty={props.empty}
        onOpen={props.onOpen}
        openLabel={props.openLabel}
        renderCell={(key, r) => {
          const custom = props.cells?.[key];
          if (custom) return custom(r);
          const column = resource.columns.find((c) => c.key === key);
          return column ? defaultCell(column, r) : null;
        }}
        rowActions={props.rowActions}
      />
      <CursorPager
        key={JSON.stringify(list.exportQuery())}
        cursor={params.cursor}
        nextCursor={page?.nextCursor}
        total={page?.total}
        totalIsEstimate={page?.totalIsEstimate}
        shownCount={page?.data.length ?? 0}
        page={params.page}
        perPage={params.perPage}
        onCursor={(cursor, n) => update({ cursor, page: n })}
      />
    </>
  );
}
