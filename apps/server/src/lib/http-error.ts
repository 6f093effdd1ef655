import { displayName } from '@admin/shared/validation';

/**
 * An error that becomes the error envelope `{ message, statusCode, errors? }`.
 * Throw it from handlers and repositories; the app's error handler renders it.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} not found.`);
export const conflict = (message: string, errors?: Record<string, string[]>) => new HttpError(409, message, errors);

/**
 * How a message names a field: as its form labels it (`labels`, e.g. a definition's `labels`),
 * a nested path (`hours.mon.0`) by its top-level field's label. Only a field with no label falls
 * back to its key with spaces (`displayName`), and an unlabelled nested path to the path itself.
 * Field names may come from the client, so `labels` is read by own keys only (never `constructor`).
 */
export function fieldLabel(field: string, labels: Readonly<Record<string, string>> = {}): string {
  const top = field.split('.')[0] ?? field;
  const label = Object.hasOwn(labels, top) ? labels[top] : undefined;
  if (label !== undefined) return label;
  return top === field ? displayName(field) : field;
}

/**
 * The 422 of fields refused, its message naming them as the form labels them ("Please correct:
 * Location name, Address line 1."): the browser shows it when an error has no field on the form
 * (apps/web/src/components/forms/use-vee-form.ts), so it never names a column.
 */
export function fieldsRefused(errors: Record<string, string[]>, labels: Readonly<Record<string, string>> = {}): HttpError {
  const names = new Set(Object.keys(errors).map((field) => fieldLabel(field, labels)));
  return new HttpError(422, `Please correct: ${[...names].join(', ')}.`, errors);
}
