import type { SystemLog, SystemLogDetail } from '@admin/shared';
import { LOG_LEVELS, LOG_SERVICES, systemLogColumns } from '@admin/shared/resources/system-logs';
import { Badge, Button, Code, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DateTimeCell } from '../../components/data-table/cells.tsx';
import { ColumnChooser } from '../../components/data-table/column-chooser.tsx';
import { CursorPager, DataTable } from '../../components/data-table/data-table.tsx';
import { ExportButton } from '../../components/data-table/export-button.tsx';
import { useColumnPreference } from '../../components/data-table/use-column-preference.ts';
import { DateRangeFilter } from '../../components/filters/date-range-filter.tsx';
import { FilterBar } from '../../components/filters/filter-bar.tsx';
import { MultiFilter } from '../../components/filters/multi-filter.tsx';
import { SearchFilter, TextFilter } from '../../components/filters/search-filter.tsx';
import { Page } from '../../components/page.tsx';
import { SidePanel } from '../../components/side-panel.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { api } from '../../lib/http.ts';
import { type ListParamsConfig, toApiQuery, useListParams } from '../../lib/list-params.ts';
import { useSession } from '../../lib/session-store.ts';

type ListAnswer = { data: SystemLog[]; total: number; totalIsEstimate: boolean; nextCursor: string | null };

// Warnings and errors are what staff come here for (docs/screens.md, System Logs); "Selected All" shows everything.
const config: ListParamsConfig = {
  multi: { level: ['warn', 'error'], service: [], actor: [], client: [] },
  single: ['startDate', 'endDate', 'entityType'],
};
const DEFAULT_SORT = { sort: 'at', order: 'desc' } as const;
const LEVEL_COLORS: Record<string, string> = { debug: 'gray', info: 'blue', warn: 'orange', error: 'red' };

export default function SystemLogsPage() {
  const { params, update } = useListParams(config);
  const [openId, setOpenId] = useState<number | null>(null);
  const rootTeams = useSession((s) => s.rootTeams);
  const columns = useColumnPreference('system-logs', systemLogColumns);

  const query = toApiQuery(params);
  const list = useQuery({
    queryKey: ['system-logs', query],
    queryFn: ({ signal }) => api.get<ListAnswer>('/api/system-logs', { query, signal }),
    placeholderData: keepPreviousData,
  });
  const options = useQuery({
    queryKey: ['system-logs', 'filter-options'],
    queryFn: async () => (await api.get<{ data: { actors: { id: number; name: string }[] } }>('/api/system-logs/filter-options')).data,
    staleTime: 5 * 60_000,
  });
  if (list.error) console.error('Failed to load system logs', list.error);

  const setFilters = update;

  return (
    <Page
      actions={
        <Group gap="xs">
          <ColumnChooser columns={systemLogColumns} choice={columns.choice} onChange={columns.setChoice} />
          <ExportButton path="/api/system-logs/export" query={() => ({ ...toApiQuery(params, false), columns: columns.visible })} />
        </Group>
      }
    >
      <FilterBar>
        <MultiFilter
          label="Level"
          w={260}
          options={LOG_LEVELS.map((l) => ({ value: l, label: l }))}
          value={params.multi.level ?? []}
          onChange={(level) => setFilters({ multi: { level } })}
        />
        <MultiFilter
          label="Service"
          options={LOG_SERVICES.map((s) => ({ value: s, label: s }))}
          value={params.multi.service ?? []}
          onChange={(service) => setFilters({ multi: { service } })}
        />
        <MultiFilter
          label="Users"
          options={(options.data?.actors ?? []).map((a) => ({ value: String(a.id), label: a.name }))}
          value={params.multi.actor ?? []}
          onChange={(actor) => setFilters({ multi: { actor } })}
        />
        <MultiFilter
          label="Clients"
          options={rootTeams.map((t) => ({ value: String(t.clientId), label: t.clientName }))}
          value={params.multi.client ?? []}
          onChange={(client) => setFilters({ multi: { client } })}
        />
        <TextFilter
          label="Entity type"
          placeholder="e.g. client"
          w={150}
          value={params.single.entityType ?? ''}
          onChange={(entityType) => setFilters({ single: { entityType } })}
        />
        <DateRangeFilter
          startDate={params.single.startDate ?? ''}
          endDate={params.single.endDate ?? ''}
          onChange={(range) => setFilters({ single: range })}
        />
        <SearchFilter value={params.q} placeholder="Message, event or request id" onChange={(q) => setFilters({ q })} />
        {list.isFetching && <Loader size="xs" aria-label="Refreshing" />}
      </FilterBar>

      <DataTable<SystemLog>
        caption="System logs"
        columns={systemLogColumns}
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
          title: 'No log entries match these filters.',
          action: (
            <Button
              variant="light"
              size="xs"
              onClick={() =>
                setFilters({
                  multi: { level: ['selected all'], service: [], actor: [], client: [] },
                  single: { startDate: '', endDate: '', entityType: '' },
                  q: '',
                })
              }
            >
              Clear all filters
            </Button>
          ),
        }}
        onOpen={(r) => setOpenId(r.id)}
        openLabel={(r) => `Details of entry ${r.id}`}
        renderCell={(key, r) => {
          switch (key) {
            case 'at':
              return <DateTimeCell value={r.at} />;
            case 'level':
              return (
                <Badge color={LEVEL_COLORS[r.level]} variant="light">
                  {r.level}
                </Badge>
              );
            default: {
              const value = r[key as keyof SystemLog];
              return value === null || value === undefined ? <Text c="dimmed">—</Text> : String(value);
            }
          }
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

      <LogDetail id={openId} onClose={() => setOpenId(null)} />
    </Page>
  );
}

