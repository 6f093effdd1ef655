import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const amplificationRoutes: FastifyPluginAsyncZod = async () => {};
