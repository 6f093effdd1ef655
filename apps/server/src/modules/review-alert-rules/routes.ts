import { reviewAlertRuleResource } from '@admin/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { alertRuleRoutes } from '../../kit/alert-rules/routes.ts';
import { reviewAlertRuleKind } from './repository.ts';

/**
 * Review Alert Settings (`/api/review-alert-settings`, domain.md §11): the alert-rule kit's routes
 * for its kind (the resource, Recipient users' options, Duplicate). Send test is the engine's
 * (`POST …/:id/test`, apps/server/src/review-alerts/test-route.ts). Staff only (the access
 * plugin's default).
 */
export const reviewAlertRuleRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(alertRuleRoutes(reviewAlertRuleKind, reviewAlertRuleResource));
};
