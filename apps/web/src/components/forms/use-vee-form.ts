import type { FieldRules } from '@admin/shared';
import { displayName, validate } from '@admin/shared/validation';
import { useRef } from 'react';
import { type DefaultValues, type FieldErrors, type FieldValues, type Path, type Resolver, useForm } from 'react-hook-form';
import { ApiError } from '../../lib/http.ts';
import { generalMessage, placeFieldErrors } from './server-errors.ts';

export type { FieldRules };

/** The original console's error bag (`veeErrors`), read from the form's state. */
export type VeeErrors = {
  has(field: string): boolean;
  first(field: string): string | null;
  collect(field: string): string[];
  all(): string[];
  any(): boolean;
  count(): number;
};

/** The original console's field flags (`veeFields[name]`). */
export type VeeFieldFlags = {
  touched: boolean;
  untouched: boolean;
  dirty: boolean;
  pristine: boolean;
  valid: boolean | null;
  invalid: boolean | null;
  validated: boolean;
  pending: boolean;
  required: boolean;
  changed: boolean;
};

function messagesOf(errors: FieldErrors, field: string): string[] {
  const e = errors[field];
  if (!e) return [];
  const types = (e.types ?? {}) as Record<string, unknown>;
  const all = Object.values(types).flatMap((v) => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []));
  return all.length > 0 ? all : e.message ? [String(e.message)] : [];
}

const isRequired = (rules: string | Record<string, unknown>) =>
  typeof rules === 'string'
    ? rules.split('|').some((r) => r.split(':')[0] === 'required')
    : rules.required !== undefined && rules.required !== false;

/**
 * react-hook-form validated by the shared rule library, on change and on blur
 * (docs/overview.md, Shared vocabulary), with the same messages the server answers in 422s.
 * Exposes `veeErrors` and `veeFields` like the original, and `setServerErrors` to put a 422's
 * `errors` beside the fields. `check` adds the checks across fields. `normalize` turns what a person types into the stored form before
 * the rules run and before it is submitted (e.g. `+1 303 555 0142` → `+13035550142`).
 */
export function useVeeForm<T extends FieldValues>(options: {
  defaultValues: DefaultValues<T>;
  rules: FieldRules;
  /** Field → form label, so messages name fields as the form does ("The Code field …"), as the server's do. */
  names?: Record<string, string>;
  normalize?: Record<string, (value: unknown) => unknown>;
  /**
   * Checks across fields (e.g. `checkSurvey`, `checkFeed` in packages/shared), run with the rules
   * on every validation, so one submit shows every problem at once; a field's rule error comes first.
   */
  check?: (values: Record<string, unknown>) => Record<string, string[]>;
}) {
  const { rules } = options;
  const validated = useRef(new Set<string>());

  const resolver: Resolver<T> = async (typed, _context, { names }) => {
    const values = { ...typed } as Record<string, unknown>;
    for (const [field, normalize] of Object.entries(options.normalize ?? {})) values[field] = normalize(values[field]);
    const errors: Record<string, { type: string; message: string; types: Record<string, string[]> }> = {};
    const fields = names && names.length > 0 ? names.map(String) : Object.keys(rules);
    for (const field of Object.keys(rules)) {
      const fieldRules = rules[field];
      if (!fieldRules) continue;
      const result = await validate(values[field], fieldRules, {
        name: options.names?.[field] ?? displayName(field),
        values,
        bails: true,
      });
      if (fields.includes(field)) validated.current.add(field);
      if (!result.valid) {
        const [rule = 'invalid'] = Object.keys(result.failedRules);
        errors[field] = { type: rule, message: result.errors[0] ?? '', types: { [rule]: result.errors } };
      }
    }
    for (const [field, messages] of Object.entries(options.check?.(values) ?? {})) {
      const [first] = messages;
      if (errors[field] || first === undefined) continue;
      errors[field] = { type: 'check', message: first, types: { check: messages } };
    }
    // Submitted values are the resolver's, so the normalized ones are what is saved. FieldErrors<T>
    // is keyed by T's paths, which a record built from the rules' keys cannot be shown to match.
    return Object.keys(errors).length > 0
      ? { values: {}, errors: errors as unknown as FieldErrors<T> }
      : { values: values as T, errors: {} };
  };

  const form = useForm<T>({ defaultValues: options.defaultValues, resolver, mode: 'all', criteriaMode: 'all' });
  const { errors, touchedFields, dirtyFields, isValidating } = form.formState;

  // Built each render: react-hook-form updates `errors` in place, so a memo could go stale.
  const veeErrors: VeeErrors = {
    has: (f) => messagesOf(errors, f).length > 0,
    first: (f) => messagesOf(errors, f)[0] ?? null,
    collect: (f) => messagesOf(errors, f),
    all: () => Object.keys(errors).flatMap((f) => messagesOf(errors, f)),
    any: () => Object.keys(errors).length > 0,
    count: () => Object.keys(errors).reduce((n, f) => n + messagesOf(errors, f).length, 0),
  };

  const veeFields: Record<string, VeeFieldFlags> = {};
  for (const field of Object.keys(rules)) {
    const wasValidated = validated.current.has(field);
    const hasError = messagesOf(errors, field).length > 0;
    const touched = Boolean((touchedFields as Record<string, unknown>)[field]);
    const dirty = Boolean((dirtyFields as Record<string, unknown>)[field]);
    veeFields[field] = {
      touched,
      untouched: !touched,
      dirty,
      pristine: !dirty,
      valid: wasValidated ? !hasError : null,
      invalid: wasValidated ? hasError : null,
      validated: wasValidated,
      pending: isValidating,
      required: rules[field] ? isRequired(rules[field]) : false,
      changed: dirty,
    };
  }

  /** Whether a server error's field is one of this form's (its rules' or its values'). */
  const isField = (field: string) => field in rules || field in (options.defaultValues as object);

  /**
   * Shows a 400/422's `errors` beside their fields (an item's key, `allowed_ips.0`, beside its
   * list's field); returns the messages of the keys the form has no field for.
   */
  function setServerErrors(fieldErrors: Record<string, string[]>): string[] {
    const { byField, unplaced } = placeFieldErrors(fieldErrors, isField);
    for (const [field, messages] of Object.entries(byField)) {
      form.setError(field as Path<T>, { type: 'server', message: messages[0] ?? '', types: { server: messages } });
    }
    return unplaced;
  }

  /**
   * After a failed save: its field errors go beside their fields; returns the message to show
   * above the form (what no field can show), or null when every error found its field.
   */
  function errorFromSave(e: unknown): string | null {
    return generalMessage(e, e instanceof ApiError ? setServerErrors(e.fieldErrors) : []);
  }

  /** The values the user changed (for a PATCH). */
  function changedValues(values: T): Partial<T> {
    return Object.fromEntries(Object.keys(form.formState.dirtyFields).map((k) => [k, values[k]])) as Partial<T>;
  }

  return { form, veeErrors, veeFields, setServerErrors, errorFromSave, changedValues };
}
