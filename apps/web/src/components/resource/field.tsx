import { Alert, Button, Checkbox, Group, Select, SimpleGrid, type SimpleGridProps, Stack, Textarea, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { Controller } from 'react-hook-form';
import { TimeZoneSelect } from '../forms/time-zone-select.tsx';
import type { ResourceForm } from './use-resource-form.ts';

const isRequired = (rules: string | Record<string, unknown> | undefined) =>
  typeof rules === 'string'
    ? rules.split('|').some((r) => r.split(':')[0] === 'required')
    : rules?.required !== undefined && rules.required !== false;

/**
 * One field of a resource's form, as its definition describes it: the label, the input for its
 * kind (text, textarea, select, checkbox, time zone), the required mark, the placeholder and the message.
 */
export function Field({
  form,
  name,
  description,
  label,
  required,
}: {
  form: ResourceForm;
  name: string;
  description?: ReactNode;
  label?: string;
  /** Marked required where its rules alone cannot say (required only in some mode). */
  required?: boolean;
}) {
  const spec = form.def.fields[name];
  if (!spec) throw new Error(`No field ${name} in ${form.def.name}`);
  const common = {
    label: label ?? spec.label,
    description,
    required: required ?? isRequired(spec.rules),
    placeholder: spec.placeholder,
    error: form.error(name),
  };
  if (spec.input === 'textarea') return <Textarea autosize minRows={2} {...common} {...form.form.register(name)} />;
  if (spec.input === 'checkbox') {
    return (
      <Controller
        control={form.form.control}
        name={name}
        render={({ field }) => (
          <Checkbox
            label={common.label}
            description={description}
            error={common.error}
            checked={field.value === true}
            onChange={(e) => field.onChange(e.currentTarget.checked)}
            onBlur={field.onBlur}
          />
        )}
      />
    );
  }
  if (spec.input === 'timezone') {
    return (
      <Controller
        control={form.form.control}
        name={name}
        render={({ field }) => (
          <TimeZoneSelect
            value={typeof field.value === 'string' ? field.value : ''}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={common.error}
          />
        )}
      />
    );
  }
  if (spec.input === 'select') {
    return (
      <Controller
        control={form.form.control}
        name={name}
        render={({ field }) => (
          <Select
            {...common}
            data={spec.options ? [...spec.options] : []}
            value={typeof field.value === 'string' && field.value !== '' ? field.value : null}
            onChange={(v) => field.onChange(v ?? '')}
            onBlur={field.onBlur}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
    );
  }
  return <TextInput {...common} {...form.form.register(name)} />;
}

/** Fields side by side, stacking as the screen narrows (two to a row unless `cols` says otherwise). */
export function FieldRow({
  form,
  names,
  cols = { base: 1, sm: 2 },
}: {
  form: ResourceForm;
  names: string[];
  cols?: SimpleGridProps['cols'];
}) {
  return (
    <SimpleGrid cols={cols}>
      {names.map((name) => (
        <Field key={name} form={form} name={name} />
      ))}
    </SimpleGrid>
  );
}

/** City, state, postal code and country: one row on wide screens, two on phones. */
export const CITY_LINE = { names: ['city', 'state', 'postal_code', 'country'], cols: { base: 2, sm: 4 } };

/**
 * A resource's form: the save error above, the fields (each of the definition's, in order, unless
 * `children` lays them out), Cancel and the submit button ("Create product" / "Save changes").
 */
export function ResourceFormShell({ form, children }: { form: ResourceForm; children?: ReactNode }) {
  const fields = form.def.fieldNames.filter((n) => !(form.record && form.def.fields[n]?.createOnly));
  return (
    <form onSubmit={form.submit} noValidate>
      <Stack gap="sm">
        {form.formError && (
          <Alert color="red" variant="light" role="alert">
            {form.formError}
          </Alert>
        )}
        {children ?? fields.map((name) => <Field key={name} form={form} name={name} />)}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={form.cancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.form.formState.isSubmitting}>
            {form.record ? 'Save changes' : `Create ${form.def.noun}`}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
