import {
  cancelSchema,
  fixContactSchema,
  isUnsent,
  PROCESSING_ACTION_LABELS,
  PROCESSING_CHANNEL_LABELS,
  PROCESSING_STATUS_LABELS,
  type ProcessingItem,
  type ProcessingItemDetail,
  processingItemResource,
  rescheduleSchema,
} from '@admin/shared/resources/survey-processing';
import { surveyResponseResource } from '@admin/shared/resources/survey-responses';
import type { ProcessingItemStatus } from '@admin/shared/resources/surveys';
import { Badge, Button, Code, Group, Stack, Table, Text, Textarea, TextInput, Timeline } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { DateTimeCell } from '../../components/data-table/cells.tsx';
import { FieldGrid } from '../../components/field-grid.tsx';
import { type ResourceList, ResourcePage } from '../../components/resource/resource-page.tsx';
import { useResourceDetail } from '../../components/resource/use-resource-detail.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { ApiError, api } from '../../lib/http.ts';

const path = processingItemResource.path;
/** Sent and not answered: the link may go again (Survey Manager's resend; 409 once expired). */
const RESENDABLE: readonly ProcessingItemStatus[] = ['sent', 'delivered', 'opened', 'reminded'];

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

const at = (v: string | null) => (v === null ? null : <DateTimeCell value={v} />);
const cells = {
  created_at: (r: ProcessingItem) => <DateTimeCell value={r.created_at} />,
  scheduled_at: (r: ProcessingItem) => at(r.scheduled_at),
  sent_at: (r: ProcessingItem) => at(r.sent_at),
  status: (r: ProcessingItem) => <StatusBadge status={r.item_status} />,
  customer: (r: ProcessingItem) => (
    <div>
      <Text size="sm">{r.customer}</Text>
      <Text size="xs" c="dimmed">
        {[r.email, r.phone].filter(Boolean).join(' · ')}
      </Text>
    </div>
  ),
};

/** The first message per field of a schema's refusal (the same messages the server answers). */
function problemsOf(error: z.ZodError): Record<string, string> {
  const found: Record<string, string> = {};
  for (const issue of error.issues) found[String(issue.path[0] ?? '')] ??= issue.message;
  return found;
}

/**
 * One action on the invitation: checks the body with the action's schema, posts it, says how it
 * went and reloads the list; field errors (from the schema or the server) come back for the form.
 */
function useAction(item: ProcessingItemDetail) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  async function run<T>(action: string, done: string, body?: T, schema?: z.ZodType<T>) {
    if (schema) {
      const checked = schema.safeParse(body);
      if (!checked.success) return setErrors(problemsOf(checked.error));
    }
    setBusy(action);
    setErrors({});
    try {
      // Resend is Survey Manager's route (the same invitation's link again); the others are this screen's.
      await api.post(
        action === 'resend' ? `${surveyResponseResource.path}/items/${item.id}/resend` : `${path}/${item.id}/${action}`,
        body ?? {},
      );
      notifications.show({ color: 'green', message: done });
      await queryClient.invalidateQueries();
    } catch (e) {
      const fields = e instanceof ApiError ? e.fieldErrors : {};
      const message = e instanceof Error ? e.message : String(e);
      setErrors(
        Object.keys(fields).length > 0 ? Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0] ?? message])) : { '': message },
      );
    } finally {
      setBusy(null);
    }
  }
  return { busy, errors, run };
}

