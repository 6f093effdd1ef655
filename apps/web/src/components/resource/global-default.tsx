import { Alert } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import { useSession } from '../../lib/session-store.ts';
import { Field } from './field.tsx';
import type { ResourceForm } from './use-resource-form.ts';

/** A record that belongs to one client, or to none: a global default (`client_id` null) every client shares. */
type Owned = { client_id: number | null };

/**
 * The warning atop a form whose record is, or is about to be made, a global default (the form's
 * `global` field): every client shares it, so a change reaches all of them at once.
 */
export function GlobalDefaultNote({ form, record, what }: { form: ResourceForm; record: Owned | null; what: string }) {
  const global = useWatch({ control: form.form.control, name: 'global' }) === true;
  if (record?.client_id !== null && !global) return null;
  return (
    <Alert color="orange" variant="light" title="Global default" role="note">
      {record
        ? `This ${what} is shared by every client. Your changes apply to all clients at once.`
        : 'A global default is shared by every client. Later changes to it apply to all clients at once.'}
    </Alert>
  );
}

/** A new record's choice to be a global default rather than the current client's; an existing record keeps its owner. */
export function GlobalDefaultField({ form, record }: { form: ResourceForm; record: Owned | null }) {
  const clientName = useSession((s) => s.currentClient?.name ?? '');
  if (record) return null;
  return <Field form={form} name="global" label={`Global default for all clients (otherwise only ${clientName})`} />;
}
