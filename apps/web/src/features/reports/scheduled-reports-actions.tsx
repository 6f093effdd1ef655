import { type ReportSchedule, reportScheduleResource } from '@admin/shared';
import { Button, Group, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { ResourceList } from '../../components/resource/resource-page.tsx';
import { ApiError, api, request } from '../../lib/http.ts';

type Sent = { schedule: ReportSchedule; run: { id: number; status: 'sent' | 'failed'; error: string | null; period: string } };
const what = (row: ReportSchedule) => `${row.recipients.length} ${row.recipients.length === 1 ? 'recipient' : 'recipients'}`;

/**
 * **Send now**: the last complete period at once, after a confirmation. A period already sent is
 * sent again only when the person confirms a second time (the server's 409 says so).
 */
export function SendNowAction({ row, list }: { row: ReportSchedule; list: ResourceList<ReportSchedule> }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [already, setAlready] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setOpen(false);
    setAlready(null);
    setError(null);
  };
  const sendNow = async (force: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const { data } = await api.post<{ data: Sent }>(`${reportScheduleResource.path}/${row.id}/send`, force ? { force } : {});
      close();
      notifications.show(
        data.run.status === 'sent'
          ? { color: 'green', message: `Sent ${row.name} (${data.run.period}) to ${what(row)}.` }
          : { color: 'red', title: `${row.name} was not sent to everyone`, message: data.run.error ?? 'Unknown error' },
      );
      await list.refresh();
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && !force) setAlready(e.message);
      else setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="compact-xs" variant="subtle" aria-label={`Send now ${row.name}`} onClick={() => setOpen(true)}>
        Send now
      </Button>
      <Modal opened={open} onClose={close} title={`Send ${row.name} now?`} centered>
        <Text size="sm">{already ?? `The report for the last complete period goes to ${what(row)}: ${row.recipients.join(', ')}.`}</Text>
        {error && (
          <Text size="sm" c="red" mt="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button loading={busy} onClick={() => void sendNow(already !== null)}>
            {already ? 'Send again' : 'Send now'}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

/** **Delete**, after a confirmation: the schedule and its runs go; the e-mails sent stay in Tracking Logs. */
export function DeleteScheduleAction({ row, list }: { row: ReportSchedule; list: ResourceList<ReportSchedule> }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await request('DELETE', `${reportScheduleResource.path}/${row.id}`);
      setOpen(false);
      notifications.show({ color: 'green', message: `Deleted ${row.name}.` });
      await list.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="compact-xs" variant="subtle" color="red" aria-label={`Delete ${row.name}`} onClick={() => setOpen(true)}>
        Delete
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Delete ${row.name}?`} centered>
        <Text size="sm">Nothing more is sent. The e-mails already sent stay in Tracking Logs.</Text>
        {error && (
          <Text size="sm" c="red" mt="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button color="red" loading={busy} onClick={() => void remove()}>
            Delete
          </Button>
        </Group>
      </Modal>
    </>
  );
}
