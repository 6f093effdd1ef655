import { wallTimeIn, zoneName } from '@admin/shared';
import {
  cancelSchema,
  fixContactSchema,
  isUnsent,
  PROCESSING_ACTION_LABELS,
  type ProcessingItemDetail,
  processingItemResource,
  rescheduleSchema,
} from '@admin/shared/resources/survey-processing';
import { surveyResponseResource } from '@admin/shared/resources/survey-responses';
import type { ProcessingItemStatus } from '@admin/shared/resources/surveys';
import { Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { api, messagesOf } from '../../lib/http.ts';

const path = processingItemResource.path;
/** Sent and not answered: the link may go again (Survey Manager's resend; 409 once expired). */
const RESENDABLE: readonly ProcessingItemStatus[] = ['sent', 'delivered', 'opened', 'reminded'];

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
      setErrors(messagesOf(e));
    } finally {
      setBusy(null);
    }
  }
  return { busy, errors, run };
}

/** Reschedule, Cancel, Retry and Fix contact & resend, each shown only where it applies. */
export function ItemActions({ item }: { item: ProcessingItemDetail }) {
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
  // The time typed is the client's (its quiet hours are), whatever the viewer's zone (issue 19, item 10).
  const zone = item.client_timezone;
  const whenIso = zone
    ? (wallTimeIn(when, zone) ?? when)
    : when === '' || Number.isNaN(new Date(when).getTime())
      ? when
      : new Date(when).toISOString();
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
            description={zone ? `${item.client_name ?? 'The client'}'s time (${zoneName(zone)})` : undefined}
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
