import { SELECTED_ALL } from '@admin/shared/constants';
import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';

/**
 * List state lives in the URL (docs/conventions.md, rule 4): sort, order, search, filters, cursor.
 * Reload, back and shared links all show the same list.
 */
export type ListParams = {
  sort: string | undefined;
  order: 'asc' | 'desc' | undefined;
  q: string;
  perPage: number;
  cursor: string | undefined;
  /** The number of the page the cursor opens (1 without one), for the pager's "51–100 of 588". */
  page: number;
  /** Multi-value filters by name; `defaults` apply while the URL does not name the filter. */
  multi: Record<string, string[]>;
  /** Single-value filters (dates, entity type). */
  single: Record<string, string>;
};

export type ListParamsConfig = {
  multi: Record<string, string[]>;
  single: readonly string[];
  perPage?: number;
};

export function readListParams(search: URLSearchParams, config: ListParamsConfig): ListParams {
  const multi: Record<string, string[]> = {};
  for (const [name, defaults] of Object.entries(config.multi)) {
    multi[name] = search.has(name)
      ? search
          .getAll(name)
          .flatMap((v) => v.split(','))
          .filter((v) => v !== '')
      : defaults;
  }
  const single: Record<string, string> = {};
  for (const name of config.single) single[name] = search.get(name) ?? '';
  const order = search.get('order');
  const perPage = Number(search.get('perPage'));
  const page = Number(search.get('page'));
  return {
    sort: search.get('sort') ?? undefined,
    order: order === 'asc' || order === 'desc' ? order : undefined,
    q: search.get('q') ?? '',
    perPage: Number.isInteger(perPage) && perPage > 0 && perPage <= 200 ? perPage : (config.perPage ?? 50),
    cursor: search.get('cursor') ?? undefined,
    page: search.get('cursor') && Number.isInteger(page) && page > 1 ? page : 1,
    multi,
    single,
  };
}

/** The API query for these params: "selected all" and empty values are left out (docs/overview.md, Shared vocabulary). */
export function toApiQuery(p: ListParams, includeCursor = true): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (p.sort) query.sort = p.sort;
  if (p.order) query.order = p.order;
  if (p.q.trim()) query.q = p.q.trim();
  query.perPage = String(p.perPage);
  if (includeCursor && p.cursor) query.cursor = p.cursor;
  for (const [name, values] of Object.entries(p.multi)) {
    if (values.length > 0 && !values.includes(SELECTED_ALL)) query[name] = values;
  }
  for (const [name, value] of Object.entries(p.single)) if (value) query[name] = value;
  return query;
}

export type ListParamsPatch = Partial<Omit<ListParams, 'multi' | 'single'>> & {
  multi?: Record<string, string[]>;
  single?: Record<string, string>;
};

/** What `update` builds on: the URL it last wrote, and its writes the page has not rendered yet, oldest first. */
export type WrittenParams = { rendered: URLSearchParams; written: URLSearchParams; pending: string[] };

/**
 * The state after the page renders `search`. The router renders navigations as transitions, and a
 * render may show an earlier write of this hook after a later one was made: that echo keeps the
 * later write (else the next change would build on the echo and drop it). Any other URL (Back, a
 * link, filters cleared elsewhere) is what the next change builds on.
 */
export function followRendered(state: WrittenParams, search: URLSearchParams): WrittenParams {
  if (state.rendered === search) return state;
  const at = state.pending.indexOf(search.toString());
  if (at >= 0) return { rendered: search, written: state.written, pending: state.pending.slice(at + 1) };
  return { rendered: search, written: search, pending: [] };
}

export function useListParams(config: ListParamsConfig) {
  const [search, setSearch] = useSearchParams();
  // biome-ignore lint/correctness/useExhaustiveDependencies: config is a module constant per screen
  const params = useMemo(() => readListParams(search, config), [search]);
  // The URL as last written, not as last rendered: a change made before the page re-renders (the
  // search box's delayed apply, then a filter picked at once, a handler kept from an earlier
  // render) builds on the one before it instead of dropping it. react-router hands a functional
  // update the rendered params, so two quick changes would otherwise lose the first.
  const latest = useRef<WrittenParams>({ rendered: search, written: search, pending: [] });
  latest.current = followRendered(latest.current, search);

  const update = useCallback(
    (patch: ListParamsPatch) => {
      setSearch(
        () => {
          const next = new URLSearchParams(latest.current.written);
          const put = (name: string, value: string | undefined) => (value ? next.set(name, value) : next.delete(name));
          if ('sort' in patch) put('sort', patch.sort);
          if ('order' in patch) put('order', patch.order);
          if ('q' in patch) put('q', patch.q);
          if ('perPage' in patch) put('perPage', patch.perPage ? String(patch.perPage) : undefined);
          for (const [name, values] of Object.entries(patch.multi ?? {})) {
            next.delete(name);
            // An empty choice is written as an empty value so it is not replaced by the defaults.
            if (values.length === 0) next.set(name, '');
            for (const v of values) next.append(name, v);
          }
          for (const [name, value] of Object.entries(patch.single ?? {})) put(name, value);
          // Any change but paging starts again from the first page.
          if ('cursor' in patch) {
            put('cursor', patch.cursor);
            put('page', patch.cursor && patch.page && patch.page > 1 ? String(patch.page) : undefined);
          } else {
            next.delete('cursor');
            next.delete('page');
          }
          latest.current = { ...latest.current, written: next, pending: [...latest.current.pending, next.toString()] };
          return next;
        },
        { replace: !('cursor' in patch) },
      );
    },
    [setSearch],
  );

  return { params, update };
}
