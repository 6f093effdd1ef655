import {
  SURVEY_DUPLICATE_LABELS,
  SURVEY_TEST_LABELS,
  type Survey,
  type SurveyTestResult,
  surveyResource,
  surveyTestSchema,
} from '@admin/shared/resources/surveys';
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useKeptState } from '../../components/data-table/kept-state.tsx';
import { GuardedModal, useGuardedClose } from '../../components/discard-guard.tsx';
import { DuplicateMenu } from '../../components/duplicate-menu.tsx';
import { RemoteSelect } from '../../components/filters/remote-select.tsx';
import type { ResourceList } from '../../components/resource/resource-page.tsx';
import { SendTestDialog } from '../../components/send-test-dialog.tsx';
import { compactPhone } from '../../lib/format.ts';
import { api } from '../../lib/http.ts';

const CLIENT_OPTIONS_PATH = '/api/endpoints/client-options';
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A survey's Send test takes an e-mail address, or a phone (typed grouped as the hint shows; sent compact). */
const recipientOf = (typed: string) => {
  const to = typed.trim();
  return to.startsWith('+') || /^[\d\s().-]+$/.test(to) ? String(compactPhone(to)) : to;
};

/**
 * Send test: a real invitation (its own link, valid for the survey's link expiry) to one e-mail
 * address or phone, with sample values, through the same checks and transport as every message.
 * The link is shown, so it can be opened right away.
 */
export function SendTestAction({ row }: { row: Survey }) {
  return (
    <SendTestDialog<{ to: string }, SurveyTestResult>
      name={row.name}
      path={`${surveyResource.path}/${row.id}/send-test`}
      field={{
        key: 'to',
        label: SURVEY_TEST_LABELS.to,
        description: 'An email address or a phone in international format',
        placeholder: 'e.g. pat@example.com or +1 303 555 0142',
      }}
      schema={surveyTestSchema}
      normalize={recipientOf}
      intro="The invitation goes out with sample values (Alex, the survey’s first location) and a real link."
      // A refusal is named by the message's status, as its row in Tracking Logs names it.
      result={(result) => (
        <Alert
          color={result.status === 'sent' ? 'green' : 'orange'}
          variant="light"
          role="status"
          title={result.status === 'sent' ? 'Test sent' : `Not sent (${result.notification_status})`}
        >
          <Stack gap={4}>
            {result.error && <Text size="sm">{result.error}</Text>}
            <Text size="sm">
              Survey link:{' '}
              <Anchor href={result.link} target="_blank" rel="noreferrer" style={{ wordBreak: 'break-all' }}>
                {result.link}
              </Anchor>
            </Text>
            <Text size="xs" c="dimmed">
              Valid until {new Date(result.expires_at).toLocaleDateString()}
            </Text>
          </Stack>
        </Alert>
      )}
    />
  );
}

/** Copy to another client: the client picked (the survey's own left out); with one picked, closing asks first. */
function CopyToClientForm({ row, onCopy, onCancel }: { row: Survey; onCopy(client: number): void; onCancel(): void }) {
  const [clientId, setClientId] = useState<string | null>(null);
  const cancel = useGuardedClose(clientId !== null, onCancel);
  return (
    <Stack gap="sm">
      <RemoteSelect
        label={SURVEY_DUPLICATE_LABELS.client_id}
        path={CLIENT_OPTIONS_PATH}
        value={clientId}
        onChange={setClientId}
        exclude={(value) => value === String(row.client_id)}
      />
      <Text size="xs" c="dimmed">
        The copy keeps the questions, messages and rules; it is paused until its locations are chosen there.
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={cancel}>
          Cancel
        </Button>
        <Button disabled={clientId === null} onClick={() => onCopy(Number(clientId))}>
          Copy
        </Button>
      </Group>
    </Stack>
  );
}

/** Duplicate: for the survey's own client (same locations), or for another client (paused, locations to choose there). */
export function DuplicateAction({ row, list }: { row: Survey; list: ResourceList<Survey> }) {
  const [picking, setPicking] = useKeptState(`duplicate:${row.id}`, false);
  const duplicate = async (client?: number) => {
    try {
      const { data } = await api.post<{ data: Survey }>(
        `${surveyResource.path}/${row.id}/duplicate`,
        client === undefined ? {} : { client_id: client },
      );
      notifications.show({
        color: 'green',
        message:
          client === undefined
            ? `Duplicated as ${data.name}`
            : `Duplicated as ${data.name} for ${data.client_name ?? 'the client'} (paused until its locations are chosen)`,
      });
      setPicking(false);
      await list.refresh();
    } catch (e) {
      notifications.show({ color: 'red', message: message(e) });
    }
  };
  return (
    <>
      <DuplicateMenu
        name={row.name}
        items={[
          { label: `Copy for ${row.client_name ?? 'its client'}`, onClick: () => duplicate() },
          { label: 'Copy to another client…', onClick: () => setPicking(true) },
        ]}
      />
      <GuardedModal opened={picking} onClose={() => setPicking(false)} title={`Copy ${row.name} to another client`}>
        {/* Mounted only while the dialog is open, so the clients are asked for when needed and the pick starts empty. */}
        {picking && <CopyToClientForm row={row} onCopy={(client) => void duplicate(client)} onCancel={() => setPicking(false)} />}
      </GuardedModal>
    </>
  );
}
