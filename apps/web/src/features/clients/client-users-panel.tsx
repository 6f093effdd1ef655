import {
  CLIENT_USER_ROLE_OPTIONS,
  CLIENT_USER_STATUS_LABELS,
  CLIENT_USERS_PATH,
  type ClientUser,
} from '@admin/shared/resources/client-users';
import { ALERT_CHANNEL_OPTIONS } from '@admin/shared/resources/survey-alert-rules';
import { Badge, Button, Group, Loader, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useKeptState } from '../../components/data-table/kept-state.tsx';
import { api } from '../../lib/http.ts';
import { ClientUserForm } from './client-user-form.tsx';

const labelOf = (options: readonly { value: string; label: string }[], value: string) =>
  options.find((o) => o.value === value)?.label ?? value;

/** One user as a card (the panel is read on phones too): who, how to reach them, and the actions. */
function UserCard({ user, onEdit, onToggled }: { user: ClientUser; onEdit(): void; onToggled(): void }) {
  const active = user.status === 'active';
  async function toggle() {
    try {
      await api.patch(`${CLIENT_USERS_PATH}/${user.id}/status`, { status: active ? 'inactive' : 'active', updated_at: user.updated_at });
      notifications.show({ color: 'green', message: `${active ? 'Deactivated' : 'Reactivated'} ${user.name}` });
      onToggled();
    } catch (e) {
      notifications.show({ color: 'red', message: e instanceof Error ? e.message : String(e) });
    }
  }
  return (
    <Paper withBorder p="sm" aria-label={user.name} component="article">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={2}>
          <Text fw={600}>{user.name}</Text>
          <Text size="sm">{user.email}</Text>
          <Text size="sm">{user.phone ?? 'No mobile phone'}</Text>
          <Text size="sm">
            {labelOf(CLIENT_USER_ROLE_OPTIONS, user.role)} · Alerts by{' '}
            {user.alert_channels.map((c) => labelOf(ALERT_CHANNEL_OPTIONS, c)).join(' and ') || 'no channel'}
          </Text>
        </Stack>
        <Stack gap={4} align="flex-end">
          <Badge color={active ? 'green' : 'gray'} variant="light">
            {CLIENT_USER_STATUS_LABELS[user.status]}
          </Badge>
          <Group gap={4}>
            <Button size="compact-xs" variant="subtle" aria-label={`Edit ${user.name}`} onClick={onEdit}>
              Edit
            </Button>
            <Button
              size="compact-xs"
              variant="subtle"
              aria-label={`${active ? 'Deactivate' : 'Reactivate'} ${user.name}`}
              onClick={() => void toggle()}
            >
              {active ? 'Deactivate' : 'Reactivate'}
            </Button>
          </Group>
        </Stack>
      </Group>
    </Paper>
  );
}

/**
 * Client Manager's Users panel for one client (issue 20, item 2): the people alerts go to, added,
 * edited, deactivated and reactivated, each audited in System Logs. Someone added joins the
 * client's rules that list Default for New User (docs/decisions/044-client-users.md).
 */
function ClientUsers({ clientId, clientName }: { clientId: number; clientName: string }) {
  const queryClient = useQueryClient();
  const key = ['client-users', clientId];
  const users = useQuery({
    queryKey: key,
    queryFn: () => api.get<{ data: ClientUser[] }>(CLIENT_USERS_PATH, { query: { client: String(clientId) } }),
  });
  const [editing, setEditing] = useState<ClientUser | 'new' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  if (editing !== null) {
    return (
      <Stack gap="sm">
        <Title order={3} size="h5">
          {editing === 'new' ? `Add a user to ${clientName}` : `Edit ${editing.name}`}
        </Title>
        <ClientUserForm
          clientId={clientId}
          user={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onSaved={(saved) => {
            notifications.show({ color: 'green', message: editing === 'new' ? `Added ${saved.name}` : `Saved ${saved.name}` });
            setEditing(null);
            void refresh();
          }}
        />
      </Stack>
    );
  }
  const list = users.data?.data ?? [];
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {list.length} user{list.length === 1 ? '' : 's'}; they receive survey alerts and cannot sign in here.
        </Text>
        <Button size="compact-sm" onClick={() => setEditing('new')}>
          Add user
        </Button>
      </Group>
      {users.isLoading && <Loader size="sm" aria-label="Loading users" />}
      {users.error && <Text c="red">{users.error.message}</Text>}
      {list.map((u) => (
        <UserCard key={u.id} user={u} onEdit={() => setEditing(u)} onToggled={() => void refresh()} />
      ))}
    </Stack>
  );
}

/** The row action that opens a client's Users panel. */
export function ClientUsersAction({ row }: { row: { id: number; name: string } }) {
  const [open, setOpen] = useKeptState(`client-users:${row.id}`, false);
  return (
    <>
      <Button size="compact-xs" variant="subtle" aria-label={`Users of ${row.name}`} onClick={() => setOpen(true)}>
        Users
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Users of ${row.name}`} size="lg">
        {open && <ClientUsers clientId={row.id} clientName={row.name} />}
      </Modal>
    </>
  );
}
