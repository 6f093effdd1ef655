import type { Person, PersonCreate } from '@admin/shared';
import { personnelFieldRules } from '@admin/shared/resources/personnel';
import { Alert, Button, Group, MultiSelect, SimpleGrid, Stack, TagsInput, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { type FieldRules, useVeeForm } from '../../components/forms/use-vee-form.ts';
import { usePanelForm } from '../../components/side-panel.tsx';
import { compactPhone } from '../../lib/format.ts';
import { api } from '../../lib/http.ts';
import { useSession } from '../../lib/session-store.ts';

type FormValues = {
  first_name: string;
  last_name: string;
  display_name: string;
  title: string;
  location_ids: string[];
  employee_code: string;
  aliases: string[];
  email: string;
  phone: string;
  photo_url: string;
};

const toBody = (v: Partial<FormValues>) =>
  Object.fromEntries(Object.entries(v).map(([k, x]) => [k, Array.isArray(x) ? x : x.trim() === '' ? null : x.trim()])) as PersonCreate;

/** Create or edit a person of the current client (docs/screens.md, Personnel). */
export function PersonForm(props: { person: Person | null; onSaved(p: Person): void; onCancel(): void }) {
  const p = props.person;
  const locationOptions = useSession((s) => s.locationOptions);
  const { form, veeErrors, errorFromSave, changedValues } = useVeeForm<FormValues>({
    defaultValues: {
      first_name: p?.first_name ?? '',
      last_name: p?.last_name ?? '',
      display_name: p?.display_name ?? '',
      title: p?.title ?? '',
      location_ids: p?.location_ids ?? [],
      employee_code: p?.employee_code ?? '',
      aliases: p?.aliases ?? [],
      email: p?.email ?? '',
      phone: p?.phone ?? '',
      photo_url: p?.photo_url ?? '',
    },
    rules: personnelFieldRules as unknown as FieldRules,
    // Phones may be typed grouped, as the hint shows; they are kept in E.164.
    normalize: { phone: compactPhone },
  });
  const [formError, setFormError] = useState<string | null>(null);
  const { register, control, handleSubmit, formState } = form;
  const err = (f: keyof FormValues) => veeErrors.first(f) ?? undefined;
  const cancel = usePanelForm(formState.isDirty, props.onCancel);
  // A person's current locations stay choosable even if archived.
  const options = [
    ...locationOptions,
    ...(p?.location_ids ?? [])
      .map((id, i) => ({ value: id, label: p?.location_names[i] ?? id }))
      .filter((o) => !locationOptions.some((l) => l.value === o.value)),
  ];

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const { data } = p
        ? await api.patch<{ data: Person }>(`/api/personnel/${p.id}`, { ...toBody(changedValues(values)), updated_at: p.updated_at })
        : await api.post<{ data: Person }>('/api/personnel', toBody(values));
      props.onSaved(data);
    } catch (e) {
      setFormError(errorFromSave(e));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="First name" required {...register('first_name')} error={err('first_name')} />
          <TextInput label="Last name" required {...register('last_name')} error={err('last_name')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Display name" {...register('display_name')} error={err('display_name')} />
          <TextInput label="Title" {...register('title')} error={err('title')} />
        </SimpleGrid>
        <Controller
          control={control}
          name="location_ids"
          render={({ field }) => (
            <MultiSelect
              label="Locations"
              required
              searchable
              data={options}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={err('location_ids')}
            />
          )}
        />
        <TextInput label="Employee code" {...register('employee_code')} error={err('employee_code')} />
        <Controller
          control={control}
          name="aliases"
          render={({ field }) => (
            <TagsInput
              label="Aliases"
              description="Name variants used to match reviews and feed rows; press Enter after each"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={err('aliases')}
            />
          )}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Email" {...register('email')} error={err('email')} />
          <TextInput label="Phone" placeholder="e.g. +1 555 123 4567" {...register('phone')} error={err('phone')} />
        </SimpleGrid>
        <TextInput label="Photo URL" {...register('photo_url')} error={err('photo_url')} />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={cancel}>
            Cancel
          </Button>
          <Button type="submit" loading={formState.isSubmitting}>
            {p ? 'Save changes' : 'Create person'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
