import type { Location, Status } from '@admin/shared';
import { REVIEW_SITES, SELECTED_ALL, STATUS_LABELS, STATUSES, US_STATES } from '@admin/shared/constants';
import { ALL_CLIENTS, LOCATION_FIELDS, locationColumns } from '@admin/shared/resources/locations';
import { Button, CopyButton, Group, Loader, Select, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CsvImportDialog } from '../../components/csv-import/csv-import.tsx';
import { PhoneCell } from '../../components/data-table/cells.tsx';
import { ColumnChooser } from '../../components/data-table/column-chooser.tsx';
import { CursorPager, DataTable } from '../../components/data-table/data-table.tsx';
import { ExportButton } from '../../components/data-table/export-button.tsx';
import { useColumnPreference } from '../../components/data-table/use-column-preference.ts';
import { FilterBar } from '../../components/filters/filter-bar.tsx';
import { MultiFilter } from '../../components/filters/multi-filter.tsx';
import { SearchFilter } from '../../components/filters/search-filter.tsx';
import { Page } from '../../components/page.tsx';
import { SidePanel } from '../../components/side-panel.tsx';
import { StatusActions, StatusBadge } from '../../components/status/status-kit.tsx';
import { api } from '../../lib/http.ts';
import { type ListParams, type ListParamsConfig, toApiQuery, useListParams } from '../../lib/list-params.ts';
import { useSession } from '../../lib/session-store.ts';
import { LocationForm } from './location-form.tsx';

type ListAnswer = { data: Location[]; total: number; totalIsEstimate: boolean; nextCursor: string | null };
const config: ListParamsConfig = { multi: { status: ['active', 'paused'], client: [], state: [] }, single: ['hasGoogle'] };
const DEFAULT_SORT = { sort: 'locationname', order: 'asc' } as const;
const EFFECTS: Partial<Record<Status, string>> = {
  paused: 'Surveys and alerts stop for this location until it is resumed.',
  inactive: 'The location is archived and hidden by default. You can restore it later.',
  active: 'The location becomes active again.',
};

/**
 * The API query of this screen. With no `client` the API answers the current client's
 * locations (docs/screens.md, Locations), so the Clients filter's Selected All is sent as
 * `client=all` rather than left out like on other screens.
 */
function locationsQuery(params: ListParams, includeCursor = true): Record<string, string | string[]> {
  const query = toApiQuery(params, includeCursor);
  if (params.multi.client?.includes(SELECTED_ALL)) query.client = ALL_CLIENTS;
  return query;
}

