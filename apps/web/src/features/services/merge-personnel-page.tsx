import { cardOf, type MergeGroup, type MergeGroupsAnswer, type MergePerson, type MergeRecord, type Person } from '@admin/shared';
import { MATCH_REASON_LABELS, mergeGroupColumns, mergeHistoryResource } from '@admin/shared/resources/personnel-merge';
import { Badge, Button, Group, Loader, Modal, Stack, Tabs, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DateTimeCell, EmptyCell } from '../../components/data-table/cells.tsx';
import { ColumnChooser } from '../../components/data-table/column-chooser.tsx';
import { DataTable } from '../../components/data-table/data-table.tsx';
import { ExportButton } from '../../components/data-table/export-button.tsx';
import { CursorPager } from '../../components/data-table/pager.tsx';
import { SearchFilter } from '../../components/filters/search-filter.tsx';
import { Page } from '../../components/page.tsx';
import { ResourceTable } from '../../components/resource/resource-table.tsx';
import { listConfigOf, useResourceList } from '../../components/resource/use-resource-list.ts';
import { SidePanel } from '../../components/side-panel.tsx';
import { api } from '../../lib/http.ts';
import { type ListParamsConfig, useListParams } from '../../lib/list-params.ts';
import { useSession } from '../../lib/session-store.ts';
import { MergePanel } from './merge-panel.tsx';

const config: ListParamsConfig = { multi: {}, single: ['tab', 'person'] };
const historyResource = mergeHistoryResource;
// The history's own list state: no filters, so the tab and the handed-over person stay out of its query.
const HISTORY_CONFIG = listConfigOf(historyResource);
const NO_SORT = { sort: undefined, order: undefined };
const GROUP_COLUMN_KEYS = mergeGroupColumns.map((c) => c.key);
/** A group's card on a phone: its names, why they look alike and where they work. */
const GROUP_CARD = cardOf(mergeGroupColumns, { facts: ['reasons', 'locations'] });

