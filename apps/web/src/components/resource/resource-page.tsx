import type { FilterSpec, ResourceView, Status } from '@admin/shared';
import { SELECTED_ALL, STATUS_LABELS } from '@admin/shared/constants';
import { Button, Checkbox, Group, Loader, Select, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ComponentType, type ReactNode, useState } from 'react';
import { api } from '../../lib/http.ts';
import type { ListParams, ListParamsConfig } from '../../lib/list-params.ts';
import { CsvImportDialog } from '../csv-import/csv-import.tsx';
import { ColumnChooser } from '../data-table/column-chooser.tsx';
import { ExportButton } from '../data-table/export-button.tsx';
import { DateRangeFilter } from '../filters/date-range-filter.tsx';
import { FilterBar } from '../filters/filter-bar.tsx';
import { MultiFilter } from '../filters/multi-filter.tsx';
import { RemoteMultiFilter } from '../filters/remote-multi-filter.tsx';
import { SearchFilter, TextFilter } from '../filters/search-filter.tsx';
import { Page } from '../page.tsx';
import { SidePanel } from '../side-panel.tsx';
import { StatusActions } from '../status/status-kit.tsx';
import { ResourceFormShell } from './field.tsx';
import { type ResourceCells, ResourceTable } from './resource-table.tsx';
import { type Editable, type ResourceFormProps, recordId, useResourceForm } from './use-resource-form.ts';
import { listConfigOf, type ResourceList, useResourceList } from './use-resource-list.ts';

export type { ResourceList };

type Row0 = Omit<Editable, 'updated_at'> & { updated_at?: string; status?: Status };
/** Rows of read-only resources have no version stamp, so no form edits them. */
const editable = <Row extends Row0>(row: Row): row is Row & Editable => typeof row.updated_at === 'string';

type Props<Row extends Row0> = {
  resource: ResourceView<Row>;
  /** The list's URL state when it differs from the definition's filters (`listConfigOf`). */
  config?: ListParamsConfig;
  /** The side panel's form; the definition's fields in order when absent. */
  form?: ComponentType<ResourceFormProps<Row & Editable>>;
  cells?: ResourceCells<Row>;
  /** How buttons and titles name a row ("Edit Duct cleaning"); its `name` when absent. */
  title?: (row: Row) => string;
  /** Filters beyond the definition's, after them. */
  filters?: (list: ResourceList<Row>) => ReactNode;
  /** Above the filters; the current client's name when absent. */
  intro?: ReactNode | ((list: ResourceList<Row>) => ReactNode);
  /** What the import dialog says about special columns. */
  importNote?: ReactNode;
  /** Buttons of a row after Edit and the status actions. */
  rowActions?: (row: Row, list: ResourceList<Row>) => ReactNode;
  /** A read-only resource (e.g. a log): no Create button, no Edit or status actions; an empty list offers to clear the filters. */
  readOnly?: true;
  /** No Create button: the rows exist already (e.g. Survey Admin's one row per client); rows are still edited. */
  noCreate?: true;
  /** What opening a row shows in the side panel instead of the form (read-only resources). */
  detail?: ComponentType<{ row: Row }>;
  /** What the table says when no row matches; names the plural (and the current client) when absent. */
  empty?: string;
  /** Whether a row's status may change (e.g. not once merged into another); every row's when absent. */
  canChangeStatus?: (row: Row) => boolean;
  /** Told after each change written here (a create, an edit, a status change), e.g. to answer a create. */
  onChanged?: (row: Row, change: 'create' | 'update' | 'status') => void;
  /** The toast after a save; "Saved <title>" when absent, none when it answers null. */
  savedMessage?: (row: Row, created: boolean) => string | null;
  /** The side panel's width for a form of many fields (Mantine Drawer sizes); `md` when absent. */
  panelSize?: 'md' | 'lg' | 'xl';
};

const nameOf = (row: object) => String(Object.entries(row).find(([k]) => k === 'name')?.[1] ?? '');
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Whether a filter narrows the list now, as the API query says (`toApiQuery`): a value chosen, or
 * a multi-select not at Selected All nor empty. A default that narrows (e.g. Surveys' Active and
 * Paused) counts too, since it hides rows while the filters are out of sight.
 */
function filterIsActive(name: string, spec: FilterSpec, params: ListParams): boolean {
  if (spec.kind === 'dateRange') return Boolean(params.single.startDate || params.single.endDate);
  if (spec.kind === 'choice' || spec.kind === 'text') return Boolean(params.single[name]);
  const values = params.multi[name] ?? [];
  return values.length > 0 && !values.includes(SELECTED_ALL);
}

