import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const reputationRoutes: FastifyPluginAsyncZod = async () => {};
