import type { ReferralSource, ReferralSourceCreate } from '@admin/shared';
import { REFERRAL_TYPE_LABELS, REFERRAL_TYPES, referralSourceFieldRules } from '@admin/shared/resources/referral-sources';
import { Alert, Button, Checkbox, Group, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { type FieldRules, useVeeForm } from '../../components/forms/use-vee-form.ts';
import { usePanelForm } from '../../components/side-panel.tsx';
import { api } from '../../lib/http.ts';

type FormValues = { name: string; code: string; type: string };

const toBody = (v: Partial<FormValues>) =>
  Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x.trim() === '' ? null : x.trim()])) as ReferralSourceCreate;

/** Create or edit a referral source; a new one belongs to the current client or is global. */
export function ReferralSourceForm(props: {
  source: ReferralSource | null;
  clientName: string;
  onSaved(s: ReferralSource): void;
  onCancel(): void;
}) {
  const s = props.source;
  const { form, veeErrors, errorFromSave, changedValues } = useVeeForm<FormValues>({
    defaultValues: { name: s?.name ?? '', code: s?.code ?? '', type: s?.type ?? '' },
    rules: referralSourceFieldRules as unknown as FieldRules,
  });
  const [global, setGlobal] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const { register, control, handleSubmit, formState } = form;
  const err = (f: keyof FormValues) => veeErrors.first(f) ?? undefined;
  const cancel = usePanelForm(formState.isDirty || global, props.onCancel);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const { data } = s
        ? await api.patch<{ data: ReferralSource }>(`/api/referral-source/${s.id}`, {
            ...toBody(changedValues(values)),
            updated_at: s.updated_at,
          })
        : await api.post<{ data: ReferralSource }>('/api/referral-source', { ...toBody(values), global });
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
        {(s?.client_id === null || global) && (
          <Alert color="orange" variant="light" title="Global default" role="note">
            {s
              ? 'This referral source is shared by every client. Your changes apply to all clients at once.'
              : 'A global default is shared by every client. Later changes to it apply to all clients at once.'}
          </Alert>
        )}
        <TextInput label="Name" required {...register('name')} error={err('name')} />
        <TextInput label="Code" required {...register('code')} error={err('code')} />
        <Controller
          control={control}
          name="type"
          render={({ field }) => (
            <Select
              label="Type"
              required
              data={REFERRAL_TYPES.map((t) => ({ value: t, label: REFERRAL_TYPE_LABELS[t] }))}
              value={field.value || null}
              onChange={(v) => field.onChange(v ?? '')}
              onBlur={field.onBlur}
              error={err('type')}
            />
          )}
        />
        {!s && (
          <Checkbox
            label={`Global default for all clients (otherwise only ${props.clientName})`}
            checked={global}
            onChange={(e) => setGlobal(e.currentTarget.checked)}
          />
        )}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={cancel}>
            Cancel
          </Button>
          <Button type="submit" loading={formState.isSubmitting}>
            {s ? 'Save changes' : 'Create referral source'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