/** A filter as its definition describes it. */
function DefinedFilter<Row>({ name, spec, list, path }: { name: string; spec: FilterSpec; list: ResourceList<Row>; path: string }) {
  const { params, update } = list;
  if (spec.kind === 'text') {
    const onText = (text: string) => update({ single: { [name]: text } });
    return <TextFilter label={spec.label} placeholder={spec.placeholder} w={160} value={params.single[name] ?? ''} onChange={onText} />;
  }
  if (spec.kind === 'dateRange') {
    const { startDate = '', endDate = '' } = params.single;
    return <DateRangeFilter startDate={startDate} endDate={endDate} onChange={(range) => update({ single: range })} />;
  }
  if (spec.kind === 'choice' && spec.checkbox) {
    const option = spec.options[0];
    return (
      <Checkbox
        label={spec.label}
        checked={option !== undefined && params.single[name] === option.value}
        onChange={(e) => update({ single: { [name]: e.currentTarget.checked ? (option?.value ?? '') : '' } })}
        mb={8}
      />
    );
  }
  if (spec.kind === 'choice') {
    return (
      <Select
        label={spec.label}
        w={200}
        allowDeselect={false}
        data={[{ value: '', label: spec.emptyLabel ?? 'Any' }, ...spec.options]}
        value={params.single[name] ?? ''}
        onChange={(v) => update({ single: { [name]: v ?? '' } })}
      />
    );
  }
  const value = params.multi[name] ?? [];
  const onChange = (next: string[]) => update({ multi: { [name]: next } });
  if ('item' in spec) {
    return (
      <RemoteMultiFilter
        label={spec.label}
        path={spec.optionsPath ?? `${path}/options/${name}`}
        value={value}
        onChange={onChange}
        {...(spec.emptyLabel ? { emptyLabel: spec.emptyLabel, w: 260 } : {})}
      />
    );
  }
  return (
    <MultiFilter
      label={spec.label}
      options={[...spec.options]}
      value={value}
      onChange={onChange}
      w={name === 'status' || spec.default?.length ? 260 : 220}
    />
  );
}

function DefaultForm<Row extends Editable>(props: ResourceFormProps<Row> & { resource: ResourceView<Row> }) {
  const form = useResourceForm(props.resource, props);
  return <ResourceFormShell form={form} />;
}

/**
 * A resource's screen from its definition: header actions (columns, export, import, create), the
 * filters, the table with its four states and row actions (edit, status changes that say what
 * they do), the cursor pager, and the side panel with the form. A screen passes only what differs.
 */
