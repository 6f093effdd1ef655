import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const reviewAlertRuleRoutes: FastifyPluginAsyncZod = async () => {};