function LogDetail({ id, onClose }: { id: number | null; onClose(): void }) {
  const detail = useQuery({
    queryKey: ['system-logs', 'detail', id],
    queryFn: async () => (await api.get<{ data: SystemLogDetail }>(`/api/system-logs/${id}`)).data,
    enabled: id !== null,
  });
  const d = detail.data;
  return (
    <SidePanel opened={id !== null} onClose={onClose} size="xl" title={`Log entry ${id}`}>
      {detail.isPending && <Loader aria-label="Loading entry" />}
      {detail.error && <Text c="red">{detail.error.message}</Text>}
      {d && (
        <Stack gap="sm">
          <SimpleGrid cols={2} spacing="xs">
            {(
              [
                ['Time', formatDateTime(d.at)],
                ['Level', d.level],
                ['Service', d.service],
                ['Event', d.action],
                ['Actor', d.actor_name ?? '—'],
                ['Client', d.client_name ?? '—'],
                ['Entity', d.entity ?? '—'],
                ['IP', d.ip ?? '—'],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
                <Text size="sm">{value}</Text>
              </div>
            ))}
          </SimpleGrid>
          <div>
            <Text size="xs" c="dimmed">
              Message
            </Text>
            <Text size="sm">{d.message}</Text>
          </div>
          {d.request_id && (
            <Group gap="xs">
              <Text size="xs" c="dimmed">
                Request id
              </Text>
              <Code>{d.request_id}</Code>
              <Button size="compact-xs" variant="light" onClick={() => void navigator.clipboard?.writeText(d.request_id ?? '')}>
                Copy request id
              </Button>
            </Group>
          )}
          {(d.before !== null || d.after !== null) && (
            <SimpleGrid cols={2} spacing="sm">
              <div>
                <Text size="xs" c="dimmed">
                  Before
                </Text>
                <Code block>{JSON.stringify(d.before, null, 2)}</Code>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  After
                </Text>
                <Code block>{JSON.stringify(d.after, null, 2)}</Code>
              </div>
            </SimpleGrid>
          )}
        </Stack>
      )}
    </SidePanel>
  );
}
