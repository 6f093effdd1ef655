import { clientResource, dataEnvelope, rootTeamSchema } from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resourceRoutes } from '../../kit/resource-routes.ts';
import { clientStore, listRootTeams } from './repository.ts';

/** Client Manager: the kit's routes for the definition (collection `/api/create-client`, record `/api/clients/{id}`). */
export const clientRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/client-root-teams',
    { config: { anyClient: true }, schema: { response: { 200: dataEnvelope(z.array(rootTeamSchema)) } } },
    async () => ({
      data: await listRootTeams(app.db),
    }),
  );
  await app.register(resourceRoutes(clientResource, clientStore));
};
