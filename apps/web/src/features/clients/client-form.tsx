import type { Client, ClientCreate } from '@admin/shared';
import { REVIEW_SITES } from '@admin/shared/constants';
import { clientFieldRules, INDUSTRIES, INDUSTRY_LABELS, MODULE_LABELS, MODULES } from '@admin/shared/resources/clients';
import { Alert, Button, Checkbox, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { defaultTimeZone, TimeZoneSelect } from '../../components/forms/time-zone-select.tsx';
import { type FieldRules, useVeeForm } from '../../components/forms/use-vee-form.ts';
import { usePanelForm } from '../../components/side-panel.tsx';
import { compactPhone } from '../../lib/format.ts';
import { api } from '../../lib/http.ts';

type FormValues = {
  name: string;
  industry: string;
  website: string;
  phone: string;
  address1: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  timezone: string;
  root_team_name: string;
  account_coordinator_id: string;
  primary_contact_name: string;
  primary_contact_email: string;
  modules: string[];
  default_review_site: string;
};

/** Form values → API body: empty optional text becomes null, the coordinator id a number. */
function toBody(v: Partial<FormValues>): ClientCreate {
  const body: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(v)) {
    if (k === 'account_coordinator_id') body[k] = value ? Number(value) : null;
    else if (k === 'modules') body[k] = value;
    else body[k] = typeof value === 'string' && value.trim() === '' ? null : value;
  }
  return body as ClientCreate;
}

function fromClient(c: Client | null): FormValues {
  return {
    name: c?.name ?? '',
    industry: c?.industry ?? '',
    website: c?.website ?? '',
    phone: c?.phone ?? '',
    address1: c?.address1 ?? '',
    city: c?.city ?? '',
    state: c?.state ?? '',
    postal_code: c?.postal_code ?? '',
    country: c?.country ?? 'US',
    timezone: c?.timezone ?? defaultTimeZone(),
    root_team_name: '',
    account_coordinator_id: c?.account_coordinator_id ? String(c.account_coordinator_id) : '',
    primary_contact_name: c?.primary_contact_name ?? '',
    primary_contact_email: c?.primary_contact_email ?? '',
    // The server's default (no modules): a new client sends nothing until someone turns a
    // module on, whether it is created here or through the API.
    modules: c?.modules ?? [],
    default_review_site: c?.default_review_site ?? 'google',
  };
}

// On create the root team defaults to the client's name, so it is not required in the form.
const { root_team_name: _rootTeam, status: _status, ...editRules } = clientFieldRules;
const createRules: FieldRules = { ...editRules, root_team_name: 'max:120' };

/** Create or edit a client. Rules run on change and blur; the server's 422/409 land on the fields. */
export function ClientForm(props: { client: Client | null; onSaved(client: Client, created: boolean): void; onCancel(): void }) {
  const editing = props.client !== null;
  const { form, veeErrors, errorFromSave, changedValues } = useVeeForm<FormValues>({
    defaultValues: fromClient(props.client),
    rules: editing ? (editRules as unknown as FieldRules) : createRules,
    // Phones may be typed grouped, as the hint shows; they are kept in E.164.
    normalize: { phone: compactPhone },
  });
  const [formError, setFormError] = useState<string | null>(null);
  const staff = useQuery({
    queryKey: ['staff-users'],
    queryFn: async () => (await api.get<{ data: { id: number; name: string }[] }>('/api/staff-users')).data,
    staleTime: 5 * 60_000,
  });
  const { register, control, handleSubmit, formState } = form;
  const err = (f: keyof FormValues) => veeErrors.first(f) ?? undefined;
  const cancel = usePanelForm(formState.isDirty, props.onCancel);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      if (props.client) {
        const changed = changedValues(values);
        const { data } = await api.patch<{ data: Client }>(`/api/clients/${props.client.id}`, {
          ...toBody(changed),
          updated_at: props.client.updated_at,
        });
        props.onSaved(data, false);
      } else {
        const { data } = await api.post<{ data: Client }>('/api/create-client', toBody(values));
        props.onSaved(data, true);
      }
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
        <TextInput label="Name" required {...register('name')} error={err('name')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Controller
            control={control}
            name="industry"
            render={({ field }) => (
              <Select
                label="Industry"
                required
                placeholder="Choose an industry"
                data={INDUSTRIES.map((i) => ({ value: i, label: INDUSTRY_LABELS[i] }))}
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? '')}
                onBlur={field.onBlur}
                error={err('industry')}
              />
            )}
          />
          <Controller
            control={control}
            name="timezone"
            render={({ field }) => (
              <TimeZoneSelect value={field.value} onChange={field.onChange} onBlur={field.onBlur} error={err('timezone')} />
            )}
          />
        </SimpleGrid>
        {!editing && (
          <TextInput
            label="Root team name"
            description="Defaults to the client's name"
            {...register('root_team_name')}
            error={err('root_team_name')}
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Website" placeholder="e.g. https://example.com" {...register('website')} error={err('website')} />
          <TextInput label="Phone" placeholder="e.g. +1 555 123 4567" {...register('phone')} error={err('phone')} />
        </SimpleGrid>
        <TextInput label="Address" {...register('address1')} error={err('address1')} />
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <TextInput label="City" {...register('city')} error={err('city')} />
          <TextInput label="State" placeholder="e.g. CO" {...register('state')} error={err('state')} />
          <TextInput label="Postal code" {...register('postal_code')} error={err('postal_code')} />
          <TextInput label="Country" {...register('country')} error={err('country')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Primary contact name" {...register('primary_contact_name')} error={err('primary_contact_name')} />
          <TextInput label="Primary contact email" {...register('primary_contact_email')} error={err('primary_contact_email')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Controller
            control={control}
            name="account_coordinator_id"
            render={({ field }) => (
              <Select
                label="Account Coordinator"
                placeholder="None"
                clearable
                searchable
                data={(staff.data ?? []).map((u) => ({ value: String(u.id), label: u.name }))}
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? '')}
                onBlur={field.onBlur}
                error={err('account_coordinator_id')}
              />
            )}
          />
          <Controller
            control={control}
            name="default_review_site"
            render={({ field }) => (
              <Select
                label="Default review site"
                required
                data={REVIEW_SITES.map((s) => ({ value: s.value, label: s.label }))}
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? '')}
                onBlur={field.onBlur}
                error={err('default_review_site')}
              />
            )}
          />
        </SimpleGrid>
        <Controller
          control={control}
          name="modules"
          render={({ field }) => (
            <Checkbox.Group label="Modules" value={field.value} onChange={field.onChange} error={err('modules')}>
              <Group mt={4}>
                {MODULES.map((m) => (
                  <Checkbox key={m} value={m} label={MODULE_LABELS[m]} />
                ))}
              </Group>
            </Checkbox.Group>
          )}
        />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={cancel}>
            Cancel
          </Button>
          <Button type="submit" loading={formState.isSubmitting}>
            {editing ? 'Save changes' : 'Create client'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
