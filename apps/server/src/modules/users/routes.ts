import {
  dataEnvelope,
  optionsAnswerSchema,
  optionsQuerySchema,
  switchClientParamSchema,
  userIdParamSchema,
  userListEntrySchema,
  userSchema,
} from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, notFound } from '../../lib/http-error.ts';
import { listClientUsers, listStaffUsers, setCurrentClient, staffOptions } from './repository.ts';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/clients-user-list',
    { config: { access: 'superadmin' }, schema: { response: { 200: dataEnvelope(z.array(userListEntrySchema)) } } },
    async (request) => {
      const clientId = request.auth?.user.currentClientId;
      return { data: clientId ? await listClientUsers(app.db, clientId) : [] };
    },
  );

  // Staff accounts (who sign in here): the options of Account Coordinator and similar pickers.
  app.get(
    '/api/staff-users',
    { config: { access: 'superadmin' }, schema: { response: { 200: dataEnvelope(z.array(userListEntrySchema)) } } },
    async () => ({ data: await listStaffUsers(app.db) }),
  );
  // The same, paged on the server as the user types: the staff grows with the team.
  app.get(
    '/api/staff-users/options',
    { config: { access: 'superadmin' }, schema: { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } } },
    async (request) => staffOptions(app.db, request.query),
  );

  app.get(
    '/api/get-user/:id',
    { config: { access: 'superadmin' }, schema: { params: userIdParamSchema, response: { 200: dataEnvelope(userSchema) } } },
    async (request) => {
      const user = await app.identity.findUser(request.params.id);
      if (!user) throw notFound('User');
      return { data: user };
    },
  );

  app.put(
    '/api/users/switch-client/:clientId',
    {
      // A tab showing another client than the current one switches too (to its own, or to the current one).
      config: { access: 'superadmin', anyClient: true },
      schema: { params: switchClientParamSchema, response: { 200: dataEnvelope(userSchema) } },
    },
    async (request) => {
      const auth = request.auth;
      if (!auth) throw new HttpError(401, 'Sign-in required.');
      const { clientId } = request.params;
      const client = await app.clients.find(clientId);
      if (!client) throw notFound('Client');
      if (client.status === 'inactive') {
        throw new HttpError(409, `${client.name} is archived. Restore it before switching to it.`, {
          clientId: ['The client is archived.'],
        });
      }
      const before = auth.user.currentClientId;
      const updated = await app.db.transaction(async (tx) => {
        const row = await setCurrentClient(tx, auth.user.id, clientId);
        await request.audit(
          {
            action: 'user.switch_client',
            message: `Switched current client to ${client.name}`,
            clientId,
            entityType: 'user',
            entityId: auth.user.id,
            before: { current_client_id: before },
            after: { current_client_id: clientId },
          },
          tx,
        );
        return row;
      });
      if (!updated) throw notFound('User');
      return { data: app.identity.toUser(updated) };
    },
  );
};
