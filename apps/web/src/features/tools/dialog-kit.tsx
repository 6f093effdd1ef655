import { Alert, Button, CopyButton, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useState } from 'react';
import { useGuardedClose } from '../../components/discard-guard.tsx';
import { ApiError } from '../../lib/http.ts';

/** What a failed call says, for a toast. */
export const problemOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * A dialog form's save (API Token Generation, API Managers): busy while it runs, the server's
 * field errors on their fields, any other failure in a toast.
 */
export function useDialogSave() {
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  async function run(action: () => Promise<void>) {
    setBusy(true);
    setErrors({});
    try {
      await action();
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fieldErrors).length > 0) setErrors(e.fieldErrors);
      else notifications.show({ color: 'red', message: problemOf(e) });
    } finally {
      setBusy(false);
    }
  }
  return { busy, run, error: (field: string) => errors[field]?.join(' ') || undefined };
}

/**
 * A dialog's form (a token's, an endpoint's): Enter or the submit button saves, the browser's own
 * validation stays off (the server's field errors show instead), Cancel closes, and the submit
 * button spins while `busy`. Inside a GuardedModal, `dirty` (unsaved changes) makes Cancel,
 * Escape, the close button and a click outside ask "Discard changes?" first.
 */
export function DialogForm(props: {
  onSubmit(): Promise<void>;
  onCancel(): void;
  busy: boolean;
  dirty: boolean;
  submitLabel: string;
  children: ReactNode;
}) {
  const cancel = useGuardedClose(props.dirty, props.onCancel);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void props.onSubmit();
      }}
    >
      <Stack gap="sm">
        {props.children}
        <Group justify="flex-end">
          <Button variant="default" onClick={cancel}>
            Cancel
          </Button>
          <Button type="submit" loading={props.busy}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The lines (or commas) of an allowed-IP box as the list the API takes. */
export const ipList = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** Allowed IPs, one address or CIDR range per line (a token's, an endpoint's). */
export function AllowedIpsInput(props: { label: string; value: string; onChange(value: string): void; error: string | undefined }) {
  return (
    <Textarea
      label={props.label}
      description="One IPv4/IPv6 address or CIDR range per line; empty allows every address"
      autosize
      minRows={2}
      value={props.value}
      onChange={(e) => props.onChange(e.currentTarget.value)}
      error={props.error}
    />
  );
}

/**
 * A secret shown once (a new API token, a webhook secret) with a copy button; closing forgets it,
 * so only its own Done closes it: no close button, and neither Escape nor a click outside.
 */
export function SecretOnceDialog(props: { title: string; label: string; value: string | null; note: string; onClose(): void }) {
  return (
    <Modal
      opened={props.value !== null}
      onClose={props.onClose}
      title={props.title}
      centered
      size="lg"
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
    >
      {props.value !== null && (
        <Stack gap="sm">
          <Alert color="orange" variant="light" role="note">
            {props.note} This dialog closes only with Done.
          </Alert>
          <TextInput
            label={props.label}
            readOnly
            value={props.value}
            onFocus={(e) => e.currentTarget.select()}
            styles={{ input: { fontFamily: 'monospace' } }}
          />
          <Group justify="flex-end">
            <CopyButton value={props.value}>
              {({ copied, copy }) => (
                <Button color={copied ? 'teal' : undefined} onClick={copy}>
                  {copied ? 'Copied' : `Copy ${props.label.toLowerCase()}`}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={props.onClose}>
              Done
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
