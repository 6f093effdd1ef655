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
