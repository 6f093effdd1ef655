import { messageKindText } from '@admin/shared/resources/notification-logs';
import { sourceText } from '@admin/shared/resources/survey-manager-logs';
import {
  PROCESSING_CHANNEL_LABELS,
  PROCESSING_STATUS_LABELS,
  type ProcessingItem,
  type ProcessingItemDetail,
  processingItemResource,
} from '@admin/shared/resources/survey-processing';
import type { ProcessingItemStatus } from '@admin/shared/resources/surveys';
import { Badge, Code, Group, Stack, Table, Text, Timeline } from '@mantine/core';
import { DateTimeCell } from '../../components/data-table/cells.tsx';
import { FieldGrid } from '../../components/field-grid.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { useResourceDetail } from '../../components/resource/use-resource-detail.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { ItemActions } from './survey-processing-actions.tsx';
import { RetryFiltered } from './survey-processing-retry.tsx';

const STATUS_COLORS: Record<ProcessingItemStatus, string> = {
  queued: 'gray',
  scheduled: 'blue',
  sent: 'cyan',
  delivered: 'teal',
  opened: 'green',
  responded: 'green',
  reminded: 'cyan',
  expired: 'gray',
  skipped_duplicate: 'yellow',
  skipped_over_survey: 'yellow',
  skipped_opt_out: 'yellow',
  skipped_suppressed: 'yellow',
  skipped_paused: 'yellow',
  skipped_manual: 'gray',
  invalid_contact: 'orange',
  failed: 'red',
};

function StatusBadge({ status }: { status: ProcessingItemStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {PROCESSING_STATUS_LABELS[status]}
    </Badge>
  );
}

// Times in the client's zone, named, with the viewer's own on hover (issue 19, item 10).
const at = (v: string | null, r: ProcessingItem) => (v === null ? null : <DateTimeCell value={v} zone={r.client_timezone} />);
const cells = {
  created_at: (r: ProcessingItem) => at(r.created_at, r),
  scheduled_at: (r: ProcessingItem) => at(r.scheduled_at, r),
  sent_at: (r: ProcessingItem) => at(r.sent_at, r),
  status: (r: ProcessingItem) => <StatusBadge status={r.item_status} />,
  // One line (the kit's cells do not wrap): the name, then the masked contact.
  customer: (r: ProcessingItem) => (
    <span>
      {r.customer}{' '}
      {r.source === 'manual_test' && (
        // A Send test's invitation: its answer is never counted (docs/decisions/037-test-responses-and-review-gating.md).
        <Badge size="sm" color="grape" variant="light" mr={4}>
          Test send
        </Badge>
      )}
      <Text span size="xs" c="dimmed">
        {[r.email, r.phone].filter(Boolean).join(' · ')}
      </Text>
    </span>
  ),
};

/** One invitation: the row as received, the mapping's result, the rule's outcome, its messages and actions. */
function ItemDetail({ row }: { row: ProcessingItem }) {
  const { data: d, states } = useResourceDetail<ProcessingItemDetail>(processingItemResource, row.id, {
    deps: [row.item_status, row.scheduled_at],
  });
  if (!d) return states;
  const mapped: [string, string | null][] = [
    ['Received at', formatDateTime(d.created_at, d.client_timezone)],
    ['Client', d.client_name],
    ['Location', d.location_name],
    ['Survey', d.survey_name],
    ['First name', d.first_name],
    ['Last name', d.last_name],
    ['Email', d.email_full],
    ['Phone', d.phone_full],
    ['Transaction id', d.transaction_id],
    ['Transaction date', d.transaction_date],
    ['Personnel', d.personnel_name],
    ['Product', d.product_name],
    ['Referral source', d.referral_source_name],
    ['Amount', d.amount],
    ['SMS opt-in', d.sms_opt_in ? 'Yes' : 'No'],
    ['Channel', PROCESSING_CHANNEL_LABELS[d.channel]],
    ['Scheduled for', d.scheduled_at && formatDateTime(d.scheduled_at, d.client_timezone)],
    ['Sent at', d.sent_at && formatDateTime(d.sent_at, d.client_timezone)],
    ['Attempts', String(d.attempts)],
    ['Source', sourceText(d.source, d.run_id, d.row_number)],
  ];
  return (
    <Stack gap="sm">
      <Text fw={600}>Rule outcome</Text>
      <Group gap="xs">
        <StatusBadge status={d.item_status} />
        {d.reason && <Text size="sm">{d.reason}</Text>}
      </Group>
      <ItemActions item={d} />
      <Text fw={600}>Mapping result</Text>
      <FieldGrid fields={mapped} />
      <Text fw={600}>Row as received</Text>
      {d.raw ? (
        <Table withTableBorder fz="sm" aria-label="Row as received">
          <Table.Tbody>
            {Object.entries(d.raw).map(([column, value]) => (
              <Table.Tr key={column}>
                <Table.Th>{column}</Table.Th>
                <Table.Td>
                  <Code>{value}</Code>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          Not from a feed row ({sourceText(d.source, null, null)}).
        </Text>
      )}
      <Text fw={600}>Messages</Text>
      {d.messages.length === 0 ? (
        <Text size="sm" c="dimmed">
          No message sent yet.
        </Text>
      ) : (
        <Timeline active={d.messages.length - 1} bulletSize={14} lineWidth={2} aria-label="Message timeline">
          {d.messages.map((m) => (
            <Timeline.Item key={m.id} title={messageKindText(m.type, m.delivery_status)}>
              <Text size="xs" c="dimmed">
                {formatDateTime(m.created_at, d.client_timezone)} · {m.recipient}
              </Text>
              <Text size="sm">{m.subject_or_template}</Text>
              {m.error && (
                <Text size="sm" c="red">
                  {m.error}
                </Text>
              )}
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Stack>
  );
}

/**
 * Survey Processing (docs/screens.md): every invitation and why it was or wasn't sent, read-mostly;
 * the detail has the row as received, the mapping, the rule's outcome, the messages and the actions.
 */
export default function SurveyProcessingPage() {
  return (
    <ResourcePage
      resource={processingItemResource}
      readOnly
      detail={ItemDetail}
      title={(r) => `invitation of ${r.customer}`}
      cells={cells}
      intro={(list) => <RetryFiltered list={list} />}
      empty="No invitations match these filters."
    />
  );
}
