import type { Person, Status } from '@admin/shared';
import { STATUS_LABELS, STATUSES } from '@admin/shared/constants';
import { PERSONNEL_IMPORT_COLUMNS, personnelColumns } from '@admin/shared/resources/personnel';
import { Button, Checkbox, Code, Group, Loader, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
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
import { type ListParamsConfig, toApiQuery, useListParams } from '../../lib/list-params.ts';
import { useSession } from '../../lib/session-store.ts';
import { PersonForm } from './person-form.tsx';

type ListAnswer = { data: Person[]; total: number; totalIsEstimate: boolean; nextCursor: string | null };
const config: ListParamsConfig = { multi: { status: ['active', 'paused'], location: [], title: [] }, single: ['duplicates'] };
const DEFAULT_SORT = { sort: 'name', order: 'asc' } as const;
const EFFECTS: Partial<Record<Status, string>> = {
  paused: 'Surveys stop crediting this person until they are resumed.',
  inactive: 'The person is archived and hidden by default. You can restore them later.',
};

/** Personnel of the current client, with their locations. */
export default function PersonnelPage() {
  const { params, update } = useListParams(config);
  const [editing, setEditing] = useState<Person | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const currentClient = useSession((s) => s.currentClient);
  const locationOptions = useSession((s) => s.locationOptions);
  const columns = useColumnPreference('personnel', personnelColumns);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const query = toApiQuery(params);
  const list = useQuery({
    queryKey: ['personnel', currentClient?.id, query],
    queryFn: ({ signal }) => api.get<ListAnswer>('/api/personnel', { query, signal }),
    placeholderData: keepPreviousData,
    enabled: currentClient !== null,
  });
  if (list.error) console.error('Failed to load personnel', list.error);
  const titles = useQuery({
    queryKey: ['personnel', currentClient?.id, 'filter-options'],
    queryFn: async () => (await api.get<{ data: { titles: string[] } }>('/api/personnel/filter-options')).data.titles,
    enabled: currentClient !== null,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['personnel'] });

  return (
    <Page
      actions={
        <Group gap="xs">
          <ColumnChooser columns={personnelColumns} choice={columns.choice} onChange={columns.setChoice} />
          <ExportButton path="/api/personnel/export" query={() => ({ ...toApiQuery(params, false), columns: columns.visible })} />
          <Button size="sm" variant="default" onClick={() => setImporting(true)} disabled={!currentClient}>
            Import CSV
          </Button>
          <Button size="sm" onClick={() => setEditing('new')} disabled={!currentClient}>
            Create person
          </Button>
        </Group>
      }
    >
      <Text size="sm" c="dimmed">
        Client: <b>{currentClient?.name ?? 'none chosen — pick one in the client switcher'}</b>
      </Text>
      <FilterBar>
        <SearchFilter value={params.q} placeholder="Name, alias, code or email" onChange={(q) => update({ q })} />
        <MultiFilter
          label="Status"
          options={STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
          value={params.multi.status ?? []}
          onChange={(status) => update({ multi: { status } })}
          w={260}
        />
        <MultiFilter
          label="Locations"
          options={locationOptions}
          value={params.multi.location ?? []}
          onChange={(location) => update({ multi: { location } })}
          w={280}
        />
        <MultiFilter
          label="Role"
          options={(titles.data ?? []).map((t) => ({ value: t, label: t }))}
          value={params.multi.title ?? []}
          onChange={(title) => update({ multi: { title } })}
        />
        <Checkbox
          label="Possible duplicates"
          checked={params.single.duplicates === 'yes'}
          onChange={(e) => update({ single: { duplicates: e.currentTarget.checked ? 'yes' : '' } })}
          mb={8}
        />
        {list.isFetching && <Loader size="xs" aria-label="Refreshing" />}
      </FilterBar>
      <DataTable<Person>
        caption="Personnel"
        columns={personnelColumns}
        visible={columns.visible}
        rows={list.data?.data}
        rowKey={(r) => r.id}
        sort={{ sort: params.sort, order: params.order }}
        defaultSort={DEFAULT_SORT}
        onSort={(s) => update({ sort: s.sort, order: s.order })}
        isPending={list.isPending && currentClient !== null}
        error={list.error}
        onRetry={() => void list.refetch()}
        empty={{
          title: currentClient ? `No personnel of ${currentClient.name} match these filters.` : 'Choose a client to see its personnel.',
          action: currentClient ? (
            <Button size="xs" variant="light" onClick={() => setEditing('new')}>
              Create person
            </Button>
          ) : undefined,
        }}
        onOpen={(r) => setEditing(r)}
        openLabel={(r) => `Edit ${r.name}`}
        renderCell={(key, r) => {
          if (key === 'status')
            return (
              <Group gap={4} wrap="nowrap">
                <StatusBadge status={r.status} />
                {r.merged_into_id !== null && (
                  <Text size="xs" c="dimmed">
                    merged into #{r.merged_into_id}
                  </Text>
                )}
              </Group>
            );
          if (key === 'location_names') return r.location_names.join(', ') || <Text c="dimmed">—</Text>;
          if (key === 'aliases_count') return r.aliases.length;
          if (key === 'phone') return <PhoneCell value={r.phone} />;
          const value = r[key as keyof Person];
          return value === null || value === '' ? <Text c="dimmed">—</Text> : String(value);
        }}
        rowActions={(r) => (
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" variant="subtle" aria-label={`Edit ${r.name}`} onClick={() => setEditing(r)}>
              Edit
            </Button>
            {r.merged_into_id === null && (
              <Button
                size="compact-xs"
                variant="subtle"
                aria-label={`Merge ${r.name}`}
                onClick={() => navigate(`/admin/merge-personnel?person=${r.id}`)}
              >
                Merge…
              </Button>
            )}
            {r.merged_into_id === null && (
              <StatusActions
                status={r.status}
                what={r.name}
                effects={EFFECTS}
                onChange={async (to) => {
                  await api.patch(`/api/personnel/${r.id}/status`, { status: to, updated_at: r.updated_at });
                  notifications.show({ color: 'green', message: `${r.name} is now ${STATUS_LABELS[to]}` });
                  await refresh();
                }}
              />
            )}
          </Group>
        )}
      />
      <CursorPager
        key={JSON.stringify(toApiQuery(params, false))}
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
        title={editing === 'new' ? 'Create person' : `Edit ${editing?.name ?? ''}`}
      >
        {editing !== null && (
          <PersonForm
            key={editing === 'new' ? 'new' : editing.id}
            person={editing === 'new' ? null : editing}
            onCancel={() => setEditing(null)}
            onSaved={async (p) => {
              setEditing(null);
              notifications.show({ color: 'green', message: `Saved ${p.name}` });
              await refresh();
            }}
          />
        )}
      </SidePanel>
      <CsvImportDialog
        opened={importing}
        onClose={() => setImporting(false)}
        onImported={refresh}
        path="/api/personnel/import"
        noun="personnel"
        columns={PERSONNEL_IMPORT_COLUMNS}
        note={
          <>
            <Code>locations</Code> and <Code>aliases</Code> take several values separated by <Code>;</Code>. Name a location by its endpoint
            id, its external code or its exact name.
          </>
        }
        clientName={currentClient?.name ?? ''}
      />
    </Page>
  );
}
