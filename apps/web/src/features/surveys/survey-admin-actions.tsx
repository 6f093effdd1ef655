import {
  SURVEY_SETTINGS_DEFAULTS as D,
  type DnsRecord,
  type DomainCheck,
  SURVEY_TEST_EMAIL_LABELS,
  type SurveySettings,
  surveySettingsResource,
  surveyTestEmailSchema,
} from '@admin/shared/resources/survey-settings';
import { Alert, Button, CopyButton, Group, Menu, Modal, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useKeptState } from '../../components/data-table/kept-state.tsx';
import { GuardedModal } from '../../components/discard-guard.tsx';
import { RowMenu } from '../../components/row-menu.tsx';
import { SendTestForm } from '../../components/send-test-dialog.tsx';
import { TableHead } from '../../components/table-head.tsx';
import { ApiError, api } from '../../lib/http.ts';
import { TestEmailIntro } from './survey-admin-test-email.tsx';

const path = surveySettingsResource.path;
const message = (e: unknown, field?: string) =>
  e instanceof ApiError ? ((field ? e.fieldErrors[field]?.[0] : undefined) ?? e.message) : String(e);

function RecordRow({ record }: { record: DnsRecord }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={600}>
          {record.purpose}
        </Text>
        <Text size="xs" c="dimmed">
          {record.type}
        </Text>
      </Table.Td>
      {(['name', 'value'] as const).map((part) => (
        <Table.Td key={part} style={{ wordBreak: 'break-all' }}>
          <Group gap={4} wrap="nowrap" align="flex-start">
            <Text size="xs" ff="monospace" style={{ flex: 1 }}>
              {record[part]}
            </Text>
            <CopyButton value={record[part]}>
              {({ copied, copy }) => (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  style={{ flexShrink: 0 }}
                  onClick={copy}
                  aria-label={`Copy ${record.purpose} ${part} ${record[part]}`}
                >
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Table.Td>
      ))}
      <Table.Td>
        <Text size="sm" fw={600} c={record.found ? 'green' : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
          {record.found ? 'Found' : 'Not found'}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** Verify sender domain: the records to add at the DNS host, each with what the last lookup found. */
function VerifyDomainPanel({ row, onClose, onChecked }: { row: SurveySettings; onClose(): void; onChecked(): void }) {
  const [check, setCheck] = useState<DomainCheck | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const { data } = await api.post<{ data: DomainCheck }>(`${path}/${row.id}/verify-domain`, {});
      setCheck(data);
      onChecked();
    } catch (e) {
      setError(message(e, 'sending_domain'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="sm">
      {!row.sending_domain ? (
        <Alert color="orange" variant="light" role="note">
          {row.client_name} has no sending domain yet: set one in Edit settings, then verify it here.
        </Alert>
      ) : (
        <Text size="sm">
          Add these records at the DNS host of <b>{row.sending_domain}</b>, then check them. E-mail is sent from this domain once all are
          found.
        </Text>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      {check && (
        <>
          <Alert color={check.verified ? 'green' : 'orange'} variant="light" role="status">
            {check.verified
              ? `${check.domain} is verified: every record was found.`
              : `${check.records.filter((r) => !r.found).length} of ${check.records.length} records not found yet. DNS changes can take a while to appear.`}
          </Alert>
          <Table.ScrollContainer minWidth={560}>
            <Table striped aria-label="DNS records to add">
              <TableHead labels={['Record', 'Name', 'Value', 'Checked']} />
              <Table.Tbody>
                {check.records.map((r) => (
                  <RecordRow key={`${r.purpose}-${r.name}`} record={r} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        {row.sending_domain && (
          <Button onClick={() => void run()} loading={busy}>
            {check ? 'Check again' : 'Show records and check DNS'}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/** Send test email: asks for the address; the result is a row in Tracking Logs. */
function TestEmailForm({ row, onClose }: { row: SurveySettings; onClose(): void }) {
  return (
    <SendTestForm<{ to: string }, { status: string; error: string | null }>
      what={`Test e-mail of ${row.client_name}`}
      path={`${path}/${row.id}/test-email`}
      field={{ key: 'to', label: SURVEY_TEST_EMAIL_LABELS.to, placeholder: 'e.g. owner@example.com' }}
      schema={surveyTestEmailSchema}
      normalize={(typed) => typed.trim()}
      intro={<TestEmailIntro row={row} />}
      submitLabel="Send test email"
      onClose={onClose}
    />
  );
}

/** A row's actions beyond Edit settings: Verify sender domain, Send test email, Reset to platform defaults. */
export function SurveyAdminActions({ row, refresh }: { row: SurveySettings; refresh(): Promise<unknown> }) {
  const [open, setOpen] = useKeptState<'verify' | 'test' | 'reset' | null>(`survey-admin:${row.id}`, null);
  const [busy, setBusy] = useState(false);
  const close = () => setOpen(null);
  const reset = async () => {
    setBusy(true);
    try {
      await api.post(`${path}/${row.id}/reset`, { updated_at: row.updated_at });
      notifications.show({ color: 'green', message: `${row.client_name} uses the platform defaults again` });
    } catch (e) {
      notifications.show({ color: 'red', message: message(e) });
    } finally {
      setBusy(false);
      close();
    }
    await refresh();
  };
  return (
    <>
      <RowMenu label="More" name={`More actions for ${row.client_name}`}>
        <Menu.Item onClick={() => setOpen('verify')}>Verify sender domain</Menu.Item>
        <Menu.Item onClick={() => setOpen('test')}>Send test email</Menu.Item>
        <Menu.Item color="red" disabled={!row.customized} onClick={() => setOpen('reset')}>
          Reset to platform defaults
        </Menu.Item>
      </RowMenu>
      <Modal opened={open === 'verify'} onClose={close} size="xl" title={`Verify sender domain of ${row.client_name}`}>
        {open === 'verify' && <VerifyDomainPanel row={row} onClose={close} onChecked={() => void refresh()} />}
      </Modal>
      <Modal opened={open === 'reset'} onClose={close} title={`Reset ${row.client_name} to platform defaults?`}>
        <Stack gap="sm">
          <Text size="sm">
            Every survey setting of {row.client_name} goes back to the platform defaults (quiet hours {D.quiet_hours_start}–
            {D.quiet_hours_end}, {D.send_days.join(', ')}, {D.daily_cap_per_location} a day per location, {D.over_survey_days} over-survey
            days); its sender, domain, branding and SMS settings are cleared.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" loading={busy} onClick={() => void reset()}>
              Reset to platform defaults
            </Button>
          </Group>
        </Stack>
      </Modal>
      <GuardedModal opened={open === 'test'} onClose={close} title={`Send test email for ${row.client_name}`}>
        {open === 'test' && <TestEmailForm row={row} onClose={close} />}
      </GuardedModal>
    </>
  );
}
