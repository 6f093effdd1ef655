import type { ErrorEnvelope } from '@admin/shared';
import { CLIENT_HEADER, CURRENT_CLIENT_HEADER } from '@admin/shared/constants';
import { runtimeConfig } from './runtime-config.ts';
import { authorizationHeader, readStoredClient } from './session-storage.ts';

/** A failed call, carrying the server's error envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorEnvelope,
  ) {
    super(body.message);
  }
  /** Field errors for a form, e.g. `{ email: ["The email field must be a valid email"] }`. */
  get fieldErrors(): Record<string, string[]> {
    return this.body.errors ?? {};
  }
}

/**
 * A failed action's messages for a small form: each field's first error under its key, or the
 * whole message under `''` when the server named no field.
 */
export function messagesOf(e: unknown): Record<string, string> {
  const message = e instanceof Error ? e.message : String(e);
  const fields = e instanceof ApiError ? Object.entries(e.fieldErrors) : [];
  return fields.length > 0 ? Object.fromEntries(fields.map(([k, v]) => [k, v[0] ?? message])) : { '': message };
}

export type Host = 'api' | 'reputation' | 'identity';

type RequestOptions = {
  host?: Host;
  query?: Record<string, string | number | readonly string[] | null | undefined>;
  body?: unknown;
  /** A file sent as it is, in place of a JSON body (a big CSV is read by the server as it arrives). */
  file?: { data: Blob; contentType: string };
  /** A bearer token to use instead of the stored one (the sign-in flow). */
  token?: string;
  /**
   * The client the call names (`X-Client-Id`): by default the one this tab shows; `null` names none
   * (reading a client by its id while the tab changes client).
   */
  clientId?: number | null;
  signal?: AbortSignal;
};

let onUnauthorized: (() => void) | null = null;
/** What to do when a signed-in call answers 401: clear the session, go to /login. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

let onClientMismatch: ((currentClientId: number) => void) | null = null;
/**
 * What to do when the server refuses a call because the user's current client is no longer the
 * one this tab shows (409 with `X-Current-Client-Id`, apps/server/src/plugins/client-scope.ts).
 */
export function setClientMismatchHandler(handler: ((currentClientId: number) => void) | null): void {
  onClientMismatch = handler;
}

/**
 * The header naming the client a call is for: by default the one this tab shows, so the server
 * never reads or writes another one (issue 19); `null` names none.
 */
export function clientHeaders(clientId?: number | null): Record<string, string> {
  const id = clientId === undefined ? (readStoredClient(window.sessionStorage)?.id ?? null) : clientId;
  return id === null ? {} : { [CLIENT_HEADER]: String(id) };
}

/** Tells the mismatch handler when a refusal (409) names the server's current client. */
export function reportClientMismatch(response: Response): void {
  const current = Number(response.headers.get(CURRENT_CLIENT_HEADER));
  if (response.status === 409 && current > 0 && onClientMismatch) onClientMismatch(current);
}

function baseUrl(host: Host): string {
  const c = runtimeConfig();
  return host === 'identity' ? c.identityBaseUrl : host === 'reputation' ? c.reputationBaseUrl : c.apiBaseUrl;
}

/** Query string without empty values (docs/overview.md, Shared vocabulary: empty values are left out). */
export function queryString(query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === null || value === undefined || value === '') continue;
    if (Array.isArray(value)) {
      for (const v of value) if (v !== '') params.append(key, v);
    } else {
      params.append(key, String(value));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The HTTP client. No timeout (docs/overview.md, The shell): a slow report is waited for, and the
 * caller can abort with `signal`. The bearer header comes from session storage, quotes removed.
 */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const auth = options.token ? `Bearer ${options.token}` : authorizationHeader(window.sessionStorage);
  if (auth) headers.authorization = auth;
  Object.assign(headers, clientHeaders(options.clientId));
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.file) headers['content-type'] = options.file.contentType;
  const url = `${baseUrl(options.host ?? 'api')}${path}${queryString(options.query)}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: options.file ? options.file.data : options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'include',
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, { message: 'The server could not be reached. Check your connection and try again.', statusCode: 0 });
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const envelope = isEnvelope(body) ? body : { message: `Request failed (${response.status}).`, statusCode: response.status };
    if (response.status === 401 && auth && onUnauthorized) onUnauthorized();
    reportClientMismatch(response);
    throw new ApiError(response.status, envelope);
  }
  return body as T;
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  return typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string';
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
  /** POSTs a file as its own body (`text/csv`), with its name in the query. */
  upload: <T>(path: string, file: File, contentType = 'text/csv') =>
    request<T>('POST', path, { file: { data: file, contentType }, query: { file_name: file.name } }),
};
