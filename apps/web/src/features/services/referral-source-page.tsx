import type { ReferralSource, Status } from '@admin/shared';
import { STATUS_LABELS, STATUSES } from '@admin/shared/constants';
import { REFERRAL_TYPE_LABELS, REFERRAL_TYPES, referralSourceColumns } from '@admin/shared/resources/referral-sources';
import { Button, Group, Loader, Select, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
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
import { ReferralSourceForm } from './referral-source-form.tsx';

type ListAnswer = { data: ReferralSource[]; total: number; totalIsEstimate: boolean; nextCursor: string | null };
const config: ListParamsConfig = { multi: { status: ['active', 'paused'], type: [] }, single: ['scope'] };
const DEFAULT_SORT = { sort: 'name', order: 'asc' } as const;
const EFFECTS: Partial<Record<Status, string>> = {
  paused: 'Surveys and feeds stop offering this source until it is resumed.',
  inactive: 'The source is archived and hidden by default. You can restore it later.',
};

/** Referral sources of the current client, with the global defaults shared by all clients. */
export default function ReferralSourcePage() {
  const { params, update } = useListParams(config);
  const [editing, setEditing] = useState<ReferralSource | 'new' | null>(null);
  const currentClient = useSession((s) => s.currentClient);
  const columns = useColumnPreference('referral-sources', referralSourceColumns);
  const queryClient = useQueryClient();
  const query = toApiQuery(params);
  const list = useQuery({
    queryKey: ['referral-sources', currentClient?.id, query],
    queryFn: ({ signal }) => api.get<ListAnswer>('/api/referral-source', { query, signal }),
    placeholderData: keepPreviousData,
    enabled: currentClient !== null,
  });
  if (list.error) console.error('Failed to load referral sources', list.error);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['referral-sources'] });

  return (
    <Page
      actions={
        <Group gap="xs">
          <ColumnChooser columns={referralSourceColumns} choice={columns.choice} onChange={columns.setChoice} />
          <ExportButton path="/api/referral-source/export" query={() => ({ ...toApiQuery(params, false), columns: columns.visible })} />
          <Button size="sm" onClick={() => setEditing('new')} disabled={!currentClient}>
            Create referral source
          </Button>
        </Group>
      }
    >
      <Text size="sm" c="dimmed">
        Client: <b>{currentClient?.name ?? 'none chosen — pick one in the client switcher'}</b>
      </Text>
      <FilterBar>
        <SearchFilter value={params.q} placeholder="Name or code" onChange={(q) => update({ q })} />
        <MultiFilter
          label="Status"
          options={STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
          value={params.multi.status ?? []}
          onChange={(status) => update({ multi: { status } })}
          w={260}
        />
        <MultiFilter
          label="Type"
          options={REFERRAL_TYPES.map((t) => ({ value: t, label: REFERRAL_TYPE_LABELS[t] }))}
          value={params.multi.type ?? []}
          onChange={(type) => update({ multi: { type } })}
        />
        <Select
          label="Scope"
          w={200}
          allowDeselect={false}
          data={[
            { value: '', label: 'Client and global' },
            { value: 'client', label: 'This client only' },
            { value: 'global', label: 'Global defaults only' },
          ]}
          value={params.single.scope ?? ''}
          onChange={(v) => update({ single: { scope: v ?? '' } })}
        />
        {list.isFetching && <Loader size="xs" aria-label="Refreshing" />}
      </FilterBar>
      <DataTable<ReferralSource>
        caption="Referral sources"
        columns={referralSourceColumns}
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
          title: currentClient ? `No referral sources match these filters.` : 'Choose a client to see its referral sources.',
          action: currentClient ? (
            <Button size="xs" variant="light" onClick={() => setEditing('new')}>
              Create referral source
            </Button>
          ) : undefined,
        }}
        onOpen={(r) => setEditing(r)}
        openLabel={(r) => `Edit ${r.name}`}
        renderCell={(key, r) => {
          if (key === 'status') return <StatusBadge status={r.status} />;
          if (key === 'type') return REFERRAL_TYPE_LABELS[r.type];
          const value = r[key as keyof ReferralSource];
          return value === null || value === '' ? <Text c="dimmed">—</Text> : String(value);
        }}
        rowActions={(r) => (
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" variant="subtle" aria-label={`Edit ${r.name}`} onClick={() => setEditing(r)}>
              Edit
            </Button>
            <StatusActions
              status={r.status}
              what={r.name}
              effects={EFFECTS}
              onChange={async (to) => {
                await api.patch(`/api/referral-source/${r.id}/status`, { status: to, updated_at: r.updated_at });
                notifications.show({ color: 'green', message: `${r.name} is now ${STATUS_LABELS[to]}` });
                await refresh();
              }}
            />
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
        size="md"
        title={editing === 'new' ? 'Create referral source' : `Edit ${editing?.name ?? ''}`}
      >
        {editing !== null && (
          <ReferralSourceForm
            key={editing === 'new' ? 'new' : editing.id}
            source={editing === 'new' ? null : editing}
            clientName={currentClient?.name ?? ''}
            onCancel={() => setEditing(null)}
            onSaved={async (p) => {
              setEditing(null);
              notifications.show({ color: 'green', message: `Saved ${p.name}` });
              await refresh();
            }}
          />
        )}
      </SidePanel>
    </Page>
  );
}
