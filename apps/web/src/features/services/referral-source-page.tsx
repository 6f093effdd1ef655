import { type ReferralSource, referralSourceResource } from '@admin/shared/resources/referral-sources';
import { Alert } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import { Field, ResourceFormShell } from '../../components/resource/field.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { type ResourceFormProps, useResourceForm } from '../../components/resource/use-resource-form.ts';
import { useSession } from '../../lib/session-store.ts';

/** Create or edit a referral source; a new one belongs to the current client or is global. */
function ReferralSourceForm(props: ResourceFormProps<ReferralSource>) {
  const form = useResourceForm(referralSourceResource, props);
  const clientName = useSession((s) => s.currentClient?.name ?? '');
  const global = useWatch({ control: form.form.control, name: 'global' }) === true;
  const record = props.record;
  return (
    <ResourceFormShell form={form}>
      {(record?.client_id === null || global) && (
        <Alert color="orange" variant="light" title="Global default" role="note">
          {record
            ? 'This referral source is shared by every client. Your changes apply to all clients at once.'
            : 'A global default is shared by every client. Later changes to it apply to all clients at once.'}
        </Alert>
      )}
      <Field form={form} name="name" />
      <Field form={form} name="code" />
      <Field form={form} name="type" />
      {!record && <Field form={form} name="global" label={`Global default for all clients (otherwise only ${clientName})`} />}
    </ResourceFormShell>
  );
}

/** Referral sources of the current client, with the global defaults shared by all clients. */
export default function ReferralSourcePage() {
  return <ResourcePage resource={referralSourceResource} form={ReferralSourceForm} />;
}
