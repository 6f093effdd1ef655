import { type ReviewAlertRule, reviewAlertRuleResource } from '@admin/shared/resources/review-alert-rules';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useKeptState } from '../../components/data-table/kept-state.tsx';
import { GuardedModal } from '../../components/discard-guard.tsx';
import { DuplicateMenu } from '../../components/duplicate-menu.tsx';
import type { ResourceList } from '../../components/resource/resource-page.tsx';
import { api } from '../../lib/http.ts';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Duplicate: an active copy "… (copy)" for the rule's own client, with the same recipients. */
export function DuplicateReviewRuleAction({ row, list }: { row: ReviewAlertRule; list: ResourceList<ReviewAlertRule> }) {
  const duplicate = async () => {
    const { data } = await api.post<{ data: ReviewAlertRule }>(`${reviewAlertRuleResource.path}/${row.id}/duplicate`, {});
    notifications.show({ color: 'green', message: `Duplicated as ${data.name}` });
    await list.refresh();
  };
  return <DuplicateMenu name={row.name} items={[{ label: `Copy for ${row.client_name ?? 'its client'}`, onClick: duplicate }]} />;
}

type TestAnswer = { sent: number; recipients: string[] };

/** Send test: the rule's alert now to its real recipients, marked "[Test]"; the dialog says whom it reached. */
export function SendTestAction({ row }: { row: ReviewAlertRule }) {
  const [open, setOpen] = useKeptState(`review-alert-test:${row.id}`, false);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<TestAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    setAnswer(null);
    try {
      const { data } = await api.post<{ data: TestAnswer }>(`${reviewAlertRuleResource.path}/${row.id}/test`, {});
      setAnswer(data);
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="compact-xs" variant="subtle" aria-label={`Send test of ${row.name}`} onClick={() => setOpen(true)}>
        Send test
      </Button>
      <GuardedModal opened={open} onClose={() => setOpen(false)} title={`Send test of ${row.name}`}>
        <Stack gap="sm">
          <Text size="sm">The rule’s alert goes now to its real recipients, about the newest review it matches, marked as a test.</Text>
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
