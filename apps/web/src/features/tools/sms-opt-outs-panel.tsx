import { type SmsOptOut, smsOptOutResource, smsOptOutSourceLabel } from '@admin/shared';
import { Badge, Text } from '@mantine/core';
import { DateTimeCell } from '../../components/data-table/cells.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';

// A phone spans clients: its time is shown in UTC, named (as the CSV writes it).
const UTC = 'UTC';

const cells = {
  created_at: (r: SmsOptOut) => <DateTimeCell value={r.created_at} zone={UTC} />,
  source: (r: SmsOptOut) => smsOptOutSourceLabel(r.source),
  client_name: (r: SmsOptOut) =>
    r.client_name === null ? (
      <Badge variant="light" color="grape">
        All clients
      </Badge>
    ) : (
      r.client_name
    ),
};

/**
 * SMS Text's opted-out phones: who answered STOP (every client) or used a survey's unsubscribe
 * link (that client). The sender skips them; a START reply takes a phone off the list.
 */
export function SmsOptOutsPanel() {
  return (
    <ResourcePage
      resource={smsOptOutResource}
      readOnly
      title={(r) => `phone ${r.phone}`}
      cells={cells}
      intro={
        <Text size="sm" c="dimmed">
          Texts are never sent to these phones. A phone that replies START, YES or UNSTOP is taken off the list.
        </Text>
      }
    />
  );
}
