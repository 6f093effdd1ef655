import type { ListResult, MergePerson, MergePreview, Person } from '@admin/shared';
import { describeMoved, MERGE_FIELD_LABELS, MERGE_REQUEST_LABELS, mergePersonOf } from '@admin/shared/resources/personnel-merge';
import { Alert, Button, Checkbox, Group, List, Radio, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { usePanelForm } from '../../components/side-panel.tsx';
import { formatPhone } from '../../lib/format.ts';
import { ApiError, api } from '../../lib/http.ts';

const toMergePerson = (p: Person): MergePerson => mergePersonOf(p, p.location_names);

/** Finds people of the current client to add to a manual merge. */
function AddPerson(props: { exclude: number[]; onAdd(p: MergePerson): void }) {
  const [search, setSearch] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setDebounced(search), 250);
    return () => clearTimeout(t);
  }, [search]);
  const found = useQuery({
    queryKey: ['personnel-search', debounced],
    queryFn: ({ signal }) =>
      api.get<ListResult<Person>>('/api/personnel', { query: { q: debounced, perPage: 20, status: ['active', 'paused'] }, signal }),
    enabled: debounced.trim().length > 0,
    meta: { what: 'personnel' },
  });
  const options = (found.data?.data ?? []).filter((p) => !props.exclude.includes(p.id) && p.merged_into_id === null);
  return (
    <Select
      label="Add a person"
      placeholder="Type a name, code or email"
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      value={null}
      data={options.map((p) => ({ value: String(p.id), label: `${p.name}${p.employee_code ? ` (${p.employee_code})` : ''}` }))}
      filter={({ options: all }) => all}
      nothingFoundMessage={debounced ? 'Nobody matches' : 'Type to search'}
      onChange={(id) => {
        const p = options.find((o) => String(o.id) === id);
        if (p) {
          props.onAdd(toMergePerson(p));
          setSearch('');
        }
      }}
      w={320}
    />
  );
}

/**
 * Merging a group (docs/screens.md, Merge Personnel Data): choose the survivor, tick the
 * duplicates, read the preview, type the survivor's name, merge. The server re-checks everything
 * in one transaction.
 */
