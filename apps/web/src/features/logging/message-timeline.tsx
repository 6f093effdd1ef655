import { NOTIFICATION_STATUS_LABELS, type NotificationLog, type NotificationLogDetail } from '@admin/shared/resources/notification-logs';
import { Anchor, Group, Text, Timeline } from '@mantine/core';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format.ts';
import { sesBounceLink } from './ses-links.ts';

/** SES Logs narrowed to one SES message id (its Message id filter, packages/shared resources/ses-events.ts). */
export const sesLogsOfMessage = (messageId: string): string => `/admin/ses/logs?message_id=${encodeURIComponent(messageId)}`;

const SOURCE_WORDS = { status: 'Platform', ses: 'Amazon SES', sms: 'SMS provider' } as const;

/**
 * A message's timeline, oldest first: the platform's status changes merged with SES's events and the
 * SMS provider's callbacks (apps/server/src/modules/tracking-logs/timeline.ts), each with what the
 * provider said; then the jumps to SES Logs for this message and to SES Bounce for its address.
 */
export function MessageTimeline({ row, detail }: { row: NotificationLog; detail: NotificationLogDetail }) {
  const entries = detail.timeline;
  const sesMessage = row.channel === 'email' && row.provider_message_id !== null ? row.provider_message_id : null;
  return (
    <>
      <Timeline active={entries.length - 1} bulletSize={14} lineWidth={2} mt="xs" aria-label="Status history">
        {entries.map((e) => (
          <Timeline.Item key={`${e.at} ${e.source} ${e.title} ${e.lines.join(' ')}`} title={e.title}>
            <Text size="xs" c="dimmed">
              {formatDateTime(e.at, row.client_timezone)} · {SOURCE_WORDS[e.source]}
              {e.status !== null && e.source !== 'status' ? ` · ${NOTIFICATION_STATUS_LABELS[e.status]}` : ''}
            </Text>
            {e.lines.map((line) => (
              <Text key={line} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {line}
              </Text>
            ))}
          </Timeline.Item>
        ))}
      </Timeline>
      {(sesMessage !== null || detail.ses_address !== null) && (
        <Group gap="md" mt="xs">
          {sesMessage !== null && (
            <Anchor component={Link} to={sesLogsOfMessage(sesMessage)} size="sm">
              SES events of this message
            </Anchor>
          )}
          {detail.ses_address !== null && (
            <Anchor component={Link} to={sesBounceLink(detail.ses_address)} size="sm">
              This address on SES Bounce
            </Anchor>
          )}
        </Group>
      )}
    </>
  );
}
