import { type ClientListItem, clientResource, MODULE_OPTIONS } from '@admin/shared/resources/clients';
import { Checkbox, Group, SimpleGrid } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { RemoteSelect } from '../../components/filters/remote-select.tsx';
import { defaultTimeZone } from '../../components/forms/time-zone-select.tsx';
import { CITY_LINE, Field, FieldRow, ResourceFormShell } from '../../components/resource/field.tsx';
import { bodyOf, type FormValues, type ResourceFormProps, useResourceForm } from '../../components/resource/use-resource-form.ts';
import { compactPhone } from '../../lib/format.ts';

/** The body as the API takes it: the coordinator's id a number (or null for none). */
function toBody(values: Partial<FormValues>): Record<string, unknown> {
  const body = bodyOf(values);
  const ac = values.account_coordinator_id;
  return ac === undefined ? body : { ...body, account_coordinator_id: typeof ac === 'string' && ac !== '' ? Number(ac) : null };
}

/** **Account Coordinator**'s options: the staff accounts, paged on the server. */
const STAFF_OPTIONS_PATH = '/api/staff-users/options';

/** Create or edit a client (docs/screens.md, Client Manager); a new one starts in the browser's time zone. */
export function ClientForm(props: ResourceFormProps<ClientListItem>) {
  const form = useResourceForm(clientResource, props, {
    ...(props.record ? {} : { initial: { timezone: defaultTimeZone() } }),
    // Phones may be typed grouped, as the hint shows; they are kept in E.164.
    normalize: { phone: compactPhone },
    toBody,
  });
  const { control } = form.form;
  const record = props.record;
  // The record's coordinator is named at once, before the server's first answer.
  const coordinator =
    record && record.account_coordinator_id !== null && record.account_coordinator_name !== null
      ? { [String(record.account_coordinator_id)]: record.account_coordinator_name }
      : undefined;
  return (
    <ResourceFormShell form={form}>
      <Field form={form} name="name" />
      <FieldRow form={form} names={['industry', 'timezone']} />
      {!props.record && <Field form={form} name="root_team_name" description="Defaults to the client's name" />}
      <FieldRow form={form} names={['website', 'phone']} />
      <Field form={form} name="address1" />
      <FieldRow form={form} {...CITY_LINE} />
      <FieldRow form={form} names={['primary_contact_name', 'primary_contact_email']} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={control}
          name="account_coordinator_id"
          render={({ field }) => (
            // A staff account, found on the server as the user types (the staff grows with the team).
            <RemoteSelect
              label={clientResource.fields.account_coordinator_id.label}
              path={STAFF_OPTIONS_PATH}
              value={typeof field.value === 'string' && field.value !== '' ? field.value : null}
              onChange={(v) => field.onChange(v ?? '')}
              onBlur={field.onBlur}
              error={form.error('account_coordinator_id')}
              clearable
              labels={coordinator}
            />
          )}
        />
        <Field form={form} name="default_review_site" />
      </SimpleGrid>
      <Controller
        control={control}
        name="modules"
        render={({ field }) => (
          <Checkbox.Group
            label={clientResource.labels.modules}
            value={Array.isArray(field.value) ? field.value : []}
            onChange={field.onChange}
            error={form.error('modules')}
          >
            <Group mt={4}>
              {MODULE_OPTIONS.map((m) => (
                <Checkbox key={m.value} value={m.value} label={m.label} />
              ))}
            </Group>
          </Checkbox.Group>
        )}
      />
    </ResourceFormShell>
  );
}