export function ResourcePage<Row extends Row0>(props: Props<Row>) {
  const def = props.resource;
  const config = props.config ?? listConfigOf(def);
  const list = useResourceList(def, config);
  const { params, update, currentClient, waiting } = list;
  const [editing, setEditing] = useState<(Row & Editable) | 'new' | null>(null);
  const [shown, setShown] = useState<Row | null>(null);
  const Detail = props.detail;
  /** Every filter cleared: "Selected All" where a filter has defaults, nothing chosen elsewhere. */
  const clearFilters = () =>
    update({
      q: '',
      multi: Object.fromEntries(Object.entries(config.multi).map(([k, d]) => [k, d.length > 0 ? [SELECTED_ALL] : []])),
      single: Object.fromEntries(config.single.map((k) => [k, ''])),
    });
  const [importing, setImporting] = useState(false);
  const title = props.title ?? nameOf;
  const Plural = capital(def.plural);
  const create = `Create ${def.noun}`;
  const Form = props.form;

  const changeStatus = async (row: Row, to: Status) => {
    await api.patch(`${def.recordPath ?? def.path}/${recordId(def, row)}/status`, { status: to, updated_at: row.updated_at });
    notifications.show({ color: 'green', message: `${title(row)} is now ${STATUS_LABELS[to]}` });
    await list.refresh();
    props.onChanged?.(row, 'status');
  };

  return (
    <Page
      actions={
        <Group gap="xs">
          <ColumnChooser columns={def.columns} choice={list.columns.choice} onChange={list.columns.setChoice} />
          <ExportButton path={`${def.path}/export`} query={list.exportQuery} />
          {def.importColumns && (
            <Button size="sm" variant="default" onClick={() => setImporting(true)} disabled={waiting}>
              Import CSV
            </Button>
          )}
          {!props.readOnly && !props.noCreate && (
            <Button size="sm" onClick={() => setEditing('new')} disabled={waiting}>
              {create}
            </Button>
          )}
        </Group>
      }
    >
      {(typeof props.intro === 'function' ? props.intro(list) : props.intro) ?? (
        <Text size="sm" c="dimmed">
          Client: <b>{currentClient?.name ?? 'none chosen — pick one in the client switcher'}</b>
        </Text>
      )}
      <FilterBar
        search={<SearchFilter value={params.q} placeholder={def.search} onChange={(q) => update({ q })} />}
        active={Object.entries(def.filters).filter(([name, spec]) => filterIsActive(name, spec, params)).length}
        status={list.list.isFetching && <Loader size="xs" aria-label="Refreshing" />}
      >
        {Object.entries(def.filters).map(([name, spec]) => (
          <DefinedFilter key={name} name={name} spec={spec} list={list} path={def.path} />
        ))}
        {props.filters?.(list)}
      </FilterBar>
      <ResourceTable<Row>
        resource={def}
        list={list}
        caption={Plural}
        empty={{
          title:
            props.empty ??
            (waiting
              ? `Choose a client to see its ${def.plural}.`
              : `No ${def.plural}${currentClient && def.scope !== 'global' ? ` of ${currentClient.name}` : ''} match these filters.`),
          action: waiting ? undefined : props.readOnly || props.noCreate ? (
            <Button size="xs" variant="light" onClick={clearFilters}>
              Clear all filters
            </Button>
          ) : (
            <Button size="xs" variant="light" onClick={() => setEditing('new')}>
              {create}
            </Button>
          ),
        }}
        onOpen={Detail ? setShown : props.readOnly ? undefined : (r) => editable(r) && setEditing(r)}
        // Opening the edit form, the name is named by what it shows, not a second "Edit <name>".
        openLabel={Detail ? (r) => `Details of ${title(r)}` : undefined}
        rowName={props.title}
        cells={props.cells}
        rowActions={
          props.readOnly
            ? props.rowActions && ((r) => props.rowActions?.(r, list))
            : (r) => (
                <Group gap={4} wrap="nowrap">
                  <Button size="compact-xs" variant="subtle" aria-label={`Edit ${title(r)}`} onClick={() => editable(r) && setEditing(r)}>
                    Edit
                  </Button>
                  {r.status && (props.canChangeStatus?.(r) ?? true) && (
                    <StatusActions
                      status={r.status}
                      what={title(r)}
                      effects={def.statusEffects ?? {}}
                      onChange={(to) => changeStatus(r, to)}
                    />
                  )}
                  {props.rowActions?.(r, list)}
                </Group>
              )
        }
      />
      <SidePanel
        opened={editing !== null}
        onClose={() => setEditing(null)}
        size={props.panelSize ?? 'md'}
        title={editing === 'new' ? create : `Edit ${editing ? title(editing) : ''}`}
      >
        {editing !== null &&
          (() => {
            const key = editing === 'new' ? 'new' : recordId(def, editing);
            const formProps: ResourceFormProps<Row & Editable> = {
              record: editing === 'new' ? null : editing,
              onCancel: () => setEditing(null),
              onSaved: async (saved) => {
                const created = editing === 'new';
                setEditing(null);
                const message = props.savedMessage ? props.savedMessage(saved, created) : `Saved ${title(saved)}`;
                if (message !== null) notifications.show({ color: 'green', message });
                await list.refresh();
                props.onChanged?.(saved, created ? 'create' : 'update');
              },
            };
            return Form ? <Form key={key} {...formProps} /> : <DefaultForm<Row & Editable> key={key} {...formProps} resource={def} />;
          })()}
      </SidePanel>
      {Detail && (
        <SidePanel opened={shown !== null} onClose={() => setShown(null)} size="xl" title={shown ? capital(title(shown)) : ''}>
          {shown && <Detail row={shown} />}
        </SidePanel>
      )}
      {def.importColumns && (
        <CsvImportDialog
          opened={importing}
          onClose={() => setImporting(false)}
          onImported={list.refresh}
          path={`${def.path}/import`}
          noun={def.plural}
          columns={[...def.importColumns, ...(def.importExtraColumns ?? [])]}
          note={props.importNote}
          clientName={currentClient?.name ?? ''}
        />
      )}
    </Page>
  );
}
