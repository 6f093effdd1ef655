import type { CardSpec, ColumnDef } from '@admin/shared';
import { Button, Select, Skeleton, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { type ReactNode, useId, useState } from 'react';
import type { DataTableProps } from './data-table.tsx';
import { ListEmpty, ListError } from './list-state.tsx';

/**
 * A list on a phone (below 640 px): one card per row, naming it (its title, the button that opens
 * it), its status, two or three facts and its actions behind an Actions button (docs/decisions/
 * 040). The same rows, states and actions as the table, so every list gets it from `DataTable`.
 */
export function ListCards<Row>(props: DataTableProps<Row> & { card: CardSpec }) {
  const { card, columns, rows } = props;
  const labelOf = (key: string) => columns.find((c) => c.key === key)?.label ?? key;
  const facts = card.facts.filter((k) => columns.some((c) => c.key === k));

  let body: ReactNode;
  if (props.error) body = <ListError error={props.error} onRetry={props.onRetry} />;
  else if (props.isPending && !rows) {
    body = (
      <ul className="list-cards" aria-hidden="true">
        {[0, 1, 2].map((i) => (
          <li key={i} className="list-card">
            <Skeleton height={14} width="60%" radius="sm" mb="xs" />
            <Skeleton height={12} radius="sm" mb={6} />
            <Skeleton height={12} width="80%" radius="sm" />
          </li>
        ))}
      </ul>
    );
  } else if (!rows || rows.length === 0) body = <ListEmpty empty={props.empty} />;
  else {
    body = (
      <ul className="list-cards" aria-label={props.caption}>
        {rows.map((row) => {
          const name = props.rowName?.(row) ?? '';
          const title = props.renderCell(card.title, row);
          return (
            <li key={props.rowKey(row)} className="list-card" data-list-card>
              <div className="list-card-head">
                <div className="list-card-title">
                  {props.onOpen ? (
                    <UnstyledButton fz="sm" fw={600} td="underline" aria-label={props.openLabel?.(row)} onClick={() => props.onOpen?.(row)}>
                      {title}
                    </UnstyledButton>
                  ) : (
                    title
                  )}
                </div>
                {card.status && card.status !== card.title && (
                  <div className="list-card-status" data-card-status={labelOf(card.status)}>
                    <VisuallyHidden>{labelOf(card.status)}: </VisuallyHidden>
                    {props.renderCell(card.status, row)}
                  </div>
                )}
              </div>
              {facts.length > 0 && (
                <dl className="list-card-facts">
                  {facts.map((key) => (
                    <div key={key}>
                      <dt>{labelOf(key)}</dt>
                      <dd className="data-table-cell">{props.renderCell(key, row)}</dd>
                    </div>
                  ))}
                </dl>
              )}
              {props.rowActions && <CardActions name={name}>{props.rowActions(row)}</CardActions>}
            </li>
          );
        })}
      </ul>
    );
  }

  // Busy while loading, as the table is, on the frame rather than the list: an empty list shows no
  // list at all, and a screen reader (or a test) can still tell it from one still loading.
  // `data-list` names the frame for the browser tests.
  return (
    <div className="list-cards-frame" aria-busy={props.isPending} data-list={props.caption}>
      <CardSort {...props} />
      {body}
    </div>
  );
}

/**
 * A card's actions: the row's own buttons (Edit, status changes, Duplicate …) behind one
 * Actions button that shows them in the card. A disclosure rather than a pop-up: the actions
 * open their own dialogs and menus, which a pop-up would close under them (docs/decisions/040).
 */
function CardActions({ name, children }: { name: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="list-card-actions">
      <Button
        size="compact-sm"
        variant="default"
        aria-expanded={open}
        aria-controls={id}
        aria-label={name ? `Actions for ${name}` : 'Actions'}
        rightSection={<span aria-hidden="true">{open ? '▴' : '▾'}</span>}
        onClick={() => setOpen((o) => !o)}
      >
        Actions
      </Button>
      {/* Hidden rather than unmounted, so a dialog an action opened stays open. */}
      <div id={id} hidden={!open} className="list-card-actions-inner">
        {children}
      </div>
    </div>
  );
}

/** The table's sortable headers, for cards: one "Sort by" choice of column and direction. */
function CardSort<Row>(props: Pick<DataTableProps<Row>, 'sort' | 'defaultSort' | 'onSort'> & { columns: readonly ColumnDef[] }) {
  const sortable = props.columns.filter((c) => c.sortable);
  if (sortable.length === 0) return null;
  const sort = props.sort.sort ?? props.defaultSort.sort;
  const order = props.sort.order ?? (props.sort.sort ? 'asc' : props.defaultSort.order);
  const data = sortable.flatMap((c) => [
    { value: `${c.key}:asc`, label: `${c.label}, ascending` },
    { value: `${c.key}:desc`, label: `${c.label}, descending` },
  ]);
  return (
    <Select
      label="Sort by"
      size="sm"
      mb="xs"
      allowDeselect={false}
      data={data}
      value={`${sort}:${order}`}
      comboboxProps={{ withinPortal: true }}
      onChange={(v) => {
        const [key, direction] = (v ?? '').split(':');
        if (key && (direction === 'asc' || direction === 'desc')) props.onSort({ sort: key, order: direction });
      }}
    />
  );
}
