import { type ClientListItem, clientResource, MODULE_LABELS } from '@admin/shared/resources/clients';
import { Alert, Badge, Button, Group, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { EmptyCell } from '../../components/data-table/cells.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { useSession } from '../../lib/session-store.ts';
import { ClientForm } from './client-form.tsx';
import { ClientUsersAction } from './client-users-panel.tsx';

/** The client's own screens, opened after switching to the client. */
const CLIENT_SCREENS = [
  { label: 'Locations', path: '/admin/location' },
  { label: 'Personnel', path: '/admin/personnel' },
  { label: 'Surveys', path: '/admin/surveys' },
] as const;

/**
 * Switch and Open, after the status actions. Every row has both slots, so the buttons line up down
 * the column; a slot that does not apply keeps its place (the current client says so in its slot).
 */
function SwitchActions({ row, onSwitch }: { row: ClientListItem; onSwitch(): void }) {
  const currentClient = useSession((s) => s.currentClient);
  const switchClient = useSession((s) => s.switchClient);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const isCurrent = currentClient?.id === row.id;
  const archived = row.status === 'inactive';

  async function switchTo(then?: string) {
    onSwitch();
    try {
      if (!isCurrent) {
        await switchClient(row.id);
        await queryClient.invalidateQueries();
        notifications.show({ color: 'green', message: `Switched to ${row.name}` });
      }
      if (then) await navigate(then);
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not switch client', message: err instanceof Error ? err.message : String(err) });
    }
  }

  return (
    <>
      <span className="row-action-slot row-action-slot-switch">
        {isCurrent ? (
          <Text span size="xs" c="dimmed" fw={500}>
            Current
          </Text>
        ) : (
          !archived && (
            <Button size="compact-xs" variant="subtle" aria-label={`Switch to ${row.name}`} onClick={() => void switchTo()}>
              Switch
            </Button>
          )
        )}
      </span>
      <span className="row-action-slot row-action-slot-open">
        {!archived && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button size="compact-xs" variant="subtle" aria-label={`Open ${row.name}'s screens`}>
                Open ▾
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {CLIENT_SCREENS.map((screen) => (
                <Menu.Item key={screen.path} onClick={() => void switchTo(screen.path)}>
                  {screen.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </span>
    </>
  );
}

/** Client Manager (landing page): find, create, edit, pause, archive and switch to clients. */
export default function ClientManagerPage() {
  // The answer to one create, until the next change made here (or leaving the page).
  const [created, setCreated] = useState<string | null>(null);
  const currentClient = useSession((s) => s.currentClient);
  const loadRootTeams = useSession((s) => s.loadRootTeams);

  return (
    <ResourcePage
      resource={clientResource}
      form={ClientForm}
      panelSize="lg"
      intro={
        created !== null && (
          <Alert color="green" variant="light" withCloseButton onClose={() => setCreated(null)} role="status">
            {created}
          </Alert>
        )
      }
      savedMessage={(row, isNew) => (isNew ? null : `Saved ${row.name}`)}
      onChanged={(row, change) => {
        setCreated(change === 'create' ? `Client "${row.name}" was created with its root team.` : null);
        // The client switcher lists the root teams of clients that are not archived.
        void loadRootTeams();
      }}
      cells={{
        name: (r) => (
          <>
            {r.name}
            {currentClient?.id === r.id && (
              <Badge ml={6} size="xs" color="blue" variant="light">
                current
              </Badge>
            )}
          </>
        ),
        modules: (r) =>
          r.modules.length > 0 ? (
            <Group gap={4}>
              {r.modules.map((m) => (
                <Badge key={m} size="xs" variant="outline">
                  {MODULE_LABELS[m]}
                </Badge>
              ))}
            </Group>
          ) : (
            <EmptyCell />
          ),
      }}
      rowActions={(r) => (
        <>
          <SwitchActions row={r} onSwitch={() => setCreated(null)} />
          <ClientUsersAction row={r} />
        </>
      )}
    />
  );
}
