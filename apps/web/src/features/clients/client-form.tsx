import { type ClientListItem, clientResource, MODULE_OPTIONS } from '@admin/shared/resources/clients';
import { Checkbox, Group, Select, SimpleGrid } from '@mantine/core';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useRemoteOptions } from '../../components/filters/remote-multi-filter.tsx';
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

/** **Account Coordinator**: a staff account, found on the server as the user types (the staff grows with the team). */
function StaffSelect(props: { value: string; onChange(value: string): void; onBlur(): void; error: string | undefined }) {
  const [search, setSearch] = useState('');
  const chosen = props.value ? [props.value] : [];
  // While the search shows the chosen name, every option is offered, as Mantine does with local options.
  const { options: shown } = useRemoteOptions('/api/staff-users/options', '', chosen);
  const chosenLabel = shown.find((o) => o.value === props.value)?.label;
  const { options, more } = useRemoteOptions('/api/staff-users/options', search === chosenLabel ? '' : search, chosen);
  return (
    <Select
      label={clientResource.labels.account_coordinator_id}
      searchable
      clearable
      data={options}
      filter={({ options: all }) => all}
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={more ? 'Type to narrow the list' : 'No match'}
      value={props.value || null}
      onChange={(v) => props.onChange(v ?? '')}
      onBlur={props.onBlur}
      error={props.error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** Create or edit a client (docs/screens.md, Client Manager); a new one starts in the browser's time zone. */
export function ClientForm(props: ResourceFormProps<ClientListItem>) {
  const form = useResourceForm(clientResource, props, {
    ...(props.record ? {} : { initial: { timezone: defaultTimeZone() } }),
    // Phones may be typed grouped, as the hint shows; they are kept in E.164.
    normalize: { phone: compactPhone },
    toBody,
  });
  const { control } = form.form;
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
            <StaffSelect
              value={String(field.value)}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={form.error('account_coordinator_id')}
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
