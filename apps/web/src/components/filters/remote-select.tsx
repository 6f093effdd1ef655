import { Select } from '@mantine/core';
import { type ReactNode, useRef } from 'react';
import { useRemoteOptions } from './remote-multi-filter.tsx';
import { useFreshSearch } from './searchable-select.tsx';

/**
 * A form's single select whose options page on the server as the user types (`GET <path>?q=&value=`,
 * packages/shared `optionsQuerySchema`), the one-value sibling of `RemoteMultiSelect`: any option can
 * be found however many there are, and the chosen one keeps its label (the server answers it too, and
 * labels once seen are kept).
 */
export function RemoteSelect(props: {
  label: string;
  path: string;
  value: string | null;
  onChange(value: string | null): void;
  onBlur?(): void;
  required?: boolean;
  disabled?: boolean;
  clearable?: boolean;
  error?: ReactNode;
  description?: ReactNode;
  placeholder?: string;
  /** Shown when nothing matches and the search found no more. */
  nothingFound?: string;
  /** Options the server answers that this select does not offer (e.g. the survey's own client). */
  exclude?: (value: string) => boolean;
  /** Labels known before the first answer (e.g. the record's linked names). */
  labels?: Record<string, string>;
}) {
  const known = useRef(new Map(Object.entries(props.labels ?? {})));
  const chosenLabel = props.value === null ? undefined : known.current.get(props.value);
  // Typing searches from scratch rather than after the chosen label (useFreshSearch).
  const { typed, ...fresh } = useFreshSearch(chosenLabel, props.placeholder);
  const { options, more, loading } = useRemoteOptions(props.path, typed, props.value === null ? [] : [props.value]);
  for (const o of options) known.current.set(o.value, o.label);
  const offered = props.exclude ? options.filter((o) => !props.exclude?.(o.value)) : options;
  // The chosen value stays in the list while a search shows other options, so it keeps its label.
  const chosen =
    props.value !== null && !offered.some((o) => o.value === props.value)
      ? [{ value: props.value, label: known.current.get(props.value) ?? props.value }]
      : [];
  return (
    <Select
      label={props.label}
      description={props.description}
      required={props.required}
      disabled={props.disabled}
      clearable={props.clearable}
      error={props.error}
      data={[...offered, ...chosen]}
      value={props.value}
      onChange={(v) => props.onChange(v)}
      onBlur={props.onBlur}
      searchable
      {...fresh}
      // The server already matched what was typed.
      filter={({ options: found }) => found}
      nothingFoundMessage={loading ? 'Loading…' : more ? 'Type to narrow the list' : (props.nothingFound ?? 'No match')}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
