import {
  DEFAULT_REVIEW_SITE,
  type ListResult,
  REPUTATION_PATH,
  REVIEW_SITES,
  type ReputationFilters,
  type ReputationItem,
  reputationResource,
} from '@admin/shared';
import { Select } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useColumnPreference } from '../../components/data-table/use-column-preference.ts';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { MultiFilter } from '../../components/filters/multi-filter.tsx';
import { listConfigOf } from '../../components/resource/use-resource-list.ts';
import { api } from '../../lib/http.ts';
import { toApiQuery, useListParams } from '../../lib/list-params.ts';
import { useSession } from '../../lib/session-store.ts';

const def = reputationResource;
const SITE_OPTIONS = REVIEW_SITES.map((s) => ({ value: s.value, label: s.label }));
// `range=all` records a cleared date range, so the default (below) does not come back.
const config = listConfigOf(def, { single: ['range'] });
export const DEFAULT_RANGE_DAYS = 30;

/** `yyyy-MM-dd` of a moment in a zone (en-CA writes ISO dates). */
const dayIn = (at: Date, zone: string | undefined) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(at);

/**
 * The Invited at range the list asks for: the URL's, or none once cleared, or else the last 30
 * days of the client's zone (domain.md part B, the default range): the KPI cards then count a
 * month, not every invitation ever sent (decision 050).
 */
export function rangeOf(
  single: Record<string, string>,
  zone: string | undefined,
  now = new Date(),
): { startDate: string; endDate: string } {
  if (single.range === 'all') return { startDate: '', endDate: '' };
  if (single.startDate || single.endDate) return { startDate: single.startDate ?? '', endDate: single.endDate ?? '' };
  return { startDate: dayIn(new Date(now.getTime() - (DEFAULT_RANGE_DAYS - 1) * 86_400_000), zone), endDate: dayIn(now, zone) };
}

/**
 * The panel's list, shaped as the kit's `useResourceList` answers it (so the kit's table, pager and
 * export take it), but read as the spec calls it: on the reputation host, with the site (Google
 * when none is chosen) and `clientId`, the client this tab shows (decision 043).
 */
export function useReputationList() {
  const { params, update } = useListParams(config);
  const currentClient = useSession((s) => s.currentClient);
  const columns = useColumnPreference(def.screen, def.columns);
  const queryClient = useQueryClient();
  const waiting = currentClient === null;
  const range = rangeOf(params.single, currentClient?.timezone);
  const filtersOf = (includeCursor: boolean): Record<string, string | string[]> => ({
    ...withoutRange(toApiQuery(params, includeCursor)),
    ...(range.startDate ? { startDate: range.startDate } : {}),
    ...(range.endDate ? { endDate: range.endDate } : {}),
    site: params.single.site || DEFAULT_REVIEW_SITE,
    ...(currentClient ? { clientId: String(currentClient.id) } : {}),
  });
  const query = filtersOf(true);
  const list = useQuery({
    queryKey: [def.screen, currentClient?.id, query],
    queryFn: ({ signal }) => api.get<ListResult<ReputationItem>>(def.path, { query, signal, host: 'reputation' }),
    placeholderData: keepPreviousData,
    enabled: !waiting,
    meta: { what: def.plural },
  });
  return {
    params,
    update,
    range,
    list,
    columns,
    currentClient,
    waiting,
    /** The export's query and the KPI cards': the list's filters and sort, without paging. */
    exportQuery: () => {
      const { perPage: _perPage, ...rest } = filtersOf(false);
      return { ...rest, columns: columns.visible };
    },
    /** The filters alone (the KPI cards count what the list shows). */
    filterQuery: (): Record<string, string | string[]> => {
      const { perPage: _perPage, sort: _sort, order: _order, ...rest } = filtersOf(false);
      return rest;
    },
    refresh: () => queryClient.invalidateQueries({ queryKey: [def.screen] }),
  };
}
export type ReputationList = ReturnType<typeof useReputationList>;

/** The URL's dates and marker are replaced by the effective range. */
function withoutRange(query: Record<string, string | string[]>): Record<string, string | string[]> {
  const { range: _range, startDate: _start, endDate: _end, ...rest } = query;
  return rest;
}

/** The spec's filters call: the options of API endpoints, Locations and Personnel. */
function useFilterOptions(site: string, clientId: number | undefined) {
  return useQuery({
    queryKey: [def.screen, 'filters', clientId, site],
    queryFn: ({ signal }) =>
      api.get<{ data: ReputationFilters }>(`${REPUTATION_PATH}/filters`, { query: { site, clientId }, signal, host: 'reputation' }),
    enabled: clientId !== undefined,
    staleTime: 60_000,
    meta: { what: 'filter options' },
  });
}

/** Site (Google by default), API endpoints, Locations, Personnel, Status and the Invited at date range. */
export function ReputationFilterFields({ list }: { list: ReputationList }) {
  const { params, update } = list;
  const site = params.single.site || DEFAULT_REVIEW_SITE;
  const options = useFilterOptions(site, list.currentClient?.id).data?.data;
  const multi = (name: string, label: string, data: { value: string; label: string }[]) => (
    <MultiFilter label={label} options={data} value={params.multi[name] ?? []} onChange={(v) => update({ multi: { [name]: v } })} />
  );
  return (
    <>
      <Select
        label="Site"
        w={180}
        allowDeselect={false}
        data={SITE_OPTIONS}
        value={site}
        onChange={(v) => update({ single: { site: v ?? DEFAULT_REVIEW_SITE } })}
      />
      {multi(
        'endpoint',
        'API endpoints',
        (options?.apiEndpoints ?? []).map((e) => ({ value: e._id, label: e.locationname })),
      )}
      {multi('location', 'Locations', options?.locations ?? [])}
      {multi('personnel', 'Personnel', options?.personnels ?? [])}
      {multi('status', 'Status', 'options' in def.filters.status ? [...def.filters.status.options] : [])}
      <DateRangeFilter
        startDate={list.range.startDate}
        endDate={list.range.endDate}
        onChange={(range) =>
          update({ single: range.startDate || range.endDate ? { ...range, range: '' } : { startDate: '', endDate: '', range: 'all' } })
        }
      />
    </>
  );
}
