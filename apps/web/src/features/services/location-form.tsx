import type { Location, LocationCreate } from '@admin/shared';
import { checkLocationExtras } from '@admin/shared/resources/location-extras';
import { locationFieldRules } from '@admin/shared/resources/locations';
import { Alert, Button, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { defaultTimeZone, TimeZoneSelect } from '../../components/forms/time-zone-select.tsx';
import { type FieldRules, useVeeForm } from '../../components/forms/use-vee-form.ts';
import { usePanelForm } from '../../components/side-panel.tsx';
import { compactPhone } from '../../lib/format.ts';
import { ApiError, api } from '../../lib/http.ts';
import { useSession } from '../../lib/session-store.ts';
import { type Extras, LocationExtrasFields } from './location-extras-fields.tsx';

type FormValues = Record<keyof typeof locationFieldRules, string>;

const FIELDS = Object.keys(locationFieldRules) as (keyof FormValues)[];

function fromLocation(l: Location | null): FormValues {
  const v = {} as FormValues;
  for (const f of FIELDS) v[f] = (l?.[f] as string | null | undefined) ?? '';
  if (!l) v.country = 'US';
  return v;
}

/** Form values → API body: empty optional text becomes null. */
function toBody(values: Partial<FormValues>): LocationCreate {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim() === '' ? null : v.trim()])) as LocationCreate;
}

/** Create or edit a location of the current client (docs/screens.md, Locations). */
export function LocationForm(props: {
  location: Location | null;
  clientTimezone: string | undefined;
  onSaved(l: Location): void;
  onCancel(): void;
}) {
  const defaults = fromLocation(props.location);
  if (!props.location) defaults.timezone = props.clientTimezone || defaultTimeZone();
  const { form, veeErrors, errorFromSave, changedValues } = useVeeForm<FormValues>({
    defaultValues: defaults,
    rules: locationFieldRules as unknown as FieldRules,
    // Phones may be typed grouped, as the hint shows; they are kept in E.164.
    normalize: { phone: compactPhone },
  });
  const [formError, setFormError] = useState<string | null>(null);
  const { register, control, handleSubmit, formState } = form;
  // Manager, hours and links sit beside react-hook-form: nested values with path-keyed errors.
  const users = useSession((s) => s.users).filter((u) => u.id !== 1000);
  const [managerId, setManagerId] = useState<string | null>(
    props.location?.manager_user_id ? String(props.location.manager_user_id) : null,
  );
  const [extras, setExtras] = useState<Extras>({ hours: props.location?.hours ?? {}, review_links: props.location?.review_links ?? {} });
  const [extraErrors, setExtraErrors] = useState<Record<string, string[]>>({});
  const [checked, setChecked] = useState(false);
  const checkExtras = async (value = extras) => {
    const errors = await checkLocationExtras(value);
    setExtraErrors(errors);
    return errors;
  };
  const changeExtras = (next: Extras) => {
    setExtras(next);
    if (checked) void checkExtras(next);
  };
  const err = (f: keyof FormValues) => veeErrors.first(f) ?? undefined;
  const initialManager = props.location?.manager_user_id ? String(props.location.manager_user_id) : null;
  const [initialExtras] = useState(extras);
  const extrasChanged = managerId !== initialManager || JSON.stringify(extras) !== JSON.stringify(initialExtras);
  const cancel = usePanelForm(formState.isDirty || extrasChanged, props.onCancel);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    setChecked(true);
    if (Object.keys(await checkExtras()).length > 0) return;
    const more = { ...extras, manager_user_id: managerId ? Number(managerId) : null };
    try {
      if (props.location) {
        const changed = changedValues(values);
        const { data } = await api.patch<{ data: Location }>(`/api/endpoints/${props.location._id}`, {
          ...toBody(changed),
          ...more,
          updated_at: props.location.updated_at,
        });
        props.onSaved(data);
      } else {
        const { data } = await api.post<{ data: Location }>('/api/endpoints', { ...toBody(values), ...more });
        props.onSaved(data);
      }
    } catch (e) {
      if (e instanceof ApiError) {
        // Errors of hours and links go beside those fields; the rest to the form.
        const mine = Object.entries(e.fieldErrors).filter(([k]) => k.startsWith('hours.') || k.startsWith('review_links.'));
        setExtraErrors(Object.fromEntries(mine));
        if (mine.length === Object.keys(e.fieldErrors).length && mine.length > 0) return;
      }
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
        <TextInput label="Location name" required {...register('locationname')} error={err('locationname')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Store code"
            description="External code from feeds"
            {...register('external_code')}
            error={err('external_code')}
          />
          <TextInput label="Phone" required placeholder="e.g. +1 555 123 4567" {...register('phone')} error={err('phone')} />
        </SimpleGrid>
        <TextInput label="Address" required {...register('address1')} error={err('address1')} />
        <TextInput label="Address line 2" {...register('address2')} error={err('address2')} />
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <TextInput label="City" required {...register('city')} error={err('city')} />
          <TextInput label="State" required placeholder="e.g. CO" {...register('state')} error={err('state')} />
          <TextInput label="Postal code" required {...register('postal_code')} error={err('postal_code')} />
          <TextInput label="Country" {...register('country')} error={err('country')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Website" placeholder="e.g. https://example.com" {...register('website')} error={err('website')} />
          <Controller
            control={control}
            name="timezone"
            render={({ field }) => (
              <TimeZoneSelect value={field.value} onChange={field.onChange} onBlur={field.onBlur} error={err('timezone')} />
            )}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Google Place ID" {...register('google_place_id')} error={err('google_place_id')} />
          <Select
            label="Manager"
            description="A user of this client"
            clearable
            searchable
            data={users.map((u) => ({ value: String(u.id), label: u.name }))}
            value={managerId}
            onChange={setManagerId}
          />
        </SimpleGrid>
        <LocationExtrasFields
          value={extras}
          onChange={changeExtras}
          errors={extraErrors}
          onBlur={() => {
            setChecked(true);
            void checkExtras();
          }}
        />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={cancel}>
            Cancel
          </Button>
          <Button type="submit" loading={formState.isSubmitting}>
            {props.location ? 'Save changes' : 'Create location'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