/** Locations (the `/api/endpoints` collection): the current client's, or the clients chosen in the filter. */
export default function LocationsPage() {
  const { params, update } = useListParams(config);
  const [editing, setEditing] = useState<Location | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const currentClient = useSession((s) => s.currentClient);
  const loadEndpoints = useSession((s) => s.loadEndpoints);
  const rootTeams = useSession((s) => s.rootTeams);
  const clientOptions = rootTeams.map((t) => ({ value: String(t.clientId), label: t.clientName }));
  const chosenClients = (params.multi.client ?? []).filter((c) => c !== '');
  const allClients = chosenClients.includes(SELECTED_ALL);
  const columns = useColumnPreference('locations', locationColumns);
  const queryClient = useQueryClient();

  const query = locationsQuery(params);
  const list = useQuery({
    queryKey: ['locations', currentClient?.id, query],
    queryFn: ({ signal }) => api.get<ListAnswer>('/api/endpoints', { query, signal }),
    placeholderData: keepPreviousData,
    enabled: currentClient !== null,
  });
  if (list.error) console.error('Failed to load locations', list.error);

  const refresh = async () => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: ['locations'] }), loadEndpoints()]);
  };

  return (
    <Page
      actions={
        <Group gap="xs">
          <ColumnChooser columns={locationColumns} choice={columns.choice} onChange={columns.setChoice} />
          <ExportButton path="/api/endpoints/export" query={() => ({ ...locationsQuery(params, false), columns: columns.visible })} />
          <Button size="sm" variant="default" onClick={() => setImporting(true)} disabled={!currentClient}>
            Import CSV
          </Button>
          <Button size="sm" onClick={() => setEditing('new')} disabled={!currentClient}>
            Create location
          </Button>
        </Group>
      }
    >
      <Text size="sm" c="dimmed">
        {allClients ? (
          <>
            Clients: <b>all clients</b>
          </>
        ) : chosenClients.length > 0 ? (
          <>
            Clients: <b>{chosenClients.map((id) => clientOptions.find((o) => o.value === id)?.label ?? `#${id}`).join(', ')}</b>
          </>
        ) : (
          <>
            Client: <b>{currentClient?.name ?? 'none chosen — pick one in the client switcher'}</b>
          </>
        )}
      </Text>
      <FilterBar>
        <SearchFilter value={params.q} placeholder="Name, store code, city or id" onChange={(q) => update({ q })} />
        <MultiFilter
          label="Clients"
          options={clientOptions}
          value={params.multi.client ?? []}
          onChange={(client) => update({ multi: { client } })}
          emptyLabel="Current client"
          w={260}
        />
        <MultiFilter
          label="State"
          options={US_STATES.map((s) => ({ value: s, label: s }))}
          value={params.multi.state ?? []}
          onChange={(state) => update({ multi: { state } })}
          w={180}
        />
        <MultiFilter
          label="Status"
          options={STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
          value={params.multi.status ?? []}
          onChange={(status) => update({ multi: { status } })}
          w={260}
        />
        <Select
          label="Google link"
          w={200}
          data={[
            { value: '', label: 'Any' },
            { value: 'yes', label: 'Has Google Place ID' },
            { value: 'no', label: 'No Google Place ID' },
          ]}
          value={params.single.hasGoogle ?? ''}
          allowDeselect={false}
          onChange={(v) => update({ single: { hasGoogle: v ?? '' } })}
        />
        {list.isFetching && <Loader size="xs" aria-label="Refreshing" />}
      </FilterBar>

      <DataTable<Location>
        caption="Locations"
        columns={locationColumns}
        visible={columns.visible}
        rows={list.data?.data}
        rowKey={(r) => r._id}
        sort={{ sort: params.sort, order: params.order }}
        defaultSort={DEFAULT_SORT}
        onSort={(s) => update({ sort: s.sort, order: s.order })}
        isPending={list.isPending && currentClient !== null}
        error={list.error}
        onRetry={() => void list.refetch()}
        empty={{
          title:
            chosenClients.length > 0
              ? 'No locations of the chosen clients match these filters.'
              : currentClient
                ? `No locations of ${currentClient.name} match these filters.`
                : 'Choose a client to see its locations.',
          action: currentClient ? (
            <Button size="xs" variant="light" onClick={() => setEditing('new')}>
              Create location
            </Button>
          ) : undefined,
        }}
        onOpen={(r) => setEditing(r)}
        openLabel={(r) => `Edit ${r.locationname}`}
        renderCell={(key, r) => {
          switch (key) {
            case 'status':
              return <StatusBadge status={r.status} />;
            case 'city_state':
              return `${r.city}, ${r.state}`;
            case 'phone':
              return <PhoneCell value={r.phone} />;
            case 'review_sites': {
              const sites = REVIEW_SITES.filter((site) => r.review_links[site.value]).map((site) => site.label);
              return sites.length > 0 ? sites.join(', ') : <Text c="dimmed">—</Text>;
            }
            default: {
              const value = r[key as keyof Location];
              return value === null || value === undefined || value === '' ? <Text c="dimmed">—</Text> : String(value);
            }
          }
        }}
        rowActions={(r) => (
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" variant="subtle" aria-label={`Edit ${r.locationname}`} onClick={() => setEditing(r)}>
              Edit
            </Button>
            <CopyButton value={r._id}>
              {({ copied, copy }) => (
                <Button size="compact-xs" variant="subtle" aria-label={`Copy endpoint id of ${r.locationname}`} onClick={copy}>
                  {copied ? 'Copied' : 'Copy id'}
                </Button>
              )}
            </CopyButton>
            <StatusActions
              status={r.status}
              what={r.locationname}
              effects={EFFECTS}
              onChange={async (to) => {
                await api.patch(`/api/endpoints/${r._id}/status`, { status: to, updated_at: r.updated_at });
                notifications.show({ color: 'green', message: `${r.locationname} is now ${STATUS_LABELS[to]}` });
                await refresh();
              }}
            />
          </Group>
        )}
      />
      <CursorPager
        key={JSON.stringify(locationsQuery(params, false))}
        cursor={params.cursor}
        nextCursor={list.data?.nextCursor}
        total={list.data?.total}
        totalIsEstimate={list.data?.totalIsEstimate}
        shownCount={list.data?.data.length ?? 0}
        onCursor={(cursor) => update({ cursor })}
      />

      <SidePanel
        opened={editing !== null}
        onClose={() => setEditing(null)}
        size="lg"
        title={editing === 'new' ? 'Create location' : `Edit ${editing?.locationname ?? ''}`}
      >
        {editing !== null && (
          <LocationForm
            key={editing === 'new' ? 'new' : editing._id}
            location={editing === 'new' ? null : editing}
            clientTimezone={currentClient?.timezone}
            onCancel={() => setEditing(null)}
            onSaved={async (l) => {
              setEditing(null);
              notifications.show({ color: 'green', message: `Saved ${l.locationname}` });
              await refresh();
            }}
          />
        )}
      </SidePanel>
      <CsvImportDialog
        opened={importing}
        onClose={() => setImporting(false)}
        onImported={refresh}
        path="/api/endpoints/import"
        noun="locations"
        columns={LOCATION_FIELDS}
        clientName={currentClient?.name ?? ''}
      />
    </Page>
  );
}
