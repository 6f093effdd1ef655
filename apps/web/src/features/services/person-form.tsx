import { type Person, personnelResource } from '@admin/shared/resources/personnel';
import { TagsInput } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { RemoteMultiSelect } from '../../components/filters/remote-multi-select.tsx';
import { Field, FieldRow, ResourceFormShell } from '../../components/resource/field.tsx';
import { type ResourceFormProps, useResourceForm } from '../../components/resource/use-resource-form.ts';
import { compactPhone } from '../../lib/format.ts';

const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);

/** Create or edit a person of the current client (docs/screens.md, Personnel). */
export function PersonForm(props: ResourceFormProps<Person>) {
  const person = props.record;
  const form = useResourceForm(personnelResource, props, {
    ...(person ? {} : { initial: { location_ids: [], aliases: [] } }),
    // Phones may be typed grouped, as the hint shows; they are kept in E.164.
    normalize: { phone: compactPhone },
  });
  const { control } = form.form;
  return (
    <ResourceFormShell form={form}>
      <FieldRow form={form} names={['first_name', 'last_name']} />
      <FieldRow form={form} names={['display_name', 'title']} />
      <Controller
        control={control}
        name="location_ids"
        render={({ field }) => (
          <RemoteMultiSelect
            label={personnelResource.labels.location_ids ?? 'Locations'}
            required
            path={personnelResource.filters.location.optionsPath}
            value={list(field.value)}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={form.error('location_ids')}
            labels={Object.fromEntries((person?.location_ids ?? []).map((id, i) => [id, person?.location_names[i] ?? id]))}
          />
        )}
      />
      <Field form={form} name="employee_code" />
      <Controller
        control={control}
        name="aliases"
        render={({ field }) => (
          <TagsInput
            label={personnelResource.labels.aliases}
            description="Name variants used to match reviews and feed rows; press Enter after each"
            value={list(field.value)}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={form.error('aliases')}
          />
        )}
      />
      <FieldRow form={form} names={['email', 'phone']} />
      <Field form={form} name="photo_url" />
    </ResourceFormShell>
  );
}
