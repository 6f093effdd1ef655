import { MultiSelect } from '@mantine/core';
import { type ReactNode, useRef, useState } from 'react';
import { useRemoteOptions } from './remote-multi-filter.tsx';

/**
 * A form's multi-select whose options page on the server as the user types (`GET <path>?q=&value=`,
 * packages/shared `optionsQuerySchema`): any of them can be found however many there are, and the
 * chosen ones keep their labels (the server answers them too, and labels once seen are kept).
 */
export function RemoteMultiSelect(props: {
  label: string;
  path: string;
  value: string[];
  onChange(value: string[]): void;
  onBlur?(): void;
  required?: boolean;
  error?: ReactNode;
  description?: ReactNode;
  /** Labels known before the first answer (e.g. the record's linked names). */
  labels?: Record<string, string>;
}) {
  const [search, setSearch] = useState('');
  const { options, more, loading } = useRemoteOptions(props.path, search, props.value);
  const known = useRef(new Map(Object.entries(props.labels ?? {})));
  for (const o of options) known.current.set(o.value, o.label);
  // Chosen values stay in the list while a search shows other options, so their chips keep a label.
  const chosen = props.value
    .filter((v) => !options.some((o) => o.value === v))
    .map((v) => ({ value: v, label: known.current.get(v) ?? v }));
  return (
    <MultiSelect
      label={props.label}
      description={props.description}
      required={props.required}
      error={props.error}
      data={[...options, ...chosen]}
      value={props.value}
      onChange={props.onChange}
      onBlur={props.onBlur}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already matched what was typed.
      filter={({ options: found }) => found}
      nothingFoundMessage={loading ? 'Loading…' : more ? 'Type to narrow the list' : 'No match'}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
