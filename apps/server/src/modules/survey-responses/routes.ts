import { cellValue, dataEnvelope, idParamSchema, listEnvelope, optionsAnswerSchema, optionsQuerySchema } from '@admin/shared';
import {
  responseExclusionSchema,
  type SurveyResponse,
  surveyResponseDetailSchema,
  surveyResponseResource,
} from '@admin/shared/resources/survey-responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvFileName, sendCsv } from '../../kit/csv.ts';
import { notFound } from '../../lib/http-error.ts';
import { clientOptions, countResponses, findResponse, listPage, locationOptions, setExcluded, surveyOptions } from './repository.ts';

const def = surveyResponseResource;
const EXPORT_BATCH = 2000;
const options = { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } };

/**
 * Survey Manager: read-mostly over the responses the public page recorded (apps/server/src/public).
 * The routes are this module's own, as Tracking Logs' are: the kit's `resourceRoutes` always adds
 * create, edit and status routes, and a response is never created or edited here. The one change is
 * Exclude / Include in reporting, with a reason, audited.
 */
export const surveyResponseRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    def.path,
    { schema: { querystring: def.listQuerySchema, response: { 200: listEnvelope(def.record).extend({ totalIsEstimate: z.boolean() }) } } },
    async (request) => {
      const q = request.query;
      const [{ rows, nextCursor }, totals] = await Promise.all([listPage(app.db, q, q.perPage), countResponses(app.db, q)]);
      return { data: rows, nextCursor, ...totals };
    },
  );

  app.get(`${def.path}/export`, { schema: { querystring: def.exportQuerySchema } }, async (request, reply) => {
    const { columns: chosen, cursor: _ignored, perPage: _perPage, ...q } = request.query;
    const columns = chosen
      ? chosen.map((key) => def.columns.find((c) => c.key === key)).filter((c) => c !== undefined)
      : def.columns.filter((c) => c.defaultVisible);
    const db = app.db;
    async function* batches() {
      let cursor: string | undefined;
      do {
        const page = await listPage(db, { ...q, ...(cursor ? { cursor } : {}) }, EXPORT_BATCH);
        yield page.rows.map((row) => Object.fromEntries(columns.map((c) => [c.key, cellValue<SurveyResponse>(c, row)])));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    }
    await request.audit({
      action: 'survey_responses.export',
      message: 'Exported survey responses as CSV',
      entityType: 'survey_response',
      after: q,
    });
    return sendCsv(reply, csvFileName(def.screen), columns, batches());
  });

  app.get(`${def.path}/options/client`, { schema: options }, async (request) => clientOptions(app.db, request.query));
  app.get(`${def.path}/options/location`, { schema: options }, async (request) => locationOptions(app.db, request.query));
  app.get(`${def.path}/options/survey`, { schema: options }, async (request) => surveyOptions(app.db, request.query));

  app.get(
    `${def.path}/:id`,
    { schema: { params: idParamSchema, response: { 200: dataEnvelope(surveyResponseDetailSchema) } } },
    async (request) => {
      const response = await findResponse(app.db, request.params.id);
      if (!response) throw notFound('Response');
      return { data: response };
    },
  );

  app.post(
    `${def.path}/:id/exclusion`,
    { schema: { params: idParamSchema, body: responseExclusionSchema, response: { 200: dataEnvelope(surveyResponseDetailSchema) } } },
    async (request) => {
      const { id } = request.params;
      const before = await findResponse(app.db, id);
      if (!before) throw notFound('Response');
      const { excluded, reason } = request.body;
      await setExcluded(app.db, id, excluded, reason, new Date());
      const after = await findResponse(app.db, id);
      if (!after) throw notFound('Response');
      await request.audit({
        action: excluded ? 'survey_responses.exclude' : 'survey_responses.include',
        message: `${excluded ? 'Excluded' : 'Included'} response ${id} ${excluded ? 'from' : 'in'} reporting: ${reason}`,
        entityType: 'survey_response',
        entityId: String(id),
        clientId: after.client_id,
        before: { excluded: before.excluded, excluded_reason: before.excluded_reason },
        after: { excluded: after.excluded, excluded_reason: after.excluded_reason },
      });
      return { data: after };
    },
  );
};
