import { isIdText, type OptionsQuery, optionsAnswerSchema, optionsQuerySchema, surveyAlertRuleResource } from '@admin/shared';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { surveys } from '../../db/schema/index.ts';
import { alertRuleRoutes } from '../../kit/alert-rules/routes.ts';
import { requireCurrentClientId } from '../../kit/current-client.ts';
import { pagedOptions } from '../../kit/options.ts';
import { surveyAlertRuleKind } from './repository.ts';

const path = surveyAlertRuleResource.path;

/** The client's surveys (archived ones left out), paged: the Surveys field and filter. */
const surveyOptions = (db: Db, clientId: number, q: OptionsQuery) =>
  pagedOptions(
    db,
    q,
    {
      value: sql`${surveys.id}`,
      label: sql`${surveys.name}`,
      from: sql`${surveys}`,
      where: sql`${surveys.clientId} = ${clientId} and ${surveys.status} <> 'inactive'`,
    },
    isIdText,
  );

/**
 * Survey Alert Settings (`/api/survey-alert-settings`): the alert-rule kit's routes for its kind
 * (the resource, Recipient users' options, Duplicate) and the options of its Surveys. Test is the
 * alert engine's (`POST …/:id/test`).
 */
export const surveyAlertRuleRoutes: FastifyPluginAsyncZod = async (app) => {
  const options = { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } };
  app.get(`${path}/survey-options`, { schema: options }, async (request) =>
    surveyOptions(app.db, requireCurrentClientId(request), request.query),
  );
  await app.register(alertRuleRoutes(surveyAlertRuleKind, surveyAlertRuleResource));
};
