import type { OptionsAnswer } from '@admin/shared';
import { SELECTED_ALL } from '@admin/shared/constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../lib/http.ts';
import { MultiFilter } from './multi-filter.tsx';

/** Waits until typing pauses before asking the server. */
function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * Options that page on the server (`GET <path>?q=&value=`, packages/shared `optionsQuerySchema`):
 * the first 50 matching what was typed, plus the chosen values with their labels. However many
 * there are, typing finds any of them.
 */
export function useRemoteOptions(path: string, search: string, chosen: string[]) {
  const q = useDebounced(search.trim(), 250);
  const value = chosen.filter((v) => v !== SELECTED_ALL);
  const answer = useQuery({
    queryKey: ['options', path, q, value],
    queryFn: ({ signal }) =>
      api.get<OptionsAnswer>(path, { query: { perPage: '50', ...(q ? { q } : {}), ...(value.length ? { value } : {}) }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    meta: { what: 'options' },
  });
  const options = answer.data?.data ?? [];
  return { options, more: answer.data?.more ?? false, loading: answer.isFetching };
}

/** A multi-select filter whose options come from the server as the user types. */
export function RemoteMultiFilter(props: {
  label: string;
  path: string;
  value: string[];
  onChange(value: string[]): void;
  w?: number;
  /** What an empty choice means; "Any" unless said. */
  emptyLabel?: string;
}) {
  const [search, setSearch] = useState('');
  const { options, more } = useRemoteOptions(props.path, search, props.value);
  return (
    <MultiFilter
      label={props.label}
      options={options}
      value={props.value}
      onChange={props.onChange}
      searchValue={search}
      onSearchChange={setSearch}
      // The server already matched what was typed.
      serverFiltered
      nothingFound={more ? 'Type to narrow the list' : 'No match'}
      {...(props.w ? { w: props.w } : {})}
      {...(props.emptyLabel ? { emptyLabel: props.emptyLabel } : {})}
    />
  );
}
