import type { FieldRules } from '@admin/shared';
import { displayName, validate } from '@admin/shared/validation';
import { fieldsRefused } from '../lib/http-error.ts';

export type { FieldRules };

/**
 * Runs the same rules the form runs (the shared validation library) on a request body and
 * answers 422 with every failing field's messages. `partial` checks only the fields present
 * (PATCH); `required` rules then apply to fields that are sent.
 */
export async function validateFields(
  body: Record<string, unknown>,
  rules: FieldRules,
  options: { partial?: boolean; names?: Record<string, string> } = {},
): Promise<void> {
  const errors: Record<string, string[]> = {};
  for (const [field, fieldRules] of Object.entries(rules)) {
    if (options.partial && !Object.hasOwn(body, field)) continue;
    // Messages name the field as its form labels it ("The Store code field …"), like vee-validate's attributes.
    const result = await validate(body[field], fieldRules, { name: options.names?.[field] ?? displayName(field), values: body });
    if (!result.valid) errors[field] = result.errors;
  }
  if (Object.keys(errors).length > 0) throw fieldsRefused(errors, options.names);
}
