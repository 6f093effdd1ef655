import { displayName, validate } from '@admin/shared/validation';
import { HttpError } from '../lib/http-error.ts';

/** Field name → vee-validate rules, e.g. `{ name: 'required|max:120', website: 'url' }`. */
export type FieldRules = Record<string, string | Record<string, unknown>>;

/**
 * Runs the same rules the form runs (the shared validation library) on a request body and
 * answers 422 with every failing field's messages. `partial` checks only the fields present
 * (PATCH); `required` rules then apply to fields that are sent.
 */
export async function validateFields(body: Record<string, unknown>, rules: FieldRules, options: { partial?: boolean } = {}): Promise<void> {
  const errors: Record<string, string[]> = {};
  for (const [field, fieldRules] of Object.entries(rules)) {
    if (options.partial && !(field in body)) continue;
    const result = await validate(body[field], fieldRules, { name: displayName(field), values: body });
    if (!result.valid) errors[field] = result.errors;
  }
  if (Object.keys(errors).length > 0) {
    throw new HttpError(422, `Please correct: ${Object.keys(errors).join(', ')}.`, errors);
  }
}
