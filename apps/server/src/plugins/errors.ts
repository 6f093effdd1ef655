import type { ErrorEnvelope } from '@admin/shared';
import type { FastifyError, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../lib/database-unavailable.ts';
import { fieldLabel, HttpError } from '../lib/http-error.ts';
import { isApiPath } from '../lib/request-path.ts';
import { writeAudit } from './audit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request ended in a server error: its class, for the System Logs row. */
    serverErrorClass: string | null;
  }
}

/**
 * One error envelope for everything (docs/overview.md, The API), and every 5xx in System Logs.
 *
 * System Logs rows keep only the request id, the route pattern and the error's class: driver
 * messages quote the failed SQL with its parameters (customer data), so the message, query and
 * stack go to the server log only, found by the same request id (docs/decisions/015).
 */
export const errorsPlugin = fp<{ indexHtml: string | null }>(
  async (app, { indexHtml }) => {
    app.decorateRequest('serverErrorClass', null);

    app.setErrorHandler(async (error: FastifyError, request, reply) => {
      const body = toErrorEnvelope(error, request.id, request.routeOptions.config?.labels);
      if (isDatabaseUnavailable(error)) {
        // Not a fault of this request: no System Logs row (the database it would go to is away).
        request.serverErrorClass = DATABASE_UNAVAILABLE;
        request.log.warn({ err: error }, 'database unavailable');
        return reply.code(body.statusCode).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send(body);
      }
      if (body.statusCode >= 500) {
        request.serverErrorClass = errorClass(error);
        request.log.error({ err: error }, 'request failed');
      }
      return reply.code(body.statusCode).send(body);
    });

    app.setNotFoundHandler((request, reply) => {
      if (indexHtml !== null && wantsConsolePage(request)) {
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
      }
      const body: ErrorEnvelope = {
        message: `Route ${request.method} ${request.url.split('?')[0] ?? request.url} not found.`,
        statusCode: 404,
      };
      return reply.code(404).send(body);
    });

    // Every 5xx, however it arose (handler, hook, serializer), leaves one row where staff look.
    app.addHook('onResponse', async (request, reply) => {
      if (reply.statusCode < 500 || request.serverErrorClass === DATABASE_UNAVAILABLE) return;
      await logServerError(request, reply.statusCode, request.serverErrorClass ?? 'UnknownError');
    });
  },
  { name: 'errors', dependencies: ['audit'] },
);

const DATABASE_UNAVAILABLE = 'DatabaseUnavailable';

/** Writes the safe System Logs row of a server error; never throws. */
export async function logServerError(request: FastifyRequest, statusCode: number, errorKind: string): Promise<void> {
  const route = request.routeOptions.url ?? '(no route)';
  await writeAudit(request.server.db, request, {
    level: 'error',
    service: 'api',
    action: 'http.error',
    message: `${request.method} ${route} → ${statusCode}: ${errorKind} (error id ${request.id})`,
    entityType: 'request',
    entityId: request.id,
  }).catch((err: unknown) => request.log.error({ err }, 'could not write the error to system logs'));
}

/** A short, data-free name for an error: its class and, for database errors, the SQLSTATE. */
export function errorClass(error: unknown): string {
  const name = error instanceof Error ? error.constructor.name : typeof error;
  const code = sqlState(error);
  return code ? `${name} (SQLSTATE ${code})` : name;
}

function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** How the envelope names the part of a request that failed its schema. */
const CONTEXT_NAMES: Partial<Record<string, string>> = { body: 'body', querystring: 'query', params: 'path', headers: 'headers' };

/** Maps any thrown error to the one error envelope; client mistakes never become a 500. */
export function toErrorEnvelope(
  error: FastifyError | HttpError | Error,
  errorId = '',
  /** The route's form labels (its `config.labels`): a refused body names its fields by them, as a 422 does. */
  labels?: Readonly<Record<string, string>>,
): ErrorEnvelope {
  if (error instanceof HttpError) {
    return { message: error.message, statusCode: error.statusCode, ...(error.errors ? { errors: error.errors } : {}) };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    // Field names come from the client: a Map, never a plain object's keys (`constructor`…).
    const errors = new Map<string, string[]>();
    const context = CONTEXT_NAMES[(error as FastifyError).validationContext ?? 'body'] ?? 'body';
    for (const issue of error.validation) {
      const keys = (issue.params as { keys?: unknown }).keys;
      const fields =
        issue.keyword === 'unrecognized_keys' && Array.isArray(keys)
          ? keys.map(String)
          : [issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || context];
      const message = issue.keyword === 'unrecognized_keys' ? 'This field is not allowed.' : (issue.message ?? 'Invalid value.');
      for (const field of fields) errors.set(field, [...(errors.get(field) ?? []), message]);
    }
    // A body's fields are a form's, so the message names them as the form labels them (an item of a
    // list, `allowed_ips.0`, by its list's label); a query's or a path's keep their keys.
    const names = context === 'body' && labels ? [...new Set([...errors.keys()].map((f) => fieldLabel(f, labels)))] : [...errors.keys()];
    const message = context === 'body' && labels ? `Please correct: ${names.join(', ')}.` : `Invalid ${context}: ${names.join(', ')}.`;
    return { message, statusCode: 400, errors: fieldErrors(errors) };
  }
  // A unique constraint that a pre-check missed (two requests racing) is a conflict, not a crash.
  if (sqlState(error) === '23505') return { message: 'This conflicts with an existing record.', statusCode: 409 };
  // PostgreSQL stopped, restarting or unreachable: the request may be repeated (with Retry-After).
  if (isDatabaseUnavailable(error))
    return { message: 'The database is unavailable for a moment. Please try again in a few seconds.', statusCode: 503 };
  const statusCode = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (statusCode >= 400 && statusCode < 500) {
    // Fastify's own client errors: malformed JSON, wrong content type, body too large, timeout …
    return { message: error.message, statusCode };
  }
  const reference = errorId ? ` Error id: ${errorId}.` : '';
  return { message: `Something went wrong on our side. The error has been logged.${reference}`, statusCode: 500 };
}

/**
 * The envelope's `errors` from client-named fields: an object without a prototype, so a field
 * called `__proto__` or `constructor` is just a key. JSON serialisation is unaffected.
 */
export function fieldErrors(errors: Map<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null);
  for (const [field, messages] of errors) out[field] = messages;
  return out;
}

/** Whether a request that matched no route should get the console's index.html (history-mode routing). */
function wantsConsolePage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (isApiPath(request.url)) return false;
  return (request.headers.accept ?? '').includes('text/html');
}
