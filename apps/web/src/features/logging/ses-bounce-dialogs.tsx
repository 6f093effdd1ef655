import {
  type EmailSuppression,
  emailSuppressionResource,
  manualSuppressionSchema,
  RELEASE_QUESTION,
  releaseSuppressionSchema,
} from '@admin/shared/resources/email-suppressions';
import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import type { z } from 'zod';
import { api, messagesOf } from '../../lib/http.ts';

const path = emailSuppressionResource.path;

/** Each field's first message from a failed check of the dialog's schema, by field. */
function problemsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    out[key] ??= issue.message;
  }
  return out;
}

/** A dialog's posting: its fields' errors (the schema's, then the server's) and the busy flag. */
function usePost(onDone: (row: EmailSuppression) => Promise<void> | void) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  async function post<S extends z.ZodType>(schema: S, url: string, body: z.input<S>) {
    const checked = schema.safeParse(body);
    if (!checked.success) return setErrors(problemsOf(checked.error));
    setBusy(true);
    setErrors({});
    try {
      const { data } = await api.post<{ data: EmailSuppression }>(url, body);
      await onDone(data);
    } catch (e) {
      setErrors(messagesOf(e));
    } finally {
      setBusy(false);
    }
  }
  return { busy, errors, post };
}

/**
 * Release from suppression: asks the question word for word (domain.md §25) and a reason (required,
 * at most 500 characters), which the server keeps with who released the address and when.
 */
export function ReleaseDialog(props: { row: EmailSuppression; onClose(): void; onReleased(): Promise<void> }) {
  const [reason, setReason] = useState('');
  const { busy, errors, post } = usePost(async (row) => {
    notifications.show({ color: 'green', message: `Released ${row.email} from suppression` });
    await props.onReleased();
    props.onClose();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void post(releaseSuppressionSchema, `${path}/release`, { email: props.row.email, reason });
  };
  return (
    <Modal opened onClose={props.onClose} title={`Release ${props.row.email} from suppression`}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text fw={600}>{RELEASE_QUESTION}</Text>
          <Text size="sm" c="dimmed">
            Messages to this address will be sent again. Its bounce history is kept.
          </Text>
          <Textarea
            label="Reason"
            description="Why the address may receive messages again (at most 500 characters)"
            required
            autosize
            minRows={2}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={errors.reason}
          />
          <DialogEnd error={errors['']} busy={busy} action="Release" color="red" onCancel={props.onClose} />
        </Stack>
      </form>
    </Modal>
  );
}

/** Add manual suppression: an address (lower-cased by the server) and, optionally, why. */
export function ManualSuppressionDialog(props: { onClose(): void; onAdded(row: EmailSuppression): Promise<void> }) {
  const [email, setEmail] = useState('');
  const [reason, setReason] = useState('');
  const { busy, errors, post } = usePost(async (row) => {
    notifications.show({ color: 'green', message: `Suppressed ${row.email}` });
    await props.onAdded(row);
    props.onClose();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void post(manualSuppressionSchema, path, reason.trim() === '' ? { email } : { email, reason });
  };
  return (
    <Modal opened onClose={props.onClose} title="Add manual suppression">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Email"
            required
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
          />
          <Textarea
            label="Reason"
            description="Why nothing may be sent to it (at most 500 characters)"
            autosize
            minRows={2}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={errors.reason}
          />
          <DialogEnd error={errors['']} busy={busy} action="Suppress" onCancel={props.onClose} />
        </Stack>
      </form>
    </Modal>
  );
}

/** The end of both dialogs: the refusal that names no field, then Cancel and the action. */
function DialogEnd(props: { error: string | undefined; busy: boolean; action: string; color?: string; onCancel(): void }) {
  return (
    <>
      {props.error && (
        <Alert color="red" role="alert" p="xs">
          {props.error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button type="submit" color={props.color} loading={props.busy}>
          {props.action}
        </Button>
      </Group>
    </>
  );
}
