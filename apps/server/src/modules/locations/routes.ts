import {
  LOCATION_MANAGER_OPTIONS_PATH,
  locationIdParamSchema,
  locationOptionsQuerySchema,
  locationResource,
  optionsAnswerSchema,
  optionsQuerySchema,
} from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireCurrentClientId } from '../../kit/current-client.ts';
import { resourceRoutes } from '../../kit/resource-routes.ts';
import { clientOptions, findLocation, locationOptions, locationStore, managerOptions } from './repository.ts';

const options = { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } };

/**
 * Locations, served as the original console's `endpoints` collection (docs/overview.md): the kit's routes for the definition
 * (the current client's by default, or the clients chosen in the filter), and the option lists of
 * its pickers and filters, paged on the server.
 */
export const locationRoutes: FastifyPluginAsyncZod = async (app) => {
  // The current client's locations for pickers (e.g. Personnel's Locations), paged by name.
  app.get('/api/endpoints/options', { schema: { ...options, querystring: locationOptionsQuerySchema } }, async (request) =>
    locationOptions(app.db, requireCurrentClientId(request), request.query),
  );
  // The Clients filter's options, paged on the server like every option list.
  app.get('/api/endpoints/client-options', { schema: options }, async (request) => clientOptions(app.db, request.query));
  // The Manager's options: a user of the location's client (the current one for a new location).
  app.get(LOCATION_MANAGER_OPTIONS_PATH, { schema: options }, async (request) =>
    managerOptions(app.db, requireCurrentClientId(request), request.query),
  );
  app.get(`${locationResource.path}/:id/options/manager`, { schema: { params: locationIdParamSchema, ...options } }, async (request) =>
    managerOptions(app.db, (await findLocation(app.db, request.params.id)).client_id, request.query),
  );
  await app.register(resourceRoutes(locationResource, locationStore));
};
