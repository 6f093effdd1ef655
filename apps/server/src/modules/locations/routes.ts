import { locationResource, optionsAnswerSchema, optionsQuerySchema } from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireCurrentClientId } from '../../kit/current-client.ts';
import { resourceRoutes } from '../../kit/resource-routes.ts';
import { clientOptions, locationOptions, locationStore } from './repository.ts';

const options = { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } };

/**
 * Locations, served as the spec's `endpoints` collection: the kit's routes for the definition
 * (the current client's by default, or the clients chosen in the filter), and two option lists.
 */
export const locationRoutes: FastifyPluginAsyncZod = async (app) => {
  // The current client's locations for pickers (e.g. Personnel's Locations), paged by name.
  app.get('/api/endpoints/options', { schema: options }, async (request) =>
    locationOptions(app.db, requireCurrentClientId(request), request.query),
  );
  // The Clients filter's options, paged on the server like every option list.
  app.get('/api/endpoints/client-options', { schema: options }, async (request) => clientOptions(app.db, request.query));
  await app.register(resourceRoutes(locationResource, locationStore));
};
