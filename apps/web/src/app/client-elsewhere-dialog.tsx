import { Button, Group, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { onSwitchElsewhere } from '../lib/client-sync.ts';
import { setClientMismatchHandler } from '../lib/http.ts';
import { useSession } from '../lib/session-store.ts';

/**
 * Says so when another tab or window switched the user's current client away from the one this
 * tab shows (its announcement on the tabs' channel, or a call refused with 409), and asks which
 * client to go on with: until then the server refuses this tab's calls, so nothing is saved under
 * a client the tab does not show (issue 19, item 1). A dialog rather than a banner: it must reach
 * the user over an open drawer too, whose half-filled form is kept for after the choice.
 */
export function ClientElsewhereDialog() {
  const elsewhere = useSession((s) => s.elsewhereClient);
  const shown = useSession((s) => s.currentClient);
  const showElsewhereClient = useSession((s) => s.showElsewhereClient);
  const switchClient = useSession((s) => s.switchClient);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<'here' | 'back' | null>(null);

  useEffect(() => {
    const notice = (clientId: number, clientName?: string) => void useSession.getState().noticeSwitch(clientId, clientName);
    const stop = onSwitchElsewhere((m) => {
      if (m.userId === useSession.getState().user?.id) notice(m.clientId, m.clientName);
    });
    setClientMismatchHandler((clientId) => notice(clientId));
    return () => {
      stop();
      setClientMismatchHandler(null);
    };
  }, []);

  const shownName = shown?.name ?? 'no client';

  async function choose(which: 'here' | 'back', name: string) {
    setBusy(which);
    try {
      if (which === 'here') await showElsewhereClient();
      else if (shown) await switchClient(shown.id);
      await queryClient.invalidateQueries();
      notifications.show({ color: 'green', message: `This tab shows ${name}` });
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not change client', message: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(null);
    }
  }

  return (
    <Modal
      opened={elsewhere !== null}
      onClose={() => undefined}
      title="Client changed in another tab"
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      // Above a drawer or dialog already open in this tab.
      zIndex={400}
      centered
    >
      {elsewhere && (
        <>
          <Text size="sm">
            Your current client is now <strong>{elsewhere.name}</strong> (switched in another tab or window), but this tab shows{' '}
            <strong>{shownName}</strong>. Nothing is loaded or saved here until you choose; a form you were filling in stays as it is.
          </Text>
          <Group gap="sm" mt="md" justify="flex-end">
            {shown && (
              <Button variant="default" loading={busy === 'back'} disabled={busy !== null} onClick={() => void choose('back', shownName)}>
                Switch back to {shownName}
              </Button>
            )}
            <Button loading={busy === 'here'} disabled={busy !== null} onClick={() => void choose('here', elsewhere.name)}>
              Show {elsewhere.name} here
            </Button>
          </Group>
        </>
      )}
    </Modal>
  );
}
