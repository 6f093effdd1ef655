import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reviewLinkRoutes } from './public-routes.ts';
import { amplificationStaffRoutes } from './staff-routes.ts';

/** Review invitations: the public `/r/{token}` link and the staff actions on an amplification (issue 21, items 2–3). */
export const amplificationRoutes: FastifyPluginAsyncZod<{ now: () => Date }> = async (app, { now }) => {
  await app.register(reviewLinkRoutes, { now });
  await app.register(amplificationStaffRoutes);
};
