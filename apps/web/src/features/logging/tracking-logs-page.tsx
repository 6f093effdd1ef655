import {
  messageTypeText,
  NOTIFICATION_CHANNEL_LABELS,
  NOTIFICATION_STATUS_LABELS,
  type NotificationLog,
  type NotificationLogDetail,
  type NotificationStatus,
  notificationLogResource,
  relatedOf,
} from '@admin/shared/resources/notification-logs';
import { resendRefusal } from '@admin/shared/surveys/preview';
import { Alert, Badge, Button, Code, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DateTimeCell } from '../../components/data-table/cells.tsx';
import { Labelled } from '../../components/field-grid.tsx';
import { MessageFrame } from '../../components/message-frame.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { useResourceDetail } from '../../components/resource/use-resource-detail.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { api } from '../../lib/http.ts';
import { MessageTimeline } from './message-timeline.tsx';

/** `812 bytes`, `14.2 KB`: an attachment's size as a person reads it. */
const formatBytes = (n: number) => (n < 1024 ? `${n} bytes` : `${(n / 1024).toFixed(1)} KB`);

const STATUS_COLORS: Record<NotificationStatus, string> = {
  queued: 'gray',
  sent: 'blue',
  delivered: 'teal',
  opened: 'green',
  clicked: 'green',
  bounced: 'red',
  complained: 'red',
  failed: 'red',
  undelivered: 'orange',
  suppressed: 'yellow',
};

function DeliveryBadge({ status }: { status: NotificationStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {NOTIFICATION_STATUS_LABELS[status]}
    </Badge>
  );
}

const cells = {
  created_at: (r: NotificationLog) => <DateTimeCell value={r.created_at} zone={r.client_timezone} />,
  status: (r: NotificationLog) => <DeliveryBadge status={r.delivery_status} />,
};

/**
 * Resend (failed or undelivered survey invitations and reminders only): the same rendered message
 * again, through the sender's checks; the answer is the new row, shown here with its outcome.
 */
function ResendButton({ row }: { row: NotificationLog }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  async function resend() {
    setBusy(true);
    try {
      const { data } = await api.post<{ data: NotificationLogDetail }>(`${notificationLogResource.path}/${row.id}/resend`, {});
      setOutcome(
        data.delivery_status === 'sent'
          ? { ok: true, message: `Resent as message ${data.id}.` }
          : { ok: false, message: `Not sent (${data.delivery_status}): ${data.error ?? ''} — message ${data.id}.` },
      );
      await queryClient.invalidateQueries({ queryKey: [notificationLogResource.screen] });
    } catch (e) {
      setOutcome({ ok: false, message: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Stack gap="xs" align="flex-start">
      <Button size="xs" loading={busy} onClick={() => void resend()} disabled={outcome?.ok === true}>
        Resend
      </Button>
      {outcome && (
        <Alert role="status" variant="light" color={outcome.ok ? 'green' : 'orange'} p="xs">
          {outcome.message}
        </Alert>
      )}
    </Stack>
  );
}

/** One message: its fields, the rendered body and the event timeline from `GET /api/notifications-logs/{id}`. */
function MessageDetail({ row }: { row: NotificationLog }) {
  const { data: d, states } = useResourceDetail<NotificationLogDetail>(notificationLogResource, row.id);
  const fields: [string, string][] = [
    ['Time', formatDateTime(row.created_at, row.client_timezone)],
    ['Channel', NOTIFICATION_CHANNEL_LABELS[row.channel]],
    ['Type', messageTypeText(row)],
    ['Recipient', row.recipient],
    ['Client', row.client_name ?? '—'],
    ['Location', row.location_name ?? '—'],
    ['Provider message id', row.provider_message_id ?? '—'],
    ['Related', relatedOf(row) ?? '—'],
  ];
  return (
    <Stack gap="sm">
      <SimpleGrid cols={2} spacing="xs">
        {fields.map(([label, value]) => (
          <Labelled key={label} label={label}>
            {/* Long ids break rather than run into the next column on a phone. */}
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </Labelled>
        ))}
      </SimpleGrid>
      <Labelled label="Status">
        <DeliveryBadge status={row.delivery_status} />
      </Labelled>
      {row.error && (
        <Labelled label="Error">
          <Text size="sm" c="red" style={{ overflowWrap: 'anywhere' }}>
            {row.error}
          </Text>
        </Labelled>
      )}
      {resendRefusal(row) === null && <ResendButton row={row} />}
      <Labelled label={row.channel === 'email' ? 'Subject' : 'Template'}>
        <Text size="sm">{row.subject_or_template}</Text>
      </Labelled>
      {states}
      {d && (
        <>
          {d.body_html !== null && (
            <Labelled label="Rendered e-mail">
              <MessageFrame title="Rendered message" html={d.body_html} height={360} />
            </Labelled>
          )}
          {d.body_text !== null && (
            <Labelled label={d.body_html !== null ? 'Text version' : 'Message'}>
              <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {d.body_text}
              </Code>
            </Labelled>
          )}
          {d.attachments && d.attachments.length > 0 && (
            <Labelled label="Attachments">
              {d.attachments.map((a) => (
                <Text key={a.filename} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {a.filename} ({a.content_type.split(';')[0]}, {formatBytes(a.size_bytes)})
                </Text>
              ))}
            </Labelled>
          )}
          <Labelled label="Status history">
            <MessageTimeline row={row} detail={d} />
          </Labelled>
        </>
      )}
    </Stack>
  );
}

/**
 * Every outbound message, read-only (docs/screens.md, Tracking Logs): every client's, recipients
 * masked; Resend for a failed survey invitation or reminder.
 */
export default function TrackingLogsPage() {
  return (
    <ResourcePage
      resource={notificationLogResource}
      readOnly
      detail={MessageDetail}
      title={(r) => `message ${r.id}`}
      cells={cells}
      // No current client line: the screen shows every client's messages unless the Clients filter narrows them.
      intro={false}
      empty="No messages match these filters."
    />
  );
}
