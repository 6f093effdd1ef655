import { Button, Group } from '@mantine/core';
import { type ReactNode, useId, useState } from 'react';

/**
 * The row of filters above a table: inputs of one height on one baseline, wrapping on narrow
 * screens. Below Mantine's `sm` breakpoint the search stays in view and the other filters sit
 * behind a "Filters" button that counts the active ones, so the first rows of the table are on the
 * first screen; hidden filters stay mounted and applied (their state is the URL's). Opened on a
 * phone, each filter takes the full width, so the column reads as a form.
 */
export function FilterBar(props: {
  /** Always shown (the Search field). */
  search?: ReactNode;
  /** The other filters, behind the toggle on narrow screens. */
  children: ReactNode;
  /** How many of `children` narrow the list now, shown on the toggle. */
  active?: number;
  /** After the filters, shown whether or not they are (e.g. a "Refreshing" spinner). */
  status?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const active = props.active ?? 0;
  return (
    <Group align="flex-end" gap="sm" wrap="wrap" className="filter-bar" role="group" aria-label="Filters">
      {props.search}
      <Button
        variant="default"
        hiddenFrom="sm"
        className="filter-bar-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        {active > 0 ? `Filters (${active})` : 'Filters'}
      </Button>
      <div id={id} className="filter-bar-more" data-open={open || undefined}>
        {props.children}
      </div>
      {props.status}
    </Group>
  );
}
