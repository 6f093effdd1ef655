import { type ReferralSource, referralSourceResource } from '@admin/shared/resources/referral-sources';
import { Field, ResourceFormShell } from '../../components/resource/field.tsx';
import { GlobalDefaultField, GlobalDefaultNote } from '../../components/resource/global-default.tsx';
import { ResourcePage } from '../../components/resource/resource-page.tsx';
import { type ResourceFormProps, useResourceForm } from '../../components/resource/use-resource-form.ts';

/** Create or edit a referral source; a new one belongs to the current client or is global. */
function ReferralSourceForm(props: ResourceFormProps<ReferralSource>) {
  const form = useResourceForm(referralSourceResource, props);
  return (
    <ResourceFormShell form={form}>
      <GlobalDefaultNote form={form} record={props.record} what="referral source" />
      <Field form={form} name="name" />
      <Field form={form} name="code" />
      <Field form={form} name="type" />
      <GlobalDefaultField form={form} record={props.record} />
    </ResourceFormShell>
  );
}

/** Referral sources of the current client, with the global defaults shared by all clients. */
export default function ReferralSourcePage() {
  return <ResourcePage resource={referralSourceResource} form={ReferralSourceForm} />;
}
