import { checkLocationExtras, type Hours, type ReviewLinks } from '@admin/shared/resources/location-extras';
import {
  LOCATION_MANAGER_OPTIONS_PATH,
  type Location,
  locationManagerOptionsPath,
  locationResource,
} from '@admin/shared/resources/locations';
import { SimpleGrid } from '@mantine/core';
import { type BaseSyntheticEvent, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { RemoteSelect } from '../../components/filters/remote-select.tsx';
import { defaultTimeZone } from '../../components/forms/time-zone-select.tsx';
import { CITY_LINE, Field, FieldRow, ResourceFormShell } from '../../components/resource/field.tsx';
import { bodyOf, type FormValues, type ResourceFormProps, useResourceForm } from '../../components/resource/use-resource-form.ts';
import { compactPhone, formatPhone } from '../../lib/format.ts';
import { useSession } from '../../lib/session-store.ts';
import { type Extras, LocationExtrasFields } from './location-extras-fields.tsx';

const { hours: hoursField, review_links: linksField } = locationResource.fields;

/** Hours and review links ride in the form as JSON text, so its dirty state and changed values cover them. */
function fromText(text: FormValues[string] | undefined): unknown {
  if (typeof text !== 'string' || text === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
const hoursOf = (text: FormValues[string] | undefined): Hours => hoursField.schema.parse(fromText(text)) ?? {};
const linksOf = (text: FormValues[string] | undefined): ReviewLinks => linksField.schema.parse(fromText(text)) ?? {};

/** Form values → API body: text trimmed (empty as null), hours and links as objects, the manager as an id. */
function toBody(values: Partial<FormValues>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(bodyOf(values))) {
    if (key === 'client_id') continue; // the screen writes to the current client
    if (key === 'hours') body.hours = hoursOf(values.hours);
    else if (key === 'review_links') body.review_links = linksOf(values.review_links);
    else if (key === 'manager_user_id') body.manager_user_id = value === null ? null : Number(value);
    else body[key] = value;
  }
  return body;
}

/** Create or edit a location of the current client (docs/screens.md, Locations). */
export function LocationForm(props: ResourceFormProps<Location>) {
  const record = props.record;
  const clientTimezone = useSession((s) => s.currentClient?.timezone);
  const form = useResourceForm(locationResource, props, {
    initial: {
      hours: JSON.stringify(record?.hours ?? {}),
      review_links: JSON.stringify(record?.review_links ?? {}),
      // Shown grouped as in the table; saved compact (normalize below).
      ...(record ? { phone: formatPhone(record.phone) } : { timezone: clientTimezone || defaultTimeZone() }),
    },
    // Phones may be typed grouped, as the hint shows; they are kept in E.164.
    normalize: { phone: compactPhone },
    toBody,
  });
  const { control, setValue, trigger } = form.form;
  const extras: Extras = {
    hours: hoursOf(useWatch({ control, name: 'hours' })),
    review_links: linksOf(useWatch({ control, name: 'review_links' })),
  };
  // Hours and links are checked with the form's rules once a save was tried or one of them left.
  const [extraErrors, setExtraErrors] = useState<Record<string, string[]>>({});
  const [checked, setChecked] = useState(false);
  const checkExtras = async (value: Extras) => {
    const errors = await checkLocationExtras(value);
    setExtraErrors(errors);
    return errors;
  };
  const changeExtras = (next: Extras) => {
    setValue('hours', JSON.stringify(next.hours), { shouldDirty: true });
    setValue('review_links', JSON.stringify(next.review_links), { shouldDirty: true });
    if (checked) void checkExtras(next);
  };
  const submit = async (e?: BaseSyntheticEvent) => {
    e?.preventDefault();
    setChecked(true);
    if (Object.keys(await checkExtras(extras)).length > 0) {
      await trigger();
      return;
    }
    await form.submit(e);
  };

  return (
    <ResourceFormShell form={{ ...form, submit }}>
      <Field form={form} name="locationname" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Field form={form} name="external_code" description="External code from feeds" />
        <Field form={form} name="phone" />
      </SimpleGrid>
      <Field form={form} name="address1" />
      <Field form={form} name="address2" />
      <FieldRow form={form} {...CITY_LINE} />
      <FieldRow form={form} names={['website', 'timezone']} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Field form={form} name="google_place_id" />
        <Controller
          control={control}
          name="manager_user_id"
          render={({ field }) => (
            <RemoteSelect
              label={locationResource.fields.manager_user_id.label}
              description="A user of this client"
              clearable
              // A user of the location's client: the current one for a new location.
              path={record ? locationManagerOptionsPath(record._id) : LOCATION_MANAGER_OPTIONS_PATH}
              value={typeof field.value === 'string' && field.value !== '' ? field.value : null}
              onChange={(v) => field.onChange(v ?? '')}
              onBlur={field.onBlur}
              error={form.error('manager_user_id')}
            />
          )}
        />
      </SimpleGrid>
      <LocationExtrasFields
        value={extras}
        onChange={changeExtras}
        errors={extraErrors}
        onBlur={() => {
          setChecked(true);
          void checkExtras(extras);
        }}
      />
    </ResourceFormShell>
  );
}
