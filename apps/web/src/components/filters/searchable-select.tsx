import { Select, type SelectProps } from '@mantine/core';
import { type ReactNode, useState } from 'react';

/** What a searchable select passes to Mantine's `Select` so that typing searches from scratch. */
type FreshSearchProps = Pick<SelectProps, 'searchValue' | 'onSearchChange' | 'onDropdownOpen' | 'onDropdownClose' | 'placeholder'>;

/**
 * A searchable select with a value shows that value's label in its input, and Mantine searches
 * whatever the input holds: typing onto "QA Tour Bakery" searched "QA Tour Bakery Lake" and found
 * nothing (issue 19, item 13). Here, while the list is open, the input holds only what was typed
 * since it opened, with the chosen label as its placeholder; closed, it shows the chosen label.
 * Typing into a closed select (its label shown) starts the search with the typed characters alone.
 *
 * `chosenLabel` is the label of the current value (undefined when none); `placeholder` is shown
 * when nothing is chosen.
 */
export function useFreshSearch(chosenLabel: string | undefined, placeholder?: string) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const props: FreshSearchProps = {
    searchValue: open ? typed : (chosenLabel ?? typed),
    onSearchChange: (next) => {
      if (open) return setTyped(next);
      // Mantine writes the chosen label itself (on a change of value, on blur): nothing was typed.
      if (chosenLabel !== undefined && next === chosenLabel) return;
      setTyped(chosenLabel !== undefined && next.startsWith(chosenLabel) ? next.slice(chosenLabel.length) : next);
    },
    onDropdownOpen: () => {
      setOpen(true);
      // Opened by a click or focus rather than by typing: the search starts empty (every option).
      setTyped((t) => (t === chosenLabel ? '' : t));
    },
    onDropdownClose: () => {
      setOpen(false);
      setTyped('');
    },
    placeholder: open && chosenLabel !== undefined ? chosenLabel : placeholder,
  };
  return { ...props, typed: open ? typed : '' };
}

/** An entry of a select's options as Mantine takes them: a plain value, an item, or a group of them. */
type OptionEntry = string | { value: string; label?: string } | { group: ReactNode; items: readonly OptionEntry[] };

/** The label of `value` among a select's options (an item without a label shows its value, as in Mantine). */
export function labelOf(data: readonly OptionEntry[] | undefined, value: string | null | undefined): string | undefined {
  if (value === null || value === undefined || !data) return undefined;
  for (const entry of data) {
    if (typeof entry === 'string') {
      if (entry === value) return entry;
    } else if ('group' in entry) {
      const found = labelOf(entry.items, value);
      if (found !== undefined) return found;
    } else if (entry.value === value) {
      return entry.label ?? entry.value;
    }
  }
  return undefined;
}

/**
 * Mantine's searchable `Select` where typing into a select with a value searches for the typed
 * text only (`useFreshSearch`): the client switcher, Time zone and every other searchable
 * single select take this one.
 */
export function SearchableSelect(props: Omit<SelectProps, 'searchable' | 'searchValue' | 'onSearchChange'>) {
  const { typed: _typed, ...fresh } = useFreshSearch(labelOf(props.data, props.value), props.placeholder);
  return (
    <Select
      {...props}
      searchable
      {...fresh}
      onDropdownOpen={() => {
        fresh.onDropdownOpen?.();
        props.onDropdownOpen?.();
      }}
      onDropdownClose={() => {
        fresh.onDropdownClose?.();
        props.onDropdownClose?.();
      }}
    />
  );
}