/** Suspected duplicate groups of the current client, with Review merge and Not duplicates. */
function Suggestions(props: {
  q: string;
  onSearch(q: string): void;
  cursor: string | undefined;
  /** The page's number (the URL's), and the rows a page holds: the server's default. */
  page: number;
  perPage: number;
  onCursor(cursor: string | undefined, page: number): void;
  onReview(people: MergePerson[]): void;
}) {
  const currentClient = useSession((s) => s.currentClient);
  const queryClient = useQueryClient();
  const [dismissing, setDismissing] = useState<MergeGroup | null>(null);
  const [busy, setBusy] = useState(false);
  const query = { ...(props.q ? { q: props.q } : {}), ...(props.cursor ? { cursor: props.cursor } : {}) };
  const list = useQuery({
    queryKey: ['merge-groups', currentClient?.id, query],
    queryFn: ({ signal }) => api.get<MergeGroupsAnswer>('/api/get-merge-personnel', { query, signal }),
    placeholderData: keepPreviousData,
    enabled: currentClient !== null,
    meta: { what: 'suggested duplicate groups' },
  });

  async function dismiss() {
    if (!dismissing) return;
    setBusy(true);
    try {
      await api.post('/api/get-merge-personnel/dismissals', { personnel_ids: dismissing.personnel_ids });
      notifications.show({ color: 'green', message: `${dismissing.people.map((p) => p.name).join(' and ')} will not be suggested again.` });
      setDismissing(null);
      await queryClient.invalidateQueries({ queryKey: ['merge-groups'] });
    } catch (e) {
      notifications.show({ color: 'red', message: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="md" mt="md">
      <Group align="flex-end" gap="sm">
        <SearchFilter value={props.q} placeholder="Name, code or email" onChange={props.onSearch} />
        {list.isFetching && <Loader size="xs" aria-label="Refreshing" />}
        {list.data && (
          <Text size="sm" c="dimmed">
            {list.data.total === 1 ? '1 suggested group' : `${list.data.total} suggested groups`}
          </Text>
        )}
      </Group>
      <DataTable<MergeGroup>
        caption="Suggested duplicate groups"
        columns={mergeGroupColumns}
        visible={GROUP_COLUMN_KEYS}
        rows={list.data?.data}
        rowKey={(g) => g.key}
        rowName={(g) => g.people.map((p) => p.name).join(', ')}
        card={GROUP_CARD}
        sort={NO_SORT}
        defaultSort={{ sort: 'names', order: 'asc' }}
        onSort={() => undefined}
        isPending={list.isPending && currentClient !== null}
        error={list.error}
        onRetry={() => void list.refetch()}
        empty={{
          title: currentClient
            ? `No suspected duplicates among ${currentClient.name}'s personnel${props.q ? ' match this search' : ''}.`
            : 'Choose a client to see its suspected duplicates.',
        }}
        renderCell={(key, g) => {
          if (key === 'names') return g.people.map((p) => p.name).join(', ');
          if (key === 'employee_codes') {
            const codes = g.people.map((p) => p.employee_code).filter((c) => c !== null);
            return codes.length > 0 ? codes.join(', ') : <EmptyCell />;
          }
          if (key === 'locations') {
            const names = [...new Set(g.people.flatMap((p) => p.location_names))];
            return names.length > 0 ? names.join(', ') : <EmptyCell />;
          }
          if (key === 'reasons')
            return (
              <Group gap={4}>
                {g.reasons.map((r) => (
                  <Badge key={r} variant="light" size="sm">
                    {MATCH_REASON_LABELS[r]}
                  </Badge>
                ))}
              </Group>
            );
          return g.people.length;
        }}
        rowActions={(g) => (
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" variant="subtle" onClick={() => props.onReview(g.people)}>
              Review merge
            </Button>
            <Button size="compact-xs" variant="subtle" color="gray" onClick={() => setDismissing(g)}>
              Not duplicates
            </Button>
          </Group>
        )}
      />
      <CursorPager
        key={props.q}
        cursor={props.cursor}
        nextCursor={list.data?.nextCursor}
        total={list.data?.total}
        totalIsEstimate={false}
        shownCount={list.data?.data.length ?? 0}
        page={props.page}
        perPage={props.perPage}
        onCursor={props.onCursor}
      />
      <Modal opened={dismissing !== null} onClose={() => setDismissing(null)} title="Not duplicates?" centered>
        <Text size="sm">
          {dismissing?.people.map((p) => p.name).join(', ')} will no longer be suggested as one person. Nothing else changes.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setDismissing(null)}>
            Cancel
          </Button>
          <Button loading={busy} onClick={() => void dismiss()}>
            Dismiss suggestion
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}

/** A merge is a moment, shown to the second as the logs' moments are; the other cells are their columns' text, as in the CSV. */
const HISTORY_CELLS = { performed_at: (r: MergeRecord) => <DateTimeCell value={r.performed_at} zone={r.client_timezone} /> };

/** Performed merges, on the kit (`useResourceList` over `mergeHistoryResource`): columns, sort, paging and export from the definition. */
function History() {
  const list = useResourceList(historyResource, HISTORY_CONFIG);
  const { currentClient } = list;
  return (
    <Stack gap="md" mt="md">
      <Group justify="flex-end" gap="xs">
        <ColumnChooser columns={historyResource.columns} choice={list.columns.choice} onChange={list.columns.setChoice} />
        <ExportButton path={`${historyResource.path}/export`} query={list.exportQuery} />
      </Group>
      <ResourceTable<MergeRecord>
        resource={historyResource}
        list={list}
        caption="Merge history"
        empty={{
          title: currentClient ? `No personnel of ${currentClient.name} have been merged yet.` : 'Choose a client to see its merges.',
        }}
        cells={HISTORY_CELLS}
      />
    </Stack>
  );
}

/** Merge Personnel Data (docs/screens.md, decision 010). `?person=<id>` (from Personnel's "Merge…") opens a merge with that person. */
export default function MergePersonnelPage() {
  const { params, update } = useListParams(config);
  const [, setSearchParams] = useSearchParams();
  const currentClient = useSession((s) => s.currentClient);
  const queryClient = useQueryClient();
  const [reviewing, setReviewing] = useState<MergePerson[] | null>(null);
  const tab = params.single.tab === 'history' ? 'history' : 'suggestions';

  // Preload a person handed over from the Personnel screen, with the group the server suggests them in.
  const personId = params.single.person;
  useEffect(() => {
    if (!personId) return;
    let cancelled = false;
    void (async () => {
      const [{ data: person }, groups] = await Promise.all([
        api.get<{ data: Person }>(`/api/personnel/${personId}`),
        api.get<MergeGroupsAnswer>('/api/get-merge-personnel', { query: { person: personId } }),
      ]);
      if (cancelled) return;
      const group = groups.data.find((g) => g.personnel_ids.includes(person.id));
      setReviewing([person, ...(group?.people.filter((p) => p.id !== person.id) ?? [])]);
    })().catch((e: unknown) => notifications.show({ color: 'red', message: e instanceof Error ? e.message : String(e) }));
    return () => {
      cancelled = true;
    };
  }, [personId]);

  function close() {
    setReviewing(null);
    if (personId)
      setSearchParams(
        (s) => {
          s.delete('person');
          return s;
        },
        { replace: true },
      );
  }

  return (
    <Page
      actions={
        <Button size="sm" onClick={() => setReviewing([])} disabled={!currentClient}>
          Merge manually
        </Button>
      }
    >
      <Text size="sm" c="dimmed">
        Client: <b>{currentClient?.name ?? 'none chosen — pick one in the client switcher'}</b>. Merging is permanent: the duplicates are
        archived and their names and codes become aliases of the survivor.
      </Text>
      <Tabs value={tab} onChange={(t) => update({ q: '', single: { tab: t === 'history' ? 'history' : '' } })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="suggestions">Suggestions</Tabs.Tab>
          <Tabs.Tab value="history">History</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="suggestions">
          <Suggestions
            q={params.q}
            onSearch={(q) => update({ q })}
            cursor={params.cursor}
            page={params.page}
            perPage={params.perPage}
            onCursor={(cursor, page) => update({ cursor, page })}
            onReview={setReviewing}
          />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <History />
        </Tabs.Panel>
      </Tabs>
      <SidePanel opened={reviewing !== null} onClose={close} size="xl" title="Merge personnel">
        {reviewing !== null && (
          <MergePanel
            key={reviewing.map((p) => p.id).join('-')}
            people={reviewing}
            onCancel={close}
            onMerged={async (survivor) => {
              close();
              notifications.show({ color: 'green', message: `Merged into ${survivor}.` });
              await queryClient.invalidateQueries({ queryKey: ['merge-groups'] });
              await queryClient.invalidateQueries({ queryKey: [historyResource.screen] });
              await queryClient.invalidateQueries({ queryKey: ['personnel'] });
            }}
          />
        )}
      </SidePanel>
    </Page>
  );
}
