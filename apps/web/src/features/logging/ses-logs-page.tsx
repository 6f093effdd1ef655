import { bounceText, type SesEvent, type SesEventDetail, sesEventResource, sesEventTypeText } from '@admin/shared/resources/ses-events';
import { Anchor, Badge, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { DateTimeCell } from '../../components/data-table/cells.tsx';
import { Labelled } from '../../components/field-grid.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { useResourceDetail } from '../../components/resource/use-resource-detail.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { sesBounceLink, trackingLogsLink } from './ses-links.ts';

const TYPE_COLORS: Record<string, string> = {
  Bounce: 'red',
  Complaint: 'red',
  Reject: 'red',
  RenderingFailure: 'orange',
  DeliveryDelay: 'orange',
};

const cells = {
  // An event of no client is shown in UTC, named (as the CSV writes it).
  event_at: (r: SesEvent) => <DateTimeCell value={r.event_at} zone={r.client_timezone ?? 'UTC'} />,
  event_type: (r: SesEvent) => (
    <Badge color={TYPE_COLORS[r.event_type] ?? 'blue'} variant="light">
      {sesEventTypeText(r.event_type)}
    </Badge>
  ),
};

/** One event: its fields, the jumps to its message and its address's bounce record, and the raw JSON. */
function EventDetail({ row }: { row: SesEvent }) {
  const { data: d, states } = useResourceDetail<SesEventDetail>(sesEventResource, row.id, { what: 'SES event' });
  const fields: [string, string][] = [
    ['Event time', formatDateTime(row.event_at, row.client_timezone ?? 'UTC')],
    ['Event type', sesEventTypeText(row.event_type)],
    ['Recipient', row.recipient],
    ['From', row.source],
    ['Subject', row.subject ?? '—'],
    ['Message id', row.message_id],
    ['Configuration set', row.configuration_set ?? '—'],
    ['Bounce type/subtype', bounceText(row.bounce_type, row.bounce_subtype) ?? '—'],
    ['Complaint feedback type', row.complaint_feedback_type ?? '—'],
    ['Diagnostic code / SMTP response', row.diagnostic_code ?? '—'],
    ['Reporting MTA', row.reporting_mta ?? '—'],
    ['Client', row.client_name ?? '—'],
    ['Notification id', row.notification_id === null ? '—' : String(row.notification_id)],
  ];
  return (
    <Stack gap="sm">
      <Group gap="md">
        <Anchor component={Link} to={trackingLogsLink(row.message_id)}>
          Open the notification in Tracking Logs
        </Anchor>
        <Anchor component={Link} to={sesBounceLink(row.recipient)}>
          Open the bounce record in SES Bounce
        </Anchor>
      </Group>
      <SimpleGrid cols={2} spacing="xs">
        {fields.map(([label, value]) => (
          <Labelled key={label} label={label}>
            {/* Long ids and diagnostic codes break rather than run into the next column on a phone. */}
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </Labelled>
        ))}
      </SimpleGrid>
      {states}
      {d && (
        <Labelled label="Raw JSON">
          <Code block aria-label="Raw JSON" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {JSON.stringify(d.raw, null, 2)}
          </Code>
        </Labelled>
      )}
    </Stack>
  );
}

/** The raw Amazon SES event stream, read-only (domain.md §24): every client's events. */
export default function SesLogsPage() {
  return (
    <ResourcePage
      resource={sesEventResource}
      readOnly
      detail={EventDetail}
      title={(r) => `SES event ${r.id}`}
      cells={cells}
      // No current client line: every client's events unless the Clients filter narrows them.
      intro={false}
      empty="No SES events match these filters."
    />
  );
}
