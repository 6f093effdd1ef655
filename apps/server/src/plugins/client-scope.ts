import { CLIENT_HEADER, CURRENT_CLIENT_HEADER } from '@admin/shared/constants';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/http-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route reads or changes no client's data through the current client (the switch itself,
     * the switcher's list), so a tab showing another client than the current one may still call it.
     */
    anyClient?: boolean;
  }
}

/** A client's name for the message, or its id when it is gone. */
async function nameOf(find: (id: number) => Promise<{ name: string } | undefined>, id: number | null): Promise<string> {
  if (id === null) return 'no client';
  return (await find(id))?.name ?? `client ${id}`;
}

/**
 * The console names, on every call, the client its tab shows (`X-Client-Id`); the server scopes a
 * session's data by the user's one current client, which another tab may have switched meanwhile.
 * A call naming another client than the current one is refused with 409 before anything is read
 * or written, so nothing lands under a client the tab does not show (issue 19, item 1). The answer
 * carries the current client's id (`X-Current-Client-Id`) so the tab can offer to show it. Calls
 * without the header (API tokens, scripts) are scoped as before.
 */
export const clientScopePlugin = fp(
  async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      const auth = request.auth;
      const named = request.headers[CLIENT_HEADER];
      if (!auth || named === undefined || request.routeOptions.config.anyClient) return;
      const shown = typeof named === 'string' && /^[1-9]\d{0,9}$/.test(named) ? Number(named) : null;
      if (shown === null) throw new HttpError(400, `The ${CLIENT_HEADER} header must be a client id.`);
      const current = auth.user.currentClientId;
      if (shown === current) return;
      const find = (id: number) => app.clients.find(id);
      const [shownName, currentName] = await Promise.all([nameOf(find, shown), nameOf(find, current)]);
      if (current !== null) reply.header(CURRENT_CLIENT_HEADER, String(current));
      throw new HttpError(
        409,
        `This tab shows ${shownName}, but your current client is now ${currentName} (switched in another tab or window). ` +
          `Nothing was read or saved: choose the client in this tab, then try again.`,
      );
    });
  },
  { name: 'client-scope', dependencies: ['auth', 'clients-repository'] },
);