/** Reschedule, Cancel, Retry and Fix contact & resend, each shown only where it applies. */
function ItemActions({ item }: { item: ProcessingItemDetail }) {
  const { busy, errors, run } = useAction(item);
  const [when, setWhen] = useState('');
  const [note, setNote] = useState('');
  const [email, setEmail] = useState(item.email_full ?? '');
  const [phone, setPhone] = useState(item.phone_full ?? '');
  const status = item.item_status;
  const schedulable = status === 'queued' || status === 'scheduled' || status === 'failed';
  if (RESENDABLE.includes(status))
    return (
      <Button variant="light" loading={busy === 'resend'} onClick={() => void run('resend', 'Invitation sent again')}>
        Resend
      </Button>
    );
  if (!isUnsent(status)) return null;
  const whenIso = when === '' || Number.isNaN(new Date(when).getTime()) ? when : new Date(when).toISOString();
  return (
    <Stack gap="sm">
      <Text fw={600}>Actions</Text>
      {errors[''] && (
        <Text c="red" size="sm" role="alert">
          {errors['']}
        </Text>
      )}
      {status === 'failed' ? (
        <Button variant="light" loading={busy === 'retry'} onClick={() => void run('retry', 'Invitation sent again')}>
          Retry
        </Button>
      ) : (
        schedulable && (
          <Button variant="light" loading={busy === 'send-now'} onClick={() => void run('send-now', 'Invitation sent')}>
            Send now
          </Button>
        )
      )}
      {schedulable && (
        <Group align="flex-end">
          <TextInput
            label={PROCESSING_ACTION_LABELS.scheduled_at}
            type="datetime-local"
            value={when}
            onChange={(e) => setWhen(e.currentTarget.value)}
            error={errors.scheduled_at}
          />
          <Button
            variant="light"
            loading={busy === 'reschedule'}
            onClick={() => void run('reschedule', 'Invitation rescheduled', { scheduled_at: whenIso }, rescheduleSchema)}
          >
            Reschedule
          </Button>
        </Group>
      )}
      <Group align="flex-end">
        <TextInput
          label={PROCESSING_ACTION_LABELS.email}
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={errors.email}
        />
        <TextInput
          label={PROCESSING_ACTION_LABELS.phone}
          value={phone}
          onChange={(e) => setPhone(e.currentTarget.value)}
          error={errors.phone}
        />
        <Button
          variant="light"
          loading={busy === 'fix-contact'}
          onClick={() =>
            void run(
              'fix-contact',
              'Contact fixed and the invitation sent',
              { ...(email.trim() !== '' ? { email: email.trim() } : {}), ...(phone.trim() !== '' ? { phone: phone.trim() } : {}) },
              fixContactSchema,
            )
          }
        >
          Fix contact & resend
        </Button>
      </Group>
      <Textarea
        label={PROCESSING_ACTION_LABELS.note}
        description="Why it is cancelled"
        maxLength={500}
        value={note}
        onChange={(e) => setNote(e.currentTarget.value)}
        error={errors.note}
      />
      <Button
        color="red"
        variant="light"
        loading={busy === 'cancel'}
        onClick={() => void run('cancel', 'Invitation cancelled', { note }, cancelSchema)}
      >
        Cancel invitation
      </Button>
    </Stack>
  );
}

/** One invitation: the row as received, the mapping's result, the rule's outcome, its messages and actions. */
function ItemDetail({ row }: { row: ProcessingItem }) {
  const { data: d, states } = useResourceDetail<ProcessingItemDetail>(processingItemResource, row.id, {
    deps: [row.item_status, row.scheduled_at],
  });
  if (!d) return states;
  const mapped: [string, string | null][] = [
    ['Received at', formatDateTime(d.created_at)],
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
    ['Scheduled for', d.scheduled_at && formatDateTime(d.scheduled_at)],
    ['Sent at', d.sent_at && formatDateTime(d.sent_at)],
    ['Attempts', String(d.attempts)],
    ['Source', `${d.source}${d.run_id ? ` · run ${d.run_id}, row ${d.row_number ?? '?'}` : ''}`],
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
          Not from a feed row ({d.source}).
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
            <Timeline.Item key={m.id} title={`${m.type} · ${m.delivery_status}`}>
              <Text size="xs" c="dimmed">
                {formatDateTime(m.created_at)} · {m.recipient}
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

/** Retry failed over the current filter: every failed invitation it finds is scheduled again. */
function RetryFiltered({ list }: { list: ResourceList<ProcessingItem> }) {
  const [busy, setBusy] = useState(false);
  const retry = async () => {
    setBusy(true);
    try {
      const { columns: _columns, ...filter } = list.exportQuery();
      const { data } = await api.post<{ data: { changed: number } }>(`${path}/retry`, { filter });
      notifications.show({ color: 'green', message: `${data.changed} failed invitation${data.changed === 1 ? '' : 's'} scheduled again` });
      await list.refresh();
    } catch (e) {
      notifications.show({ color: 'red', message: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        Every client’s invitations, unless the Clients filter narrows them.
      </Text>
      <Button size="xs" variant="light" loading={busy} onClick={() => void retry()}>
        Retry failed in this filter
      </Button>
    </Group>
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
