import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../../lib/http.ts';
import { useKeptState } from '../data-table/kept-state.tsx';
import { GuardedModal } from '../discard-guard.tsx';
import { DuplicateMenu } from '../duplicate-menu.tsx';
import type { ResourceList } from '../resource/resource-page.tsx';

/** What every alert rule row has that its actions read. */
type RuleRow = { id: number; name: string; client_name: string | null };

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Duplicate: an active copy "… (copy)" for the rule's own client, with the same recipients (`POST {path}/:id/duplicate`). */
export function DuplicateAlertRuleAction<Row extends RuleRow>({ row, list, path }: { row: Row; list: ResourceList<Row>; path: string }) {
  const duplicate = async () => {
    const { data } = await api.post<{ data: Row }>(`${path}/${row.id}/duplicate`, {});
    notifications.show({ color: 'green', message: `Duplicated as ${data.name}` });
    await list.refresh();
  };
  return <DuplicateMenu name={row.name} items={[{ label: `Copy for ${row.client_name ?? 'its client'}`, onClick: duplicate }]} />;
}

/** What an alert engine's test answers (`POST {path}/:id/test`). */
type TestAnswer = { sent: number; recipients: string[] };

/** How a kind words its test: the button ("Test", "Send test") and its dialog's title and explanation. */
export type TestWording = { button: string; title: (name: string) => string; explanation: string };

/**
 * Test: the kind's alert engine sends the rule's alert to its real recipients, marked as a test;
 * the dialog shows whom it reached, or the server's refusal as it is worded.
 */
export function AlertRuleTestAction({ row, path, wording }: { row: RuleRow; path: string; wording: TestWording }) {
  const [open, setOpen] = useKeptState(`${path}:test:${row.id}`, false);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<TestAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    setAnswer(null);
    try {
      const { data } = await api.post<{ data: TestAnswer }>(`${path}/${row.id}/test`, {});
      setAnswer(data);
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(false);
    }
  };
  const title = wording.title(row.name);
  return (
    <>
      <Button size="compact-xs" variant="subtle" aria-label={title} onClick={() => setOpen(true)}>
        {wording.button}
      </Button>
      <GuardedModal opened={open} onClose={() => setOpen(false)} title={title}>
        <Stack gap="sm">
          <Text size="sm">{wording.explanation}</Text>
          {answer && (
            <Alert color="green" variant="light" role="status" title={`Sent ${answer.sent} test alert${answer.sent === 1 ? '' : 's'}`}>
              {answer.recipients.length > 0 ? answer.recipients.join(', ') : 'No recipient was reachable.'}
            </Alert>
          )}
          {error && (
            <Alert color="red" variant="light" role="alert" title="Not sent">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Close
            </Button>
            <Button loading={busy} onClick={() => void run()}>
              Send test alert
            </Button>
          </Group>
        </Stack>
      </GuardedModal>
    </>
  );
}
