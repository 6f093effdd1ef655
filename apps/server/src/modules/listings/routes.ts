import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const listingRoutes: FastifyPluginAsyncZod = async () => {};
