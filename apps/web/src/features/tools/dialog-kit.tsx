import { Alert, Button, CopyButton, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useGuardedClose } from '../../components/discard-guard.tsx';
import { generalMessage, placeFieldErrors } from '../../components/forms/server-errors.ts';
import { ApiError } from '../../lib/http.ts';

/** What a failed call says, for a toast. */
export const problemOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** What a failed save left to show: messages by field, and what no field shows. */
type Failure = { error: unknown; fields: Record<string, string[]> };

/**
 * A dialog form's save (API Token Generation, API Managers): busy while it runs, each of the
 * server's field errors beside its field (an item's, `allowed_ips.0`, beside its list), and the
 * rest (an error of a field the dialog does not show, or a failure with no field) above the form.
 *
 * `error(field)` is how the dialog shows a field's message, so it also records which fields the
 * dialog shows: `general()`, read by DialogForm as it renders after the dialog's own render (a
 * child renders after the props its parent built), leaves those out and says everything else.
 */
export function useDialogSave() {
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const shown = new Set<string>();
  async function run(action: () => Promise<void>) {
    setBusy(true);
    setFailure(null);
    try {
      await action();
    } catch (e) {
      setFailure({ error: e, fields: e instanceof ApiError ? e.fieldErrors : {} });
    } finally {
      setBusy(false);
    }
  }
  return {
    busy,
    run,
    /** The messages beside `field`, if any. */
    error(field: string): string | undefined {
      shown.add(field);
      if (!failure) return undefined;
      return placeFieldErrors(failure.fields, (f) => f === field).byField[field]?.join(' ') || undefined;
    },
    /** The message above the form: what no shown field says, or null. */
    general(): string | null {
      if (!failure) return null;
      return generalMessage(failure.error, placeFieldErrors(failure.fields, (f) => shown.has(f)).unplaced);
    },
  };
}
export type DialogSave = ReturnType<typeof useDialogSave>;

/**
 * A dialog's form (a token's, an endpoint's): Enter or the submit button saves, the browser's own
 * validation stays off (the server's field errors show instead, and what no field shows above the
 * fields), Cancel closes, and the submit button spins while the save runs. Inside a GuardedModal,
 * `dirty` (unsaved changes) makes Cancel, Escape, the close button and a click outside ask
 * "Discard changes?" first.
 */
export function DialogForm(props: {
  onSubmit(): Promise<void>;
  onCancel(): void;
  save: DialogSave;
  dirty: boolean;
  submitLabel: string;
  submitColor?: string;
  children: ReactNode;
}) {
  const cancel = useGuardedClose(props.dirty, props.onCancel);
  const general = props.save.general();
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void props.onSubmit();
      }}
    >
      <Stack gap="sm">
        {general && (
          <Alert color="red" variant="light" role="alert">
            {general}
          </Alert>
        )}
        {props.children}
        <Group justify="flex-end">
          <Button variant="default" onClick={cancel}>
            Cancel
          </Button>
          <Button type="submit" color={props.submitColor} loading={props.save.busy}>
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