export function MergePanel(props: { people: MergePerson[]; onMerged(survivor: string): void; onCancel(): void }) {
  const [people, setPeople] = useState(props.people);
  const [survivorId, setSurvivorId] = useState<number | null>(props.people[0]?.id ?? null);
  const [duplicateIds, setDuplicateIds] = useState<number[]>(props.people.slice(1).map((p) => p.id));
  const [confirmName, setConfirmName] = useState('');
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const survivor = people.find((p) => p.id === survivorId);
  const dups = duplicateIds.filter((id) => id !== survivorId);

  const preview = useQuery({
    queryKey: ['merge-preview', survivorId, dups],
    queryFn: () => api.post<{ data: MergePreview }>('/api/get-merge-personnel/preview', { survivor_id: survivorId, duplicate_ids: dups }),
    enabled: survivorId !== null && dups.length > 0,
    retry: false,
    meta: { what: 'merge preview' },
  });
  const plan = preview.data?.data;
  const nameOf = (id: number) => people.find((p) => p.id === id)?.name ?? `#${id}`;
  // Once the survivor's name is typed, the merge is about to happen: closing asks first.
  const cancel = usePanelForm(confirmName.trim() !== '', props.onCancel);

  async function merge() {
    if (!survivor) return;
    setBusy(true);
    setConfirmError(null);
    setFormError(null);
    try {
      await api.post('/api/get-merge-personnel', { survivor_id: survivor.id, duplicate_ids: dups, confirm_name: confirmName });
      props.onMerged(survivor.name);
    } catch (e) {
      if (e instanceof ApiError && e.fieldErrors.confirm_name) setConfirmError(e.fieldErrors.confirm_name.join(' '));
      else setFormError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="md">
      <AddPerson
        exclude={people.map((p) => p.id)}
        onAdd={(p) => {
          setPeople((list) => [...list, p]);
          setDuplicateIds((ids) => [...ids, p.id]);
          if (survivorId === null) setSurvivorId(p.id);
        }}
      />
      <Radio.Group
        label={MERGE_REQUEST_LABELS.survivor_id}
        description="The record that stays. Its values win; its empty fields are filled from the duplicates."
        value={survivorId === null ? null : String(survivorId)}
        onChange={(v) => {
          setSurvivorId(Number(v));
          setConfirmName('');
        }}
      >
        <Table mt="xs" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{MERGE_REQUEST_LABELS.survivor_id}</Table.Th>
              <Table.Th>{MERGE_REQUEST_LABELS.duplicate_ids}</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Employee code</Table.Th>
              <Table.Th>Email / phone</Table.Th>
              <Table.Th>Locations</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {people.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>
                  <Radio value={String(p.id)} aria-label={`Keep ${p.name} (#${p.id}) as the survivor`} />
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    aria-label={`Merge ${p.name} (#${p.id}) into the survivor`}
                    disabled={p.id === survivorId}
                    checked={p.id !== survivorId && duplicateIds.includes(p.id)}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      setDuplicateIds((ids) => (on ? [...ids, p.id] : ids.filter((x) => x !== p.id)));
                    }}
                  />
                </Table.Td>
                <Table.Td>
                  {p.name}{' '}
                  <Text span c="dimmed" size="xs">
                    #{p.id}
                  </Text>
                </Table.Td>
                <Table.Td>{p.employee_code ?? '—'}</Table.Td>
                <Table.Td>{[p.email, formatPhone(p.phone)].filter(Boolean).join(' · ') || '—'}</Table.Td>
                <Table.Td>{p.location_names.join(', ') || '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Radio.Group>

      {dups.length === 0 ? (
        <Text size="sm" c="dimmed">
          Tick at least one duplicate to see what the merge would do.
        </Text>
      ) : preview.error ? (
        <Alert color="red" variant="light" role="alert" title="This merge is not possible">
          {preview.error instanceof ApiError
            ? [preview.error.message, ...Object.values(preview.error.fieldErrors).flat()].join(' ')
            : String(preview.error)}
        </Alert>
      ) : plan ? (
        <Alert color="blue" variant="light" title="Preview" aria-label="Merge preview">
          <List size="sm" spacing={4}>
            <List.Item>
              Moves to {plan.survivor.name}: {describeMoved(plan.moved_counts)}. Locations after the merge:{' '}
              {plan.location_names.join(', ') || 'none'}.
            </List.Item>
            {plan.filled.map((f) => (
              <List.Item key={f.field}>
                {MERGE_FIELD_LABELS[f.field]} filled with “{f.value}” from {nameOf(f.from_id)}.
              </List.Item>
            ))}
            {plan.conflicts.map((c) => (
              <List.Item key={c.field}>
                <b>Conflict</b> on {MERGE_FIELD_LABELS[c.field]}: keeps “{c.survivor_value}”; differs from{' '}
                {c.others.map((o) => `“${o.value}” (${nameOf(o.id)})`).join(', ')}.
              </List.Item>
            ))}
            <List.Item>
              New aliases: {plan.aliases_added.join(', ') || 'none'} ({plan.aliases_total} in all).
            </List.Item>
            <List.Item>
              {plan.duplicates.map((d) => d.name).join(', ')} will be archived and marked as merged. This cannot be undone.
            </List.Item>
          </List>
        </Alert>
      ) : (
        <Text size="sm" c="dimmed">
          Working out the preview…
        </Text>
      )}

      <TextInput
        label={MERGE_REQUEST_LABELS.confirm_name}
        description={survivor ? `Type: ${survivor.name}` : 'Choose the survivor first'}
        value={confirmName}
        onChange={(e) => {
          setConfirmName(e.currentTarget.value);
          setConfirmError(null);
        }}
        error={confirmError}
        autoComplete="off"
      />
      {formError && (
        <Alert color="red" variant="light" role="alert">
          {formError}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={cancel}>
          Cancel
        </Button>
        <Button
          color="red"
          loading={busy}
          disabled={!survivor || dups.length === 0 || !plan || confirmName.trim() !== survivor.name}
          onClick={() => void merge()}
        >
          Merge
        </Button>
      </Group>
    </Stack>
  );
}
