import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { SearchableSelect } from '../components/filters/searchable-select.tsx';
import { useSession } from '../lib/session-store.ts';

/** The navigation bar's client switcher: `PUT /api/users/switch-client/{id}`, then reloads. */
export function ClientSwitcher() {
  const rootTeams = useSession((s) => s.rootTeams);
  const state = useSession((s) => s.rootTeamsState);
  const currentClient = useSession((s) => s.currentClient);
  const switchClient = useSession((s) => s.switchClient);
  const reload = useSession((s) => s.loadRootTeams);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  if (state === 'error') {
    return (
      <Group gap={6} wrap="nowrap">
        <Text size="sm" c="red">
          Clients failed to load
        </Text>
        <Button size="compact-sm" variant="light" onClick={() => void reload()}>
          Retry
        </Button>
      </Group>
    );
  }

  const data = rootTeams.map((t) => ({ value: String(t.clientId), label: t.clientName }));
  // The current client may be paused and so missing from the list; still show it.
  if (currentClient && !data.some((d) => d.value === String(currentClient.id))) {
    data.unshift({ value: String(currentClient.id), label: currentClient.name });
  }

  return (
    <SearchableSelect
      aria-label="Current client"
      placeholder={state === 'loading' ? 'Loading clients…' : 'Choose a client'}
      data={data}
      value={currentClient ? String(currentClient.id) : null}
      nothingFoundMessage="No client matches"
      allowDeselect={false}
      disabled={busy || state === 'loading'}
      // Narrower on phones so the brand and the burger keep their room.
      w={{ base: 180, sm: 240 }}
      comboboxProps={{ withinPortal: true }}
      onChange={async (value) => {
        if (!value || value === String(currentClient?.id)) return;
        setBusy(true);
        try {
          await switchClient(Number(value));
          // Every client-scoped screen refetches for the new client.
          await queryClient.invalidateQueries();
          notifications.show({ color: 'green', message: `Switched to ${data.find((d) => d.value === value)?.label ?? 'client'}` });
        } catch (err) {
          console.error('Failed to switch client', err);
          notifications.show({ color: 'red', title: 'Could not switch client', message: err instanceof Error ? err.message : String(err) });
        } finally {
          setBusy(false);
        }
      }}
    />
  );
}
