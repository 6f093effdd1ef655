import { clientIdParamSchema, clientSchema, dataEnvelope, rootTeamSchema } from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/http-error.ts';
import { findClient, listRootTeams, toClient } from './repository.ts';

export const clientRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/client-root-teams',
    { config: { access: 'superadmin' }, schema: { response: { 200: dataEnvelope(z.array(rootTeamSchema)) } } },
    async () => ({ data: await listRootTeams(app.db) }),
  );

  app.get(
    '/api/clients/:id',
    {
      config: { access: 'superadmin' },
      schema: { params: clientIdParamSchema, response: { 200: dataEnvelope(clientSchema) } },
    },
    async (request) => {
      const row = await findClient(app.db, request.params.id);
      if (!row) throw notFound('Client');
      return { data: toClient(row) };
    },
  );
};
