import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { ApiError, api } from '../lib/http.ts';
import { useKeptState } from './data-table/kept-state.tsx';
import { GuardedModal, useGuardedClose } from './discard-guard.tsx';

/** Where every message sent lands (the Tracking Logs screen). */
export const TRACKING_LOGS_PATH = '/admin/notifications/logs';

/** What every test send answers: how its message ended, and why when it did not go. */
type Sent = { status: string; error: string | null };

export type SendTestFormProps<Body extends Record<string, string>, Result extends Sent> = {
  /** How the toast names the test, e.g. "Test of Invite after visit". */
  what: string;
  /** `POST` route of the test. */
  path: string;
  /** The one field: its body key, label and hints. */
  field: { key: keyof Body & string; label: string; description?: string; placeholder: string };
  /** The server's own rule for the body, checked first so a typo is named without a round trip. */
  schema: z.ZodType<Body>;
  /** The typed value as the body takes it (e.g. a phone written compact). */
  normalize: (typed: string) => string;
  /** What goes out, above the field. */
  intro: ReactNode;
  /** The result shown in the form (e.g. the survey link); without it the form closes once sent. */
  result?: (answer: Result) => ReactNode;
  submitLabel?: string;
  onClose(): void;
};

/**
 * A test send (SMS Text's templates, Surveys, Survey Admin's test e-mail): one recipient typed,
 * checked by the server's rule, sent through the same checks and transport as every message; a
 * toast says how it ended, and a result shown in the form links to Tracking Logs, where the message is.
 */
export function SendTestForm<Body extends Record<string, string>, Result extends Sent>(props: SendTestFormProps<Body, Result>) {
  const { field, submitLabel = 'Send test' } = props;
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<Result | null>(null);
  /** The recipient of the last send: once it went, closing loses nothing. */
  const [sentTo, setSentTo] = useState('');
  const close = useGuardedClose(value.trim() !== '' && value !== sentTo, props.onClose);

  async function send() {
    const checked = props.schema.safeParse({ [field.key]: props.normalize(value) });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? `The ${field.label} field is not valid`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { data } = await api.post<{ data: Result }>(props.path, checked.data);
      notifications.show({
        color: data.status === 'sent' ? 'green' : 'orange',
        message:
          data.status === 'sent'
            ? `${props.what} sent; it is in Tracking Logs.`
            : `${props.what} not sent (${data.status}): ${data.error ?? ''}`,
      });
      setSentTo(value);
      if (props.result) setAnswer(data);
      else props.onClose();
    } catch (e) {
      setError(e instanceof ApiError ? (e.fieldErrors[field.key]?.[0] ?? e.message) : e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <Stack gap="sm">
        {/* A block, not a paragraph: an intro may hold a preview of the message. */}
        <Text size="sm" component="div">
          {props.intro}
        </Text>
        <TextInput
          label={field.label}
          description={field.description}
          required
          placeholder={field.placeholder}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          error={error}
          data-autofocus
        />
        {answer && props.result?.(answer)}
        {answer && (
          <Anchor component={Link} to={TRACKING_LOGS_PATH} size="sm">
            Open Tracking Logs
          </Anchor>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {answer ? 'Close' : 'Cancel'}
          </Button>
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A row's Send test button and its dialog ("Send test of …"), holding `SendTestForm`. */
export function SendTestDialog<Body extends Record<string, string>, Result extends Sent>({
  name,
  ...form
}: { name: string } & Omit<SendTestFormProps<Body, Result>, 'what' | 'onClose'>) {
  const [opened, setOpened] = useKeptState(`send-test:${name}`, false);
  return (
    <>
      <Button size="compact-xs" variant="subtle" aria-label={`Send test of ${name}`} onClick={() => setOpened(true)}>
        Send test
      </Button>
      <GuardedModal opened={opened} onClose={() => setOpened(false)} title={`Send test of ${name}`}>
        <SendTestForm<Body, Result> {...form} what={`Test of ${name}`} onClose={() => setOpened(false)} />
      </GuardedModal>
    </>
  );
}
