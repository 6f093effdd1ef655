import type { Product, Status } from '@admin/shared';
import { STATUS_LABELS, STATUSES } from '@admin/shared/constants';
import { productColumns, productFieldRules } from '@admin/shared/resources/products';
import { Button, Group, Loader, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CsvImportDialog } from '../../components/csv-import/csv-import.tsx';
import { DateCell } from '../../components/data-table/cells.tsx';
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
import { ProductForm } from './product-form.tsx';

type ListAnswer = { data: Product[]; total: number; totalIsEstimate: boolean; nextCursor: string | null };
const config: ListParamsConfig = { multi: { status: ['active', 'paused'] }, single: [] };
const DEFAULT_SORT = { sort: 'name', order: 'asc' } as const;
const EFFECTS: Partial<Record<Status, string>> = {
  paused: 'Surveys and reports stop offering this product until it is resumed.',
  inactive: 'The product is archived and hidden by default. You can restore it later.',
};

/** Products and services of the current client. */
export default function ProductPage() {
  const { params, update } = useListParams(config);
  const [editing, setEditing] = useState<Product | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const currentClient = useSession((s) => s.currentClient);
  const columns = useColumnPreference('products', productColumns);
  const queryClient = useQueryClient();
  const query = toApiQuery(params);
  const list = useQuery({
    queryKey: ['products', currentClient?.id, query],
    queryFn: ({ signal }) => api.get<ListAnswer>('/api/product', { query, signal }),
    placeholderData: keepPreviousData,
    enabled: currentClient !== null,
  });
  if (list.error) console.error('Failed to load products', list.error);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['products'] });

  return (
    <Page
      actions={
        <Group gap="xs">
          <ColumnChooser columns={productColumns} choice={columns.choice} onChange={columns.setChoice} />
          <ExportButton path="/api/product/export" query={() => ({ ...toApiQuery(params, false), columns: columns.visible })} />
          <Button size="sm" variant="default" onClick={() => setImporting(true)} disabled={!currentClient}>
            Import CSV
          </Button>
          <Button size="sm" onClick={() => setEditing('new')} disabled={!currentClient}>
            Create product
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
        {list.isFetching && <Loader size="xs" aria-label="Refreshing" />}
      </FilterBar>
      <DataTable<Product>
        caption="Products"
        columns={productColumns}
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
          title: currentClient ? `No products of ${currentClient.name} match these filters.` : 'Choose a client to see its products.',
          action: currentClient ? (
            <Button size="xs" variant="light" onClick={() => setEditing('new')}>
              Create product
            </Button>
          ) : undefined,
        }}
        onOpen={(r) => setEditing(r)}
        openLabel={(r) => `Edit ${r.name}`}
        renderCell={(key, r) => {
          if (key === 'status') return <StatusBadge status={r.status} />;
          if (key === 'created_at') return <DateCell value={r.created_at} />;
          const value = r[key as keyof Product];
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
                await api.patch(`/api/product/${r.id}/status`, { status: to, updated_at: r.updated_at });
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
        title={editing === 'new' ? 'Create product' : `Edit ${editing?.name ?? ''}`}
      >
        {editing !== null && (
          <ProductForm
            key={editing === 'new' ? 'new' : editing.id}
            product={editing === 'new' ? null : editing}
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
        path="/api/product/import"
        noun="products"
        columns={Object.keys(productFieldRules)}
        clientName={currentClient?.name ?? ''}
      />
    </Page>
  );
}
