import type { FastifyRequest } from 'fastify';
import { HttpError } from '../lib/http-error.ts';

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
    if (clientId) throw new HttpError(422, 'Please correct: client_id.', { client_id: ['The client does not exist'] });
    throw noCurrentClient();
  }
  if (client.status === 'inactive') {
    throw new HttpError(409, `${client.name} is archived; restore it first.`, { client: ['The client is archived'] });
  }
  return client;
}
