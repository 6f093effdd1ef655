import { ALL_CLIENTS } from '@admin/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { fieldsRefused, HttpError } from '../lib/http-error.ts';
import { inList } from './keyset.ts';

/** The one answer, on every client-scoped route, when the signed-in user has no current client. */
export const NO_CURRENT_CLIENT = 'Choose a client first (client switcher).';

const noCurrentClient = () => new HttpError(409, NO_CURRENT_CLIENT, { client: ['No client is chosen'] });

/**
 * The signed-in user's current client id, or 409 with `NO_CURRENT_CLIENT`: a guard that throws
 * the HTTP error and returns the narrowed value, so handlers read straight on.
 */
export function requireCurrentClientId(request: FastifyRequest): number {
  const id = request.auth?.user.currentClientId;
  if (!id) throw noCurrentClient();
  return id;
}

/**
 * The client new records are written to (the current one unless `clientId` names another): it
 * must exist (else 409 as above, or 422 on the named field) and not be archived (409).
 */
export async function requireWritableClient(request: FastifyRequest, clientId?: number | null) {
  const id = clientId ?? requireCurrentClientId(request);
  const client = await request.server.clients.find(id);
  if (!client) {
    // Named as the forms that choose another client label it (Locations' Client, Duplicate's client).
    if (clientId) throw fieldsRefused({ client_id: ['The client does not exist'] }, { client_id: 'Client' });
    throw noCurrentClient();
  }
  if (client.status === 'inactive') {
    throw new HttpError(409, `${client.name} is archived; restore it first.`, { client: ['The client is archived'] });
  }
  return client;
}

/** The clients a list of a `filterable-clients` screen shows: ids, or `all` (every client). */
export type ClientScope = number[] | typeof ALL_CLIENTS;

/**
 * The Clients filter when given (`all` = every client), else the current client: 409 without one
 * (docs/decisions/018-locations-every-client.md).
 */
export function clientScopeOf(
  client: readonly (string | number)[] | typeof ALL_CLIENTS | undefined,
  currentClientId: number | null,
): ClientScope {
  if (client === ALL_CLIENTS) return ALL_CLIENTS;
  if (client && client.length > 0) return client.map(Number);
  if (currentClientId === null) throw noCurrentClient();
  return [currentClientId];
}

/** The condition a scope puts on a table's client column (none for every client). */
export function inClientScope(column: PgColumn, scope: ClientScope): SQL | undefined {
  if (scope === ALL_CLIENTS) return undefined;
  return scope.length > 0 ? inList(sql`${column}`, scope) : sql`false`;
}
