import type { ListResult, ResourceView } from '@admin/shared';
import { SELECTED_ALL } from '@admin/shared/constants';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/http.ts';
import { type ListParams, type ListParamsConfig, toApiQuery, useListParams } from '../../lib/list-params.ts';
import { useSession } from '../../lib/session-store.ts';
import { useColumnPreference } from '../data-table/use-column-preference.ts';

/** The URL state of a resource's list, from its filters: multi-selects with their defaults, single choices. */
export function listConfigOf(def: Pick<ResourceView<unknown>, 'filters'>, extra?: Partial<ListParamsConfig>): ListParamsConfig {
  const multi: Record<string, string[]> = {};
  const single: string[] = [];
  for (const [key, filter] of Object.entries(def.filters)) {
    if (filter.kind === 'choice' || filter.kind === 'text') single.push(key);
    else if (filter.kind === 'dateRange') single.push('startDate', 'endDate');
    else multi[key] = 'default' in filter && filter.default ? [...filter.default] : [];
  }
  return {
    multi: { ...multi, ...extra?.multi },
    single: [...single, ...(extra?.single ?? [])],
    ...(extra?.perPage ? { perPage: extra.perPage } : {}),
  };
}

/**
 * The API query of the list's URL state. Selected All is an omitted parameter, except for a filter
 * with its own value for it (`all`, e.g. Locations' `client=all`, docs/decisions/018-locations-every-client.md).
 */
function apiQuery(def: Pick<ResourceView<unknown>, 'filters'>, params: ListParams, includeCursor = true) {
  const query = toApiQuery(params, includeCursor);
  for (const [key, filter] of Object.entries(def.filters)) {
    if ('all' in filter && filter.all !== undefined && params.multi[key]?.includes(SELECTED_ALL)) query[key] = filter.all;
  }
  return query;
}

/** Whether the screen shows nothing until a client is chosen in the client switcher. */
export const needsCurrentClient = (def: Pick<ResourceView<unknown>, 'scope'>) => def.scope.startsWith('current-client');

/**
 * A resource's list as its screen shows it: the URL's sort, search, filters and cursor, the page
 * of rows from `GET <path>`, the chosen columns, and `refresh` after a change. The query key is
 * `[screen, current client, query]`, so switching clients or filters loads a new page.
 */
export function useResourceList<Row>(def: ResourceView<Row>, config: ListParamsConfig) {
  const { params, update } = useListParams(config);
  const currentClient = useSession((s) => s.currentClient);
  const columns = useColumnPreference(def.screen, def.columns);
  const queryClient = useQueryClient();
  const query = apiQuery(def, params);
  const waiting = needsCurrentClient(def) && currentClient === null;
  const list = useQuery({
    queryKey: [def.screen, currentClient?.id, query],
    queryFn: ({ signal }) => api.get<ListResult<Row>>(def.path, { query, signal }),
    placeholderData: keepPreviousData,
    enabled: !waiting,
    meta: { what: def.plural },
  });
  return {
    params,
    update,
    list,
    columns,
    currentClient,
    /** No client chosen yet, for a screen that shows one client's records. */
    waiting,
    /** The export's query: the list's filters and sort, without paging, and the visible columns. */
    exportQuery: () => ({ ...apiQuery(def, params, false), columns: columns.visible }),
    refresh: () => queryClient.invalidateQueries({ queryKey: [def.screen] }),
  };
}

/** What `useResourceList` answers: the list a screen's table, pager, filters and actions share. */
export type ResourceList<Row> = ReturnType<typeof useResourceList<Row>>;
