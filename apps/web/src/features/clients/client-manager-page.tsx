import type { Client, ClientListItem, Status } from '@admin/shared';
import { STATUS_LABELS, STATUSES } from '@admin/shared/constants';
import { clientColumns, INDUSTRIES, INDUSTRY_LABELS, MODULE_LABELS, MODULES } from '@admin/shared/resources/clients';
import { Alert, Badge, Button, Group, Loader, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { DateCell, EmptyCell } from '../../components/data-table/cells.tsx';
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
import { ClientForm } from './client-form.tsx';

type ListAnswer = { data: ClientListItem[]; total: number; totalIsEstimate: boolean; nextCursor: string | null };

const config: ListParamsConfig = { multi: { status: ['active', 'paused'], industry: [], ac: [], module: [] }, single: [] };
/** The client's own screens, opened after switching to the client. */
const CLIENT_SCREENS = [
  { label: 'Locations', path: '/admin/location' },
  { label: 'Personnel', path: '/admin/personnel' },
  { label: 'Surveys', path: '/admin/surveys' },
] as const;
const DEFAULT_SORT = { sort: 'name', order: 'asc' } as const;
const STATUS_EFFECTS: Partial<Record<Status, string>> = {
  paused: 'All sending stops for this client until it is resumed. Nothing is deleted.',
  inactive: 'The client is archived: hidden from the client switcher and lists by default. You can restore it later.',
  active: 'The client becomes active again.',
};

/** Client Manager (landing page): find, create, edit, pause, archive and switch to clients. */
export default function ClientManagerPage() {
  const { params, update } = useListParams(config);
  const [editing, setEditing] = useState<Client | null | 'new'>(null);
  const columns = useColumnPreference('clients', clientColumns);
  const queryClient = useQueryClient();
  const currentClient = useSession((s) => s.currentClient);
  const switchClient = useSession((s) => s.switchClient);
  const loadRootTeams = useSession((s) => s.loadRootTeams);
  const created = useSession((s) => s.clientCreated);
  const setCreated = useSession((s) => s.setClientCreated);

  const navigate = useNavigate();
  // The "created" message answers one create: the next thing done here (or leaving) clears it.
  useEffect(() => () => setCreated(null), [setCreated]);
  const staff = useQuery({
    queryKey: ['staff-users'],
    queryFn: async () => (await api.get<{ data: { id: number; name: string }[] }>('/api/staff-users')).data,
    staleTime: 60_000,
  });
  const query = toApiQuery(params);
  const list = useQuery({
    queryKey: ['clients', query],
    queryFn: ({ signal }) => api.get<ListAnswer>('/api/create-client', { query, signal }),
    placeholderData: keepPreviousData,
  });
  if (list.error) console.error('Failed to load clients', list.error);

  function openForm(client: Client | 'new') {
    setCreated(null);
    setEditing(client);
  }

  const refresh = async () => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: ['clients'] }), loadRootTeams()]);
  };
  const setFilters = update;

  async function changeStatus(row: ClientListItem, to: Status) {
    setCreated(null);
    await api.patch(`/api/clients/${row.id}/status`, { status: to, updated_at: row.updated_at });
    notifications.show({ color: 'green', message: `${row.name} is now ${STATUS_LABELS[to]}` });
    await refresh();
  }

  async function switchTo(row: ClientListItem, then?: string) {
    setCreated(null);
    try {
      if (currentClient?.id !== row.id) {
        await switchClient(row.id);
        await queryClient.invalidateQueries();
        notifications.show({ color: 'green', message: `Switched to ${row.name}` });
      }
      if (then) await navigate(then);
    } catch (err) {
      console.error('Failed to switch client', err);
      notifications.show({ color: 'red', title: 'Could not switch client', message: err instanceof Error ? err.message : String(err) });
    }
  }

  return (
    <Page
      actions={
        <Group gap="xs">
          <ColumnChooser columns={clientColumns} choice={columns.choice} onChange={columns.setChoice} />
          <ExportButton path="/api/create-client/export" query={() => ({ ...toApiQuery(params, false), columns: columns.visible })} />
          <Button size="sm" onClick={() => openForm('new')}>
            Create client
          </Button>
        </Group>
      }
    >
      {created && (
        <Alert
          color={created.status === 'success' ? 'green' : 'red'}
          variant="light"
          withCloseButton
          onClose={() => setCreated(null)}
          role="status"
        >
          {created.message}
        </Alert>
      )}
      <FilterBar>
        <SearchFilter value={params.q} placeholder="Name or ID" onChange={(q) => setFilters({ q })} />
        <MultiFilter
          label="Status"
          options={STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
          value={params.multi.status ?? []}
          onChange={(status) => setFilters({ multi: { status } })}
          w={260}
        />
        <MultiFilter
          label="Industry"
          options={INDUSTRIES.map((i) => ({ value: i, label: INDUSTRY_LABELS[i] }))}
          value={params.multi.industry ?? []}
          onChange={(industry) => setFilters({ multi: { industry } })}
        />
        <MultiFilter
          label="Account coordinator"
          options={(staff.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))}
          value={params.multi.ac ?? []}
          onChange={(ac) => setFilters({ multi: { ac } })}
        />
        <MultiFilter
          label="Modules"
          options={MODULES.map((m) => ({ value: m, label: MODULE_LABELS[m] }))}
          value={params.multi.module ?? []}
          onChange={(module) => setFilters({ multi: { module } })}
        />
        {list.isFetching && <Loader size="xs" aria-label="Refreshing" />}
      </FilterBar>

      <DataTable<ClientListItem>
        caption="Clients"
        columns={clientColumns}
        visible={columns.visible}
        rows={list.data?.data}
        rowKey={(r) => r.id}
        sort={{ sort: params.sort, order: params.order }}
        defaultSort={DEFAULT_SORT}
        onSort={(s) => setFilters({ sort: s.sort, order: s.order })}
        isPending={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        empty={{
          title: 'No clients match these filters.',
          action: (
            <Button size="xs" variant="light" onClick={() => openForm('new')}>
              Create client
            </Button>
          ),
        }}
        onOpen={openForm}
        openLabel={(r) => `Edit ${r.name}`}
        renderCell={(key, r) => {
          switch (key) {
            case 'industry':
              return INDUSTRY_LABELS[r.industry];
            case 'status':
              return <StatusBadge status={r.status} />;
            case 'modules':
              return r.modules.length > 0 ? (
                <Group gap={4}>
                  {r.modules.map((m) => (
                    <Badge key={m} size="xs" variant="outline">
                      {MODULE_LABELS[m]}
                    </Badge>
                  ))}
                </Group>
              ) : (
                <EmptyCell />
              );
            case 'created_at':
              return <DateCell value={r.created_at} />;
            case 'name':
              return (
                <>
                  {r.name}
                  {currentClient?.id === r.id && (
                    <Badge ml={6} size="xs" color="blue" variant="light">
                      current
                    </Badge>
                  )}
                </>
              );
            default: {
              const value = r[key as keyof ClientListItem];
              return value === null || value === undefined || value === '' ? <EmptyCell /> : String(value);
            }
          }
        }}
        rowActions={(r) => {
          const isCurrent = currentClient?.id === r.id;
          const archived = r.status === 'inactive';
          // Every row has the same slots, so the buttons line up down the column; a slot that
          // does not apply to a row keeps its place (the current client says so in its slot).
          return (
            <Group gap={4} wrap="nowrap">
              <Button size="compact-xs" variant="subtle" aria-label={`Edit ${r.name}`} onClick={() => openForm(r)}>
                Edit
              </Button>
              <span className="row-action-slot row-action-slot-switch">
                {isCurrent ? (
                  <Text span size="xs" c="dimmed" fw={500}>
                    Current
                  </Text>
                ) : (
                  !archived && (
                    <Button size="compact-xs" variant="subtle" aria-label={`Switch to ${r.name}`} onClick={() => void switchTo(r)}>
                      Switch
                    </Button>
                  )
                )}
              </span>
              <span className="row-action-slot row-action-slot-open">
                {!archived && (
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <Button size="compact-xs" variant="subtle" aria-label={`Open ${r.name}'s screens`}>
                        Open ▾
                      </Button>
                    </Menu.Target>
                    <Menu.Dropdown>
                      {CLIENT_SCREENS.map((screen) => (
                        <Menu.Item key={screen.path} onClick={() => void switchTo(r, screen.path)}>
                          {screen.label}
                        </Menu.Item>
                      ))}
                    </Menu.Dropdown>
                  </Menu>
                )}
              </span>
              <StatusActions status={r.status} what={r.name} effects={STATUS_EFFECTS} onChange={(to) => changeStatus(r, to)} />
            </Group>
          );
        }}
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
        title={editing === 'new' ? 'Create client' : `Edit ${editing?.name ?? ''}`}
      >
        {editing !== null && (
          <ClientForm
            key={editing === 'new' ? 'new' : editing.id}
            client={editing === 'new' ? null : editing}
            onCancel={() => setEditing(null)}
            onSaved={async (client, wasCreated) => {
              setEditing(null);
              if (wasCreated) setCreated({ status: 'success', message: `Client "${client.name}" was created with its root team.` });
              else {
                setCreated(null);
                notifications.show({ color: 'green', message: `Saved ${client.name}` });
              }
              await refresh();
            }}
          />
        )}
      </SidePanel>
    </Page>
  );
}
