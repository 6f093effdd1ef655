import type { ResourceView } from '@admin/shared';
import { useState } from 'react';
import type { DefaultValues } from 'react-hook-form';
import { api } from '../../lib/http.ts';
import { useVeeForm } from '../forms/use-vee-form.ts';
import { usePanelForm } from '../side-panel.tsx';

/** A form's values: text as typed, checkboxes as booleans, multi-selects as lists. */
export type FormValues = Record<string, string | boolean | string[]>;
/** A record a form edits: it has an id and a version stamp (stale writes are refused). */
export type Editable = { id?: number | string; updated_at: string };

/** A record's id as its paths write it: its `id`, or the property the definition names (`_id`). */
export function recordId(def: { id?: string }, row: object): string {
  const key = def.id ?? 'id';
  return String(Object.entries(row).find(([k]) => k === key)?.[1] ?? '');
}

export type ResourceFormProps<Row extends Editable> = {
  /** The record to edit, or null to create one. */
  record: Row | null;
  onSaved(row: Row): void;
  onCancel(): void;
};

/** Text is trimmed and empty text is sent as null; other values as they are. */
export function bodyOf(values: Partial<FormValues>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v]));
}

function initialValue(
  row: object | null,
  name: string,
  fallback: ResourceView<unknown>['defaults'][string] | undefined,
  checkbox: boolean,
) {
  const own = row ? Object.entries(row).find(([key]) => key === name)?.[1] : undefined;
  const value = own ?? fallback;
  if (checkbox) return value === true;
  if (Array.isArray(value)) return value.map(String);
  return value === null || value === undefined ? '' : String(value);
}

/**
 * A create or edit form for one record of a resource: its fields' values (the record's, else the
 * definition's defaults), the shared rules with messages naming each field by its label, the save
 * (`POST <path>` or `PATCH <path>/<id>` with only the changed fields and `updated_at`), the server's
 * field errors beside their fields, and a Cancel that asks before discarding changes.
 */
export function useResourceForm<Row extends Editable>(
  def: ResourceView<Row>,
  props: ResourceFormProps<Row>,
  options: {
    /** Values that are not the record's own columns (e.g. ids of related records). */
    initial?: Partial<FormValues>;
    normalize?: Record<string, (value: unknown) => unknown>;
    /** Checks across fields, run with the rules (useVeeForm's `check`): one submit shows every problem. */
    check?: (values: Record<string, unknown>) => Record<string, string[]>;
    /** Turns the values into the request body when they are not sent as typed. */
    toBody?: (values: Partial<FormValues>) => Record<string, unknown>;
  } = {},
) {
  const record = props.record;
  const names = def.fieldNames.filter((n) => !(record && def.fields[n]?.createOnly));
  const defaultValues: FormValues = {};
  for (const name of names) {
    defaultValues[name] = initialValue(record, name, def.defaults[name], def.fields[name]?.input === 'checkbox');
  }
  const vee = useVeeForm<FormValues>({
    defaultValues: { ...defaultValues, ...options.initial } as DefaultValues<FormValues>,
    // Only the fields this form has: a create-only field (e.g. a required status) is no field of an edit.
    rules: Object.fromEntries(Object.entries(def.rules).filter(([name]) => names.includes(name))),
    names: def.labels,
    ...(options.normalize ? { normalize: options.normalize } : {}),
    ...(options.check ? { check: options.check } : {}),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const cancel = usePanelForm(vee.form.formState.isDirty, props.onCancel);
  const toBody = options.toBody ?? bodyOf;

  const submit = vee.form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const { data } = record
        ? await api.patch<{ data: Row }>(`${def.recordPath ?? def.path}/${recordId(def, record)}`, {
            ...toBody(vee.changedValues(values)),
            updated_at: record.updated_at,
          })
        : await api.post<{ data: Row }>(def.path, toBody(values));
      props.onSaved(data);
    } catch (e) {
      setFormError(vee.errorFromSave(e));
    }
  });

  return {
    ...vee,
    def,
    record,
    formError,
    submit,
    cancel,
    /** The message beside a field, if any. */
    error: (name: string) => vee.veeErrors.first(name) ?? undefined,
  };
}

export type ResourceForm = ReturnType<typeof useResourceForm>;
